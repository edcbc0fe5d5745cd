"""Sending one RPC over HTTP/JSON to the gateway, with retries.

Every call has a timeout (per attempt). A call is retried, with exponential
backoff and jitter, only when retrying cannot do harm and may help:

- the gateway answered 503: the server is down, draining, or cannot reach
  PostgreSQL, and nothing was written;
- no connection could be made (refused, connect timeout): nothing was sent;
- the connection failed after the request was sent (reset, read timeout),
  when the RPC is idempotent: reads, and the collector writes, which replace
  the record of their natural key. A create (run, order, developer) whose
  answer was lost is not sent again, since it may have landed.

Any other answer, a 4xx above all, is final: the same request would fail the
same way.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import httpx
from google.protobuf import json_format, message

from mdc.errors import MdcError, error_from_response, error_from_transport
from mdc.methods import Method

USER_AGENT = "mdc-python/0.1"

# Transport errors that are mistakes of the caller, not of the network:
# sending again cannot help.
_NOT_RETRYABLE = (httpx.UnsupportedProtocol, httpx.LocalProtocolError)
# Failures before the request left: it cannot have landed.
_NOT_SENT = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout)


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how patiently a failed call is sent again.

    Attempt ``n`` (0-based) waits a random time between half and all of
    ``min(max_backoff, initial_backoff * 2**n)`` seconds: exponential, with
    jitter so that many collectors cut off together do not return together.
    """

    retries: int = 3
    initial_backoff: float = 0.25
    max_backoff: float = 5.0

    def __post_init__(self) -> None:
        if self.retries < 0:
            raise ValueError("retries must be >= 0")
        if self.initial_backoff < 0 or self.max_backoff < 0:
            raise ValueError("backoff times must be >= 0")

    def delay(self, retry: int, rng: random.Random) -> float:
        """Seconds to wait before retry number ``retry`` (0-based)."""
        cap = min(self.max_backoff, self.initial_backoff * 2**retry)
        return rng.uniform(cap / 2, cap)


class Transport:
    """Sends RPCs to one gateway. Thread-safe (``httpx.Client`` is)."""

    def __init__(
        self,
        base_url: str,
        token: str | None,
        *,
        timeout: float,
        retry: RetryPolicy,
        http: httpx.Client | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if timeout <= 0:
            raise ValueError("timeout must be > 0 seconds")
        headers = {"User-Agent": USER_AGENT, "Accept": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        self._owns_http = http is None
        self._http = http or httpx.Client()
        self._base_url = base_url.rstrip("/")
        self._headers = headers
        self._timeout = httpx.Timeout(timeout)
        self._retry = retry
        self._sleep = sleep
        self._rng = random.Random()

    def close(self) -> None:
        """Closes the connection pool (only if this transport created it)."""
        if self._owns_http:
            self._http.close()

    def call(
        self, method: Method, request: message.Message, headers: Mapping[str, str] = {}
    ) -> message.Message:
        """Sends ``request`` to ``method`` and returns the decoded answer.

        Raises:
            MdcError: the gateway answered an error, or no answer came within
                the retry budget (the last cause chained).
            TypeError: ``request`` is not a message of the method's input type.
        """
        if request.DESCRIPTOR.full_name != method.descriptor.input_type.full_name:
            raise TypeError(
                f"{method.name} takes {method.descriptor.input_type.full_name}, "
                f"not {request.DESCRIPTOR.full_name}"
            )
        built = method.route.build(request)
        all_headers = {**self._headers, **headers}
        content = built.body_bytes()
        if content is not None:
            all_headers["Content-Type"] = "application/json"
        url = self._base_url + built.path
        attempt = 0
        while True:
            attempt += 1
            may_retry = attempt <= self._retry.retries
            try:
                response = self._http.request(
                    built.verb,
                    url,
                    params=tuple(built.query),
                    content=content,
                    headers=all_headers,
                    timeout=self._timeout,
                )
            except _NOT_RETRYABLE:
                raise
            except httpx.TransportError as exc:
                if not may_retry or not (method.idempotent or isinstance(exc, _NOT_SENT)):
                    raise error_from_transport(exc, attempt) from exc
            else:
                if response.is_success:
                    return _decode(method, response)
                if response.status_code != 503 or not may_retry:
                    raise error_from_response(response, attempt)
            self._sleep(self._retry.delay(attempt - 1, self._rng))


def _decode(method: Method, response: httpx.Response) -> message.Message:
    answer = method.response_class()
    try:
        json_format.Parse(response.text or "{}", answer, ignore_unknown_fields=True)
    except json_format.ParseError as exc:
        raise MdcError(
            f"{method.name}: the answer is not the expected JSON: {exc}",
            http_status=response.status_code,
            code="UNKNOWN",
        ) from exc
    return answer

"""Sending one RPC over HTTP/JSON to the gateway, with retries.

Every call has a timeout (per attempt). A call is retried, with exponential
backoff and jitter, only when retrying cannot do harm and may help:

- the gateway answered 503: the server is down, draining, or cannot reach
  PostgreSQL (or its statement timed out), and nothing was written;
- the gateway answered 429 with ``Retry-After``: the developer's rate limit
  refused the call before doing anything (reason ``RATE_LIMITED``); a 429
  without it (failed sign-ins) is final;
- no connection could be made (refused, connect timeout): nothing was sent;
- the connection failed after the request was sent (reset, read timeout),
  when the RPC is idempotent: reads, and the collector writes, which replace
  the record of their natural key. A create (run, order, developer) whose
  answer was lost is not sent again, since it may have landed.

Any other answer, a 4xx above all, is final: the same request would fail the
same way.

A retried answer with ``Retry-After`` (whole seconds) is sent again no sooner
than it says, and one that asks for more than ``MAX_RETRY_AFTER`` seconds is
raised at once (``MdcError.retry_after`` tells how long to wait): the client
does not block its caller for minutes on its own.
"""

from __future__ import annotations

import random
import ssl
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import httpx
from google.protobuf import json_format, message

from mdc.errors import MdcError, error_from_response, error_from_transport, retry_after_of
from mdc.methods import Method

USER_AGENT = "mdc-python/0.1"

# Transport errors that are mistakes of the caller, not of the network:
# sending again cannot help.
_NOT_RETRYABLE = (httpx.UnsupportedProtocol, httpx.LocalProtocolError)
# Failures before the request left: it cannot have landed.
_NOT_SENT = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout)

# The longest Retry-After (seconds) the client waits out by itself.
MAX_RETRY_AFTER = 60.0


def may_retry_answer(status: int, retry_after: float | None) -> bool:
    """Whether an error answer may be sent again (retries left aside): a 503,
    or a 429 that says when (``Retry-After``), unless it asks to wait longer
    than ``MAX_RETRY_AFTER``."""
    if retry_after is not None and retry_after > MAX_RETRY_AFTER:
        return False
    return status == 503 or (status == 429 and retry_after is not None)


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
        verify: ssl.SSLContext | bool = True,
    ) -> None:
        if timeout <= 0:
            raise ValueError("timeout must be > 0 seconds")
        headers = {"User-Agent": USER_AGENT, "Accept": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        self._owns_http = http is None
        # verify: how the client this transport creates checks https
        # certificates (an SSLContext with a private CA, or the system's).
        self._http = http or httpx.Client(verify=verify)
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
        return _decode(method, self._send(method, request, headers, stream=False, timeout=self._timeout))

    def open_stream(
        self,
        method: Method,
        request: message.Message,
        headers: Mapping[str, str] = {},
        *,
        read_timeout: float | None,
    ) -> httpx.Response:
        """Opens a streaming RPC (``mdc.streams``): returns the 200 answer
        with its body unread (the caller reads its lines and closes it).
        Opening is retried as any call; each wait for the next bytes of the
        body may take ``read_timeout`` seconds (None: no limit).

        Raises:
            MdcError: as :meth:`call`, for an answer other than 200.
        """
        timeout = httpx.Timeout(self._timeout.connect, read=read_timeout)
        return self._send(method, request, {**headers, "Accept": "application/x-ndjson"}, stream=True, timeout=timeout)

    def _send(
        self,
        method: Method,
        request: message.Message,
        headers: Mapping[str, str],
        *,
        stream: bool,
        timeout: httpx.Timeout,
    ) -> httpx.Response:
        """Sends with retries; returns the success answer (its body unread
        when ``stream``) or raises the error."""
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
                sent = self._http.build_request(
                    built.verb,
                    url,
                    params=tuple(built.query),
                    content=content,
                    headers=all_headers,
                    timeout=timeout,
                )
                response = self._http.send(sent, stream=stream)
                if stream and not response.is_success:
                    response.read()  # the error answer is short: read it whole
            except _NOT_RETRYABLE:
                raise
            except httpx.TransportError as exc:
                if not may_retry or not (method.idempotent or isinstance(exc, _NOT_SENT)):
                    raise error_from_transport(exc, attempt) from exc
            else:
                if response.is_success:
                    return response
                response.close()
                retry_after = retry_after_of(response)
                if not may_retry or not may_retry_answer(response.status_code, retry_after):
                    raise error_from_response(response, attempt)
                self._sleep(max(self._retry.delay(attempt - 1, self._rng), retry_after or 0.0))
                continue
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

"""Sending one RPC over HTTP/JSON to the gateway, with retries (blocking).

Every call has a timeout (per attempt); when a failed call is sent again is
decided by :mod:`mdc.retry`, which :mod:`mdc.async_transport` shares. This
module also holds what both transports do around the network: building the
HTTP request of an RPC (:func:`prepare`) and decoding its answer
(:func:`decode`).
"""

from __future__ import annotations

import dataclasses
import random
import ssl
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import BinaryIO

import httpx
from google.protobuf import json_format, message

from mdc.errors import (
    MdcError,
    error_from_response,
    error_from_transport,
    invalid_argument,
)
from mdc.methods import Method
from mdc.retry import MAX_RETRY_AFTER, Attempts, RetryPolicy, may_retry_answer

__all__ = ["MAX_RETRY_AFTER", "Prepared", "RetryPolicy", "Transport", "decode", "may_retry_answer", "prepare"]

USER_AGENT = "mdc-python/0.2"


@dataclass(frozen=True)
class Prepared:
    """The HTTP request of one RPC call, ready to send (and to send again)."""

    verb: str
    url: str
    query: tuple[tuple[str, str], ...]
    content: bytes | None
    headers: dict[str, str]


def base_headers(token: str | None) -> dict[str, str]:
    """The headers of every request: agent, JSON, and the bearer token."""
    headers = {"User-Agent": USER_AGENT, "Accept": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    return headers


def check_timeout(timeout: float) -> httpx.Timeout:
    if not timeout > 0:
        raise invalid_argument("timeout", "must be > 0 seconds")
    return httpx.Timeout(timeout)


def prepare(
    base_url: str, headers: Mapping[str, str], method: Method, request: message.Message
) -> Prepared:
    """The HTTP request of ``request`` to ``method`` (its ``google.api.http``
    route), or :class:`~mdc.InvalidArgument` when ``request`` cannot be sent."""
    if not isinstance(request, message.Message) or request.DESCRIPTOR.full_name != method.descriptor.input_type.full_name:
        raise invalid_argument(
            "request",
            f"{method.name} takes {method.descriptor.input_type.full_name}, not {_type_name(request)}",
        )
    try:
        built = method.route.build(request)
    except ValueError as exc:  # a mask naming no field; a list of messages in a query
        raise invalid_argument("request", str(exc)) from exc
    all_headers = dict(headers)
    content = built.body_bytes()
    if content is not None:
        all_headers["Content-Type"] = built.content_type
    return Prepared(built.verb, base_url.rstrip("/") + built.path, tuple(built.query), content, all_headers)


def _type_name(value: object) -> str:
    return value.DESCRIPTOR.full_name if isinstance(value, message.Message) else type(value).__name__


def decode(method: Method, response: httpx.Response) -> message.Message:
    """The answer message of a success answer (unknown fields ignored)."""
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


class TransportBase:
    """What the blocking and the asyncio transports share: the gateway, the
    headers, the timeout and the retry policy of every call."""

    def __init__(self, base_url: str, token: str | None, *, timeout: float, retry: RetryPolicy) -> None:
        if not isinstance(base_url, str):
            raise invalid_argument("base_url", f"expected a URL string, got {type(base_url).__name__}")
        if token is not None and not isinstance(token, str):
            raise invalid_argument("token", f"expected a string or None, got {type(token).__name__}")
        self._timeout = check_timeout(timeout)
        self._base_url = base_url
        self._headers = base_headers(token)
        self._retry = retry
        self._rng = random.Random()

    def _begin(self, method: Method, request: message.Message, headers: Mapping[str, str],
               query: Sequence[tuple[str, str]] = ()) -> tuple[Prepared, Attempts]:
        """The request to send (and send again), with ``query`` after the
        request's own parameters, and its retry decisions."""
        sent = prepare(self._base_url, {**self._headers, **headers}, method, request)
        if query:
            sent = dataclasses.replace(sent, query=sent.query + tuple(query))
        return sent, Attempts(method, self._retry, self._rng)

    def _stream_timeout(self, read_timeout: float | None) -> httpx.Timeout:
        """A stream's timeouts: each wait for the body's next bytes may take
        ``read_timeout`` seconds (None: no limit)."""
        return httpx.Timeout(self._timeout.connect, read=read_timeout)

    @staticmethod
    def _request(http: httpx.Client | httpx.AsyncClient, sent: Prepared, timeout: httpx.Timeout) -> httpx.Request:
        return http.build_request(sent.verb, sent.url, params=sent.query, content=sent.content,
                                  headers=sent.headers, timeout=timeout)


#: The headers of a stream's request besides the call's.
STREAM_HEADERS = {"Accept": "application/x-ndjson"}


class Transport(TransportBase):
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
        super().__init__(base_url, token, timeout=timeout, retry=retry)
        self._owns_http = http is None
        # verify: how the client this transport creates checks https
        # certificates (an SSLContext with a private CA, or the system's).
        self._http = http or httpx.Client(verify=verify)
        self._sleep = sleep

    def close(self) -> None:
        """Closes the connection pool (only if this transport created it)."""
        if self._owns_http:
            self._http.close()

    def call(
        self, method: Method, request: message.Message, headers: Mapping[str, str] = {}
    ) -> message.Message:
        """Sends ``request`` to ``method`` and returns the decoded answer.

        Raises:
            MdcError: the gateway answered an error, no answer came within
                the retry budget (the last cause chained), or ``request`` is
                not a message of the method's input type.
        """
        return decode(method, self._send(method, request, headers, stream=False, timeout=self._timeout))

    def open_stream(
        self,
        method: Method,
        request: message.Message,
        headers: Mapping[str, str] = {},
        *,
        read_timeout: float | None,
        query: Sequence[tuple[str, str]] = (),
    ) -> httpx.Response:
        """Opens a streaming RPC (``mdc.streams``, the exports): returns the
        200 answer with its body unread (the caller reads it and closes it).
        Opening is retried as any call; each wait for the next bytes of the
        body may take ``read_timeout`` seconds (None: no limit). ``query``:
        parameters of the gateway's besides the request's (an export's
        ``format``).

        Raises:
            MdcError: as :meth:`call`, for an answer other than 200.
        """
        return self._send(method, request, {**headers, **STREAM_HEADERS}, stream=True,
                          timeout=self._stream_timeout(read_timeout), query=query)

    def upload(self, method: Method, content: Iterable[bytes] | BinaryIO, length: int,
               query: Sequence[tuple[str, str]], headers: Mapping[str, str] = {}) -> message.Message:
        """POSTs ``content`` (a file, streamed) to ``method``'s route with
        ``query`` and returns the decoded answer. Sent once: a file is not
        sent again on its own (an import is safe to repeat, so the caller
        may).

        Raises:
            MdcError: the gateway's error answer, or the transport's failure.
        """
        all_headers = {**self._headers, **headers, "Content-Type": "application/octet-stream",
                       "Content-Length": str(length)}
        url = self._base_url.rstrip("/") + method.route.template
        try:
            request = self._http.build_request("POST", url, params=tuple(query), content=content,
                                               headers=all_headers, timeout=self._stream_timeout(None))
            response = self._http.send(request)
        except (httpx.HTTPError, httpx.InvalidURL) as exc:
            raise error_from_transport(exc) from exc
        if not response.is_success:
            raise error_from_response(response)
        return decode(method, response)

    def _send(
        self,
        method: Method,
        request: message.Message,
        headers: Mapping[str, str],
        *,
        stream: bool,
        timeout: httpx.Timeout,
        query: Sequence[tuple[str, str]] = (),
    ) -> httpx.Response:
        """Sends with retries; returns the success answer (its body unread
        when ``stream``) or raises the error."""
        sent, attempts = self._begin(method, request, headers, query)
        while True:
            attempts.begin()
            try:
                response = self._http.send(self._request(self._http, sent, timeout), stream=stream)
                if not response.is_success:
                    response.read()  # an error answer is short: read it whole
                    response.close()
            except (httpx.HTTPError, httpx.InvalidURL) as exc:
                delay = attempts.failed(exc)
            else:
                if response.is_success:
                    return response
                delay = attempts.answered(response)
            self._sleep(delay)

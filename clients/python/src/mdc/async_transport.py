"""Sending one RPC over HTTP/JSON to the gateway, with retries (asyncio).

The asyncio twin of :class:`mdc.transport.Transport`: the same requests
(:func:`mdc.transport.prepare`), the same retry decisions
(:class:`mdc.retry.Attempts`) and the same decoding, over ``httpx.AsyncClient``.
"""

from __future__ import annotations

import asyncio
import ssl
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence

import httpx
from google.protobuf import message

from mdc.errors import error_from_response, error_from_transport
from mdc.methods import Method
from mdc.retry import RetryPolicy
from mdc.transport import STREAM_HEADERS, TransportBase, decode


class AsyncTransport(TransportBase):
    """Sends RPCs to one gateway from asyncio code."""

    def __init__(
        self,
        base_url: str,
        token: str | None,
        *,
        timeout: float,
        retry: RetryPolicy,
        http: httpx.AsyncClient | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        verify: ssl.SSLContext | bool = True,
    ) -> None:
        super().__init__(base_url, token, timeout=timeout, retry=retry)
        self._owns_http = http is None
        self._http = http or httpx.AsyncClient(verify=verify)
        self._sleep = sleep

    async def close(self) -> None:
        """Closes the connection pool (only if this transport created it)."""
        if self._owns_http:
            await self._http.aclose()

    async def call(
        self, method: Method, request: message.Message, headers: Mapping[str, str] = {}
    ) -> message.Message:
        """As :meth:`mdc.transport.Transport.call`."""
        response = await self._send(method, request, headers, stream=False, timeout=self._timeout)
        return decode(method, response)

    async def open_stream(
        self,
        method: Method,
        request: message.Message,
        headers: Mapping[str, str] = {},
        *,
        read_timeout: float | None,
        query: Sequence[tuple[str, str]] = (),
    ) -> httpx.Response:
        """As :meth:`mdc.transport.Transport.open_stream`."""
        return await self._send(method, request, {**headers, **STREAM_HEADERS}, stream=True,
                                timeout=self._stream_timeout(read_timeout), query=query)

    async def upload(self, method: Method, content: AsyncIterator[bytes], length: int,
                     query: Sequence[tuple[str, str]], headers: Mapping[str, str] = {}) -> message.Message:
        """:meth:`mdc.transport.Transport.upload`, awaited."""
        all_headers = {**self._headers, **headers, "Content-Type": "application/octet-stream",
                       "Content-Length": str(length)}
        url = self._base_url.rstrip("/") + method.route.template
        try:
            request = self._http.build_request("POST", url, params=tuple(query), content=content,
                                               headers=all_headers, timeout=self._stream_timeout(None))
            response = await self._http.send(request)
        except (httpx.HTTPError, httpx.InvalidURL) as exc:
            raise error_from_transport(exc) from exc
        if not response.is_success:
            raise error_from_response(response)
        return decode(method, response)

    async def _send(
        self,
        method: Method,
        request: message.Message,
        headers: Mapping[str, str],
        *,
        stream: bool,
        timeout: httpx.Timeout,
        query: Sequence[tuple[str, str]] = (),
    ) -> httpx.Response:
        sent, attempts = self._begin(method, request, headers, query)
        while True:
            attempts.begin()
            try:
                response = await self._http.send(self._request(self._http, sent, timeout), stream=stream)
                if not response.is_success:
                    await response.aread()  # an error answer is short: read it whole
                    await response.aclose()
            except (httpx.HTTPError, httpx.InvalidURL) as exc:
                delay = attempts.failed(exc)
            else:
                if response.is_success:
                    return response
                delay = attempts.answered(response)
            await self._sleep(delay)

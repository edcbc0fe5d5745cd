"""The streams of docs/api.md section 10 as asyncio iterators: the twin of
:class:`mdc.EventStream` over ``httpx.AsyncClient``, with the same cursor,
resuming and idle timeout (:mod:`mdc.stream_state`)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import tzinfo
from typing import TYPE_CHECKING

import httpx

from mdc.errors import MdcError, error_from_transport
from mdc.market import MarketEvent
from mdc.record import Records
from mdc.retry import RetryPolicy
from mdc.stream_state import StreamState

if TYPE_CHECKING:
    import pandas
    import polars
    import pyarrow

#: Opens the stream from a cursor (None: from the start) and returns the 200
#: answer with its body unread.
AsyncOpener = Callable[[str | None], Awaitable[httpx.Response]]


class AsyncEventStream(AsyncIterator[MarketEvent]):
    """The events of one watch or replay, read as they arrive (``async
    for``). Made open by :meth:`open` (the :class:`mdc.AsyncClient` stream
    methods await it): a watch is live when it returns. Otherwise as
    :class:`mdc.EventStream`; ``async with`` or :meth:`aclose` hangs up."""

    def __init__(self, open_stream: AsyncOpener, *, cursor: str | None, ends: bool, retry: RetryPolicy | None,
                 idle_timeout: float | None = None,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        self._open = open_stream
        self._state = StreamState(cursor=cursor, ends=ends, retry=retry, idle_timeout=idle_timeout)
        self._sleep = sleep
        self._response: httpx.Response | None = None
        self._lines: AsyncIterator[str] | None = None

    async def open(self) -> AsyncEventStream:
        """Connects; for a watch, also reads its first message (live)."""
        await self._connect()
        if not self._state.ends:
            try:
                first = await self._next_line()
                if first is None:
                    raise self._state.no_first_message()
                self._state.take(first)
            except httpx.ReadTimeout as exc:
                await self.aclose()
                raise self._state.silent() from exc
            except httpx.HTTPError as exc:
                await self.aclose()
                raise error_from_transport(exc) from exc
            except MdcError:
                await self.aclose()
                raise
        return self

    @property
    def cursor(self) -> str | None:
        """Where the stream stands: after the last message read."""
        return self._state.cursor

    def __aiter__(self) -> AsyncEventStream:
        return self

    async def __anext__(self) -> MarketEvent:
        while not self._state.pending:
            if self._state.done:
                raise StopAsyncIteration
            await self._read_message()
        return self._state.pending.popleft()

    async def to_records(self) -> Records[MarketEvent]:
        """Every event left, once the replay has ended (a watch never ends:
        refused with :class:`~mdc.FailedPrecondition`)."""
        self._state.check_ends()
        return Records(MarketEvent, [event async for event in self])

    async def to_arrow(self) -> pyarrow.Table:
        """The table of :meth:`to_records`."""
        return (await self.to_records()).to_arrow()

    async def to_pandas(self, *, tz: str | tzinfo | None = None) -> pandas.DataFrame:
        """The DataFrame of :meth:`to_records`, indexed by each record's time."""
        return (await self.to_records()).to_pandas(tz=tz)

    async def to_polars(self, *, tz: str | None = None) -> polars.DataFrame:
        """The polars DataFrame of :meth:`to_records`."""
        return (await self.to_records()).to_polars(tz=tz)

    async def aclose(self) -> None:
        """Hangs up (the server ends the watch); the iterator ends."""
        self._state.close()
        await self._hang_up()

    async def __aenter__(self) -> AsyncEventStream:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def _connect(self) -> None:
        self._response = await self._open(self._state.cursor)
        self._lines = self._response.aiter_lines()
        self._state.connected()

    async def _hang_up(self) -> None:
        if self._response is not None:
            await self._response.aclose()
        self._response = None
        self._lines = None

    async def _read_message(self) -> None:
        try:
            if self._lines is None:
                await self._connect()
            line = await self._next_line()
            if line is None:
                self._state.body_ended()
                await self._hang_up()
                return
            self._state.take(line)
        except httpx.ReadTimeout as exc:
            await self._broke(self._state.silent(), exc)
        except (httpx.HTTPError, httpx.StreamError) as exc:
            await self._broke(error_from_transport(exc), exc)
        except MdcError as error:
            await self._broke(error, None)

    async def _next_line(self) -> str | None:
        assert self._lines is not None
        async for text in self._lines:
            if text.strip():
                return text
        return None

    async def _broke(self, error: MdcError, cause: BaseException | None) -> None:
        await self._hang_up()
        await self._sleep(self._state.broke(error, cause))

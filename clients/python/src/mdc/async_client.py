"""``mdc.AsyncClient``: :class:`mdc.Client` for asyncio code.

The same methods with the same parameters and answers (each runs the same
description in :mod:`mdc.ops`), awaited; streams are
:class:`~mdc.AsyncEventStream` (``async for``), live when the awaited call
returns. ``tests/test_surfaces.py`` holds the two surfaces equal. Each
method's documentation is that of :class:`mdc.Client`'s.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterable, Mapping
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast, overload

import httpx
from google.protobuf import message

from mdc import downloads, ops
from mdc.admin import Developer, Health
from mdc.async_streams import AsyncEventStream
from mdc.async_transport import AsyncTransport
from mdc.client_base import ClientBase
from mdc.coverage import Coverage
from mdc.enums import (
    Adjustment,
    CorporateActionKind,
    ExportFormat,
    ExportKind,
    InstrumentFile,
    Interval,
    ReplayKind,
    Role,
    Scope,
    ShortlistType,
)
from mdc.inputs import QuoteDataInput, ShortlistEntryInput
from mdc.instruments import (
    CorporateAction,
    CorporateActionEntry,
    FileImportResult,
    Instrument,
)
from mdc.market import (
    CandleSeries,
    CandlesOfSymbols,
    Holiday,
    HolidayCheck,
    NiftyQuote,
    QuoteCrossSection,
    Shortlist,
    StockQuote,
)
from mdc.methods import find_method
from mdc.ops import IDLE_TIMEOUT, PAGE_SIZE, ImportResult
from mdc.record import Records
from mdc.runs import Order, Run

if TYPE_CHECKING:
    import pandas

T = TypeVar("T")


class AsyncClient(ClientBase):
    """A connection to one mdc gateway for asyncio code, configured once;
    the arguments of :class:`mdc.Client` (``http``: an ``httpx.AsyncClient``).
    Use ``async with``, or await :meth:`aclose`."""

    def __init__(
        self,
        base_url: str,
        token: str | None,
        *,
        timeout: float = 10.0,
        retries: int = 3,
        backoff: float = 0.25,
        max_backoff: float = 5.0,
        run_id: str | None = None,
        http: httpx.AsyncClient | None = None,
        ca_file: str | os.PathLike[str] | None = None,
    ) -> None:
        super().__init__(timeout=timeout, retries=retries, backoff=backoff, max_backoff=max_backoff,
                         run_id=run_id, has_http=http is not None, ca_file=ca_file)
        self._transport = AsyncTransport(base_url, token, timeout=timeout, retry=self._retry, http=http,
                                         verify=self._verify)

    async def aclose(self) -> None:
        """Closes the connections."""
        await self._transport.close()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def save_shortlist(self, at: datetime, shortlist_type: ShortlistType,
                             entries: Iterable[ShortlistEntryInput], *, scope: Scope | None = None) -> None:
        return await self._run(ops.save_shortlist(at, shortlist_type, entries, scope=scope))

    async def save_nifty(self, at: datetime, quote: QuoteDataInput, day_change_perc: float) -> None:
        return await self._run(ops.save_nifty(at, quote, day_change_perc))

    async def save_quotes(self, at: datetime, quotes: Mapping[str, QuoteDataInput]) -> None:
        return await self._run(ops.save_quotes(at, quotes))

    async def check_holiday(self, trading_day: date) -> HolidayCheck:
        return await self._run(ops.check_holiday(trading_day))

    async def shortlist(self, shortlist_type: ShortlistType, *, as_of: datetime | None = None,
                        scope: Scope | None = None) -> Shortlist:
        return await self._run(ops.shortlist(shortlist_type, as_of=as_of, scope=scope))

    async def quote(self, symbol: str, *, as_of: datetime | None = None) -> StockQuote:
        return await self._run(ops.quote(symbol, as_of=as_of))

    async def nifty(self, *, as_of: datetime | None = None) -> NiftyQuote:
        return await self._run(ops.nifty(as_of=as_of))

    async def quote_timeline(self, symbol: str, *, start: datetime | None = None, end: datetime | None = None,
                             page_size: int = PAGE_SIZE, adjustment: Adjustment | None = None) -> Records[StockQuote]:
        return await self._run(ops.quote_timeline(symbol, start=start, end=end, page_size=page_size,
                                                  adjustment=adjustment))

    async def nifty_timeline(self, *, start: datetime | None = None, end: datetime | None = None,
                             page_size: int = PAGE_SIZE) -> Records[NiftyQuote]:
        return await self._run(ops.nifty_timeline(start=start, end=end, page_size=page_size))

    async def quotes(self, symbols: Iterable[str] | None = None, *,
                     as_of: datetime | None = None, adjustment: Adjustment | None = None) -> QuoteCrossSection:
        return await self._run(ops.quotes(symbols, as_of=as_of, adjustment=adjustment))

    async def candles(self, symbol: str, interval: Interval, *, start: datetime | None = None,
                      end: datetime | None = None, adjustment: Adjustment | None = None) -> CandleSeries:
        return await self._run(ops.candles(symbol, interval, start=start, end=end, adjustment=adjustment))

    async def candles_of_symbols(self, symbols: Iterable[str], interval: Interval, *,
                                 start: datetime | None = None, end: datetime | None = None,
                                 adjustment: Adjustment | None = None) -> CandlesOfSymbols:
        return await self._run(ops.candles_of_symbols(symbols, interval, start=start, end=end, adjustment=adjustment))

    async def instruments(self, *, symbol: str | None = None, isin: str | None = None, prefix: str | None = None,
                          as_of: date | None = None) -> Records[Instrument]:
        return await self._run(ops.instruments(symbol=symbol, isin=isin, prefix=prefix, as_of=as_of))

    async def corporate_actions(self, symbol: str, *, start: date | None = None,
                                end: date | None = None) -> Records[CorporateAction]:
        return await self._run(ops.corporate_actions(symbol, start=start, end=end))

    async def holidays(self, year: int | None = None) -> Records[Holiday]:
        return await self._run(ops.holidays(year))

    async def runs(self, *, tag: str | None = None, page_size: int = PAGE_SIZE) -> Records[Run]:
        return await self._run(ops.runs(tag=tag, page_size=page_size))

    async def create_run(self, start: datetime, end: datetime, *, name: str | None = None,
                         tags: Iterable[str] = ()) -> Run:
        return await self._run(ops.create_run(start, end, name=name, tags=tags))

    async def update_run(self, run_id: str, *, completed: bool | None = None, name: str | None = None,
                         tags: Iterable[str] | None = None) -> Run:
        return await self._run(ops.update_run(run_id, completed=completed, name=name, tags=tags))

    async def delete_run(self, run_id: str) -> None:
        return await self._run(ops.delete_run(run_id))

    async def orders(self, run_id: str, *, target_gain_percentage: float | None = None,
                     page_size: int = PAGE_SIZE) -> Records[Order]:
        return await self._run(ops.orders(run_id, target_gain_percentage=target_gain_percentage,
                                          page_size=page_size))

    async def create_order(self, run_id: str, symbol: str, at: datetime, *, entry_price: float,
                           stop_loss_price: float, take_profit_price: float) -> Order:
        return await self._run(ops.create_order(run_id, symbol, at, entry_price=entry_price,
                                                stop_loss_price=stop_loss_price,
                                                take_profit_price=take_profit_price))

    async def snapshot_times(self, trading_day: date) -> list[datetime]:
        return await self._run(ops.snapshot_times(trading_day))

    async def coverage(self, trading_day: date | None = None) -> Coverage:
        return await self._run(ops.coverage(trading_day))

    async def create_developer(self, username: str, *, role: Role = "developer") -> Developer:
        return await self._run(ops.create_developer(username, role=role))

    async def import_instruments(self, kind: InstrumentFile,
                                 file: str | os.PathLike[str] | bytes) -> FileImportResult:
        return await self._run(ops.import_instruments(kind, file))

    async def import_corporate_actions(self, file: str | os.PathLike[str] | bytes) -> FileImportResult:
        return await self._run(ops.import_corporate_actions(file))

    async def create_corporate_action(self, kind: CorporateActionKind, ex_date: date, *, symbol: str | None = None,
                                      isin: str | None = None, new_shares: float = 0, held_shares: float = 0,
                                      old_face_value: float = 0, new_face_value: float = 0, amount: float = 0,
                                      description: str | None = None) -> CorporateActionEntry:
        return await self._run(ops.create_corporate_action(kind, ex_date, symbol=symbol, isin=isin,
                                                           new_shares=new_shares, held_shares=held_shares,
                                                           old_face_value=old_face_value,
                                                           new_face_value=new_face_value, amount=amount,
                                                           description=description))

    async def health(self) -> Health:
        return await self._run(ops.health())

    async def watch_quotes(self, symbols: Iterable[str], *, cursor: str | None = None, resume: bool = True,
                           idle_timeout: float | None = IDLE_TIMEOUT) -> AsyncEventStream:
        return await self._stream(ops.watch_quotes(symbols, cursor=cursor, resume=resume,
                                                   idle_timeout=idle_timeout))

    async def watch_nifty(self, *, cursor: str | None = None, resume: bool = True,
                          idle_timeout: float | None = IDLE_TIMEOUT) -> AsyncEventStream:
        return await self._stream(ops.watch_nifty(cursor=cursor, resume=resume, idle_timeout=idle_timeout))

    async def watch_shortlists(self, shortlist_type: ShortlistType, *, scope: Scope | None = None,
                               cursor: str | None = None, resume: bool = True,
                               idle_timeout: float | None = IDLE_TIMEOUT) -> AsyncEventStream:
        return await self._stream(ops.watch_shortlists(shortlist_type, scope=scope, cursor=cursor, resume=resume,
                                                       idle_timeout=idle_timeout))

    async def replay_day(self, trading_day: date, *, symbols: Iterable[str] = (),
                         kinds: Iterable[ReplayKind] = (), cursor: str | None = None, resume: bool = True,
                         idle_timeout: float | None = IDLE_TIMEOUT) -> AsyncEventStream:
        return await self._stream(ops.replay_day(trading_day, symbols=symbols, kinds=kinds, cursor=cursor,
                                                 resume=resume, idle_timeout=idle_timeout))

    async def call(self, method: str, request: message.Message) -> message.Message:
        return await self._transport.call(find_method(method), request, self._call_headers())

    async def paginate(self, method: str, request: message.Message, items: str) -> AsyncIterator[Any]:
        rpc, headers = ops.paged_rpc(method, items), self._call_headers()

        async def items_of_pages() -> AsyncIterator[Any]:
            seen: set[str] = set()
            page: message.Message | None = request
            while page is not None:
                answer = await self._transport.call(rpc, page, headers)
                for item in getattr(answer, items):
                    yield item
                page = ops.next_page(method, page, answer, seen)

        return items_of_pages()

    @overload
    async def export(self, kind: ExportKind, start: date, end: date | None = None, *, symbols: Iterable[str] = (),
                     interval: Interval | None = None, shortlist_type: ShortlistType | None = None,
                     scope: Scope | None = None, format: ExportFormat | None = None,
                     path: None = None, adjustment: Adjustment | None = None) -> pandas.DataFrame: ...

    @overload
    async def export(self, kind: ExportKind, start: date, end: date | None = None, *, symbols: Iterable[str] = (),
                     interval: Interval | None = None, shortlist_type: ShortlistType | None = None,
                     scope: Scope | None = None, format: ExportFormat | None = None,
                     path: str | os.PathLike[str], adjustment: Adjustment | None = None) -> Path: ...

    async def export(self, kind: ExportKind, start: date, end: date | None = None, *, symbols: Iterable[str] = (),
                     interval: Interval | None = None, shortlist_type: ShortlistType | None = None,
                     scope: Scope | None = None, format: ExportFormat | None = None,
                     path: str | os.PathLike[str] | None = None,
                     adjustment: Adjustment | None = None) -> Path | pandas.DataFrame:
        call = ops.export(kind, start, end, symbols=symbols, interval=interval, shortlist_type=shortlist_type,
                          scope=scope, format=format, path=path, adjustment=adjustment)
        response = await self._transport.open_stream(find_method(call.rpc), call.request, self._call_headers(),
                                                     read_timeout=IDLE_TIMEOUT, query=(("format", call.format),))
        part = None if call.path is None else downloads.partial(call.path)
        try:
            if part is None:
                return downloads.frame(await response.aread())
            with part.open("wb") as out:
                async for chunk in response.aiter_bytes():
                    out.write(chunk)
            return part.replace(cast(Path, call.path))
        except httpx.HTTPError as exc:
            if part is not None:
                part.unlink(missing_ok=True)
            raise downloads.broken(call.rpc, exc) from exc
        finally:
            await response.aclose()

    async def import_(self, path: str | os.PathLike[str], *, kind: ExportKind | None = None,
                      format: ExportFormat | None = None) -> ImportResult:
        call = ops.import_(path, kind=kind, format=format)

        async def chunks() -> AsyncIterator[bytes]:
            with call.path.open("rb") as file:
                while chunk := file.read(1 << 20):
                    yield chunk

        answer = await self._transport.upload(find_method(call.rpc), chunks(), call.path.stat().st_size,
                                              (("format", call.format),), self._call_headers())
        return ops.import_result(answer)

    async def _run(self, op: ops.Op[T]) -> T:
        headers = self._call_headers()
        try:
            rpc, request = next(op)
            while True:
                answer = await self._transport.call(find_method(rpc), request, headers)
                rpc, request = op.send(answer)
        except StopIteration as done:
            return cast(T, done.value)

    async def _stream(self, call: ops.StreamCall) -> AsyncEventStream:
        rpc, headers = find_method(call.rpc), self._call_headers()

        async def open_from(cursor: str | None) -> httpx.Response:
            return await self._transport.open_stream(rpc, ops.from_cursor(call, cursor), headers,
                                                     read_timeout=call.idle_timeout)

        retry = self._retry if call.resume else None
        stream = AsyncEventStream(open_from, cursor=call.cursor, ends=call.ends, retry=retry,
                                  idle_timeout=call.idle_timeout)
        return await stream.open()


def _copy_docs() -> None:
    """Gives each method the documentation of :class:`mdc.Client`'s."""
    from mdc.client import Client

    for name, method in vars(AsyncClient).items():
        original = getattr(Client, name, None)
        if callable(method) and method.__doc__ is None and original is not None and original.__doc__:
            method.__doc__ = original.__doc__


_copy_docs()

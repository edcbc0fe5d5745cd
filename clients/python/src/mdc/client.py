"""``mdc.Client``: the everyday tasks of collectors and strategy code, blocking.

Each method forwards to its description in :mod:`mdc.ops` (shared with
:class:`mdc.AsyncClient`) and runs it over :class:`mdc.transport.Transport`.
Answers are records (:mod:`mdc.market`, :mod:`mdc.runs`, :mod:`mdc.admin`):
frozen dataclasses with aware UTC datetimes, None for what the wire left out,
and :class:`~mdc.Records` with ``to_pandas()`` / ``to_polars()`` for lists.
Times go in as timezone-aware ``datetime`` values, trading days as
``datetime.date``. Every error is an :class:`~mdc.MdcError`.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast, overload

import httpx
from google.protobuf import message

from mdc import downloads, ops
from mdc.admin import Developer, Health
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
from mdc.streams import EventStream
from mdc.transport import Transport

if TYPE_CHECKING:
    import pandas

T = TypeVar("T")


class Client(ClientBase):
    """A connection to one mdc gateway, configured once.

    Args:
        base_url: the gateway, e.g. ``"http://127.0.0.1:8080"``.
        token: a developer or admin token (``Authorization: Bearer``).
        timeout: seconds each attempt of a call may take.
        retries: how many times a call is sent again after a 503, a 429
            with ``Retry-After`` (the rate limit; waited out, up to 60 s) or
            a network failure (never after another answer; after a lost
            answer only when the RPC is idempotent); 0 disables.
        backoff: seconds before the first retry; doubled each time (with
            jitter), at most ``max_backoff``.
        run_id: sent as ``X-Run-Id`` on every call (logged by the server).
        http: an ``httpx.Client`` to send with (proxies, custom transports);
            the client creates and owns one when absent.
        ca_file: for an ``https://`` gateway whose certificate a private CA
            signed (``MDC_TLS_CERT``, docs/operations.md "TLS"): the PEM file
            of the CA certificates to verify it with, instead of the system's.
            Not together with ``http`` (configure that client's ``verify``).

    Thread-safe. Use as a context manager, or call :meth:`close`.
    """

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
        http: httpx.Client | None = None,
        ca_file: str | os.PathLike[str] | None = None,
    ) -> None:
        super().__init__(timeout=timeout, retries=retries, backoff=backoff, max_backoff=max_backoff,
                         run_id=run_id, has_http=http is not None, ca_file=ca_file)
        self._transport = Transport(base_url, token, timeout=timeout, retry=self._retry, http=http,
                                    verify=self._verify)

    def close(self) -> None:
        """Closes the connections."""
        self._transport.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # Collector writes (idempotent: the same key again replaces) ------------------

    def save_shortlist(self, at: datetime, shortlist_type: ShortlistType, entries: Iterable[ShortlistEntryInput],
                       *, scope: Scope | None = None) -> None:
        """Stores a shortlist snapshot taken at ``at``, ``entries`` in rank
        order (records or dicts: ``{"nse_symbol": "RELIANCE", "name":
        "Reliance", "price": 1234.5}``); an empty list is a valid observation.
        ``scope`` is ``"TOP_5"`` (the default) or ``"FULL"``."""
        return self._run(ops.save_shortlist(at, shortlist_type, entries, scope=scope))

    def save_nifty(self, at: datetime, quote: QuoteDataInput, day_change_perc: float) -> None:
        """Stores the NIFTY 50 quote taken at ``at``: a :class:`~mdc.QuoteData`
        or its dict, ``{"status": "SUCCESS", "payload": {"last_price": ...}}``."""
        return self._run(ops.save_nifty(at, quote, day_change_perc))

    def save_quotes(self, at: datetime, quotes: Mapping[str, QuoteDataInput]) -> None:
        """Stores the quotes of several stocks taken at ``at``, all or none:
        ``quotes`` maps each NSE symbol to its quote (record or dict)."""
        return self._run(ops.save_quotes(at, quotes))

    def check_holiday(self, trading_day: date) -> HolidayCheck:
        """Whether ``trading_day`` is a holiday, and whether the exchange trades."""
        return self._run(ops.check_holiday(trading_day))

    # Developer reads ---------------------------------------------------------------

    def shortlist(self, shortlist_type: ShortlistType, *, as_of: datetime | None = None,
                  scope: Scope | None = None) -> Shortlist:
        """The shortlist snapshot as of ``as_of`` (now, or the backtest clock,
        when absent). :class:`~mdc.NotFound` when that trading day has none at
        or before it."""
        return self._run(ops.shortlist(shortlist_type, as_of=as_of, scope=scope))

    def quote(self, symbol: str, *, as_of: datetime | None = None) -> StockQuote:
        """The stock's quote as of ``as_of`` (the latest stored when absent)."""
        return self._run(ops.quote(symbol, as_of=as_of))

    def nifty(self, *, as_of: datetime | None = None) -> NiftyQuote:
        """The NIFTY 50 quote as of ``as_of`` (the latest stored when absent)."""
        return self._run(ops.nifty(as_of=as_of))

    def quotes(self, symbols: Iterable[str] | None = None, *, as_of: datetime | None = None,
               adjustment: Adjustment | None = None) -> QuoteCrossSection:
        """The cross-section: the latest quote of each of ``symbols`` (up to
        1000; ``"NIFTY"`` is the index) at or before ``as_of`` (now when
        absent) within its trading day, in one call; ``.quotes`` in the order
        asked (``.to_pandas()`` is their table), the symbols without one in
        ``.missing``. ``symbols=None``: every symbol quoted that day, by
        symbol, read page by page. ``adjustment="split"`` or ``"all"``
        adjusts prices and quantities (docs/api.md section 13.4; needs
        ``symbols``)."""
        return self._run(ops.quotes(symbols, as_of=as_of, adjustment=adjustment))

    def quote_timeline(self, symbol: str, *, start: datetime | None = None, end: datetime | None = None,
                       page_size: int = PAGE_SIZE, adjustment: Adjustment | None = None) -> Records[StockQuote]:
        """Every stored quote of ``symbol`` in [start, end), ascending, read
        page by page (``page_size`` each, at most 1000). ``end`` defaults to
        now (or the backtest clock), ``start`` to 09:15 IST of end's trading
        day. ``adjustment="split"`` or ``"all"`` adjusts each quote for the
        corporate actions after its day known today, or at the backtest
        clock (docs/api.md section 13.4)."""
        return self._run(ops.quote_timeline(symbol, start=start, end=end, page_size=page_size, adjustment=adjustment))

    def nifty_timeline(self, *, start: datetime | None = None, end: datetime | None = None,
                       page_size: int = PAGE_SIZE) -> Records[NiftyQuote]:
        """Every stored NIFTY quote in [start, end), ascending."""
        return self._run(ops.nifty_timeline(start=start, end=end, page_size=page_size))

    def candles(self, symbol: str, interval: Interval, *, start: datetime | None = None,
                end: datetime | None = None, adjustment: Adjustment | None = None) -> CandleSeries:
        """OHLCV candles of ``symbol`` (``"NIFTY"`` for the index) built from
        the quotes stamped in [start, end) (docs/api.md section 6);
        ``adjustment="split"`` or ``"all"`` adjusts them for the corporate
        actions known today, or at the backtest clock (section 13.4)."""
        return self._run(ops.candles(symbol, interval, start=start, end=end, adjustment=adjustment))

    def candles_of_symbols(self, symbols: Iterable[str], interval: Interval, *, start: datetime | None = None,
                           end: datetime | None = None, adjustment: Adjustment | None = None) -> CandlesOfSymbols:
        """OHLCV candles of each of ``symbols`` (1-100; ``"NIFTY"`` is the
        index) in [start, end) in one call, each series as :meth:`candles`
        builds it: ``.to_pandas()`` is one long DataFrame indexed by
        ``(symbol, time)``, ``answer["TCS"]`` one series, ``.missing`` the
        symbols without a candle; ``adjustment`` as for :meth:`candles`."""
        return self._run(ops.candles_of_symbols(symbols, interval, start=start, end=end, adjustment=adjustment))

    def instruments(self, *, symbol: str | None = None, isin: str | None = None, prefix: str | None = None,
                    as_of: date | None = None) -> Records[Instrument]:
        """The instruments of the security master found by exactly one of
        ``symbol`` (current or former), ``isin`` or ``prefix`` (of the company
        name), each with its symbol on ``as_of`` (today, or the backtest
        clock's day) and its whole symbol history (docs/api.md section 13.1)."""
        return self._run(ops.instruments(symbol=symbol, isin=isin, prefix=prefix, as_of=as_of))

    def corporate_actions(self, symbol: str, *, start: date | None = None,
                          end: date | None = None) -> Records[CorporateAction]:
        """The corporate actions of the instrument ``symbol`` names (by any of
        its symbols) with ex-date in [start, end], ascending, each with the
        price and volume factors of adjusted reads (section 13.3)."""
        return self._run(ops.corporate_actions(symbol, start=start, end=end))

    def holidays(self, year: int | None = None) -> Records[Holiday]:
        """The exchange holidays of ``year`` (this year when absent), ascending."""
        return self._run(ops.holidays(year))

    # Dashboard: the caller's runs and orders ------------------------------------------

    def runs(self, *, tag: str | None = None, page_size: int = PAGE_SIZE) -> Records[Run]:
        """The caller's runs, newest first."""
        return self._run(ops.runs(tag=tag, page_size=page_size))

    def create_run(self, start: datetime, end: datetime, *, name: str | None = None,
                   tags: Iterable[str] = ()) -> Run:
        """Creates a run covering [start, end]. Never sent twice: a lost
        answer is an error, since the run may exist."""
        return self._run(ops.create_run(start, end, name=name, tags=tags))

    def update_run(self, run_id: str, *, completed: bool | None = None, name: str | None = None,
                   tags: Iterable[str] | None = None) -> Run:
        """Changes only the fields given (``name=""`` clears the name,
        ``tags=[]`` the tags) and returns the run."""
        return self._run(ops.update_run(run_id, completed=completed, name=name, tags=tags))

    def delete_run(self, run_id: str) -> None:
        """Deletes a run and its orders."""
        return self._run(ops.delete_run(run_id))

    def orders(self, run_id: str, *, target_gain_percentage: float | None = None,
               page_size: int = PAGE_SIZE) -> Records[Order]:
        """A run's orders ascending by time, each with its outcome."""
        return self._run(ops.orders(run_id, target_gain_percentage=target_gain_percentage, page_size=page_size))

    def create_order(self, run_id: str, symbol: str, at: datetime, *, entry_price: float, stop_loss_price: float,
                     take_profit_price: float) -> Order:
        """Adds an order placed at ``at`` to a run."""
        return self._run(ops.create_order(run_id, symbol, at, entry_price=entry_price,
                                          stop_loss_price=stop_loss_price, take_profit_price=take_profit_price))

    def snapshot_times(self, trading_day: date) -> list[datetime]:
        """The instants of ``trading_day``'s shortlist snapshots, ascending."""
        return self._run(ops.snapshot_times(trading_day))

    def coverage(self, trading_day: date | None = None) -> Coverage:
        """Which session minutes of ``trading_day`` (the latest day with data
        when None) hold records, per symbol, for NIFTY and per shortlist, and
        when each collector last wrote; ``.to_pandas()`` is one row per symbol."""
        return self._run(ops.coverage(trading_day))

    # Admin and health -------------------------------------------------------------------

    def create_developer(self, username: str, *, role: Role = "developer") -> Developer:
        """Creates a developer (admin token needed); its ``token`` is in the
        answer, this once."""
        return self._run(ops.create_developer(username, role=role))

    def import_instruments(self, kind: InstrumentFile, file: str | os.PathLike[str] | bytes) -> FileImportResult:
        """Imports NSE's equity list (``kind="equity_list"``, EQUITY_L.csv) or
        symbol-change list (``"symbol_changes"``) from a path or the file's
        bytes (admin token needed; docs/api.md section 13.2): rows that cannot
        be read come back in ``rejected`` with line and reason, the others
        are imported; importing the same file again changes nothing."""
        return self._run(ops.import_instruments(kind, file))

    def import_corporate_actions(self, file: str | os.PathLike[str] | bytes) -> FileImportResult:
        """Imports NSE's corporate-actions file (admin token needed): each
        PURPOSE read into typed actions; rows not understood in ``rejected``,
        rows without a price effect in ``ignored`` (section 13.3)."""
        return self._run(ops.import_corporate_actions(file))

    def create_corporate_action(self, kind: CorporateActionKind, ex_date: date, *, symbol: str | None = None,
                                isin: str | None = None, new_shares: float = 0, held_shares: float = 0,
                                old_face_value: float = 0, new_face_value: float = 0, amount: float = 0,
                                description: str | None = None) -> CorporateActionEntry:
        """Enters one corporate action the files lack or got wrong (admin
        token needed; docs/api.md section 13.7): of the instrument of
        ``isin`` or of ``symbol`` on ``ex_date`` (exactly one). Bonus and
        rights a:b take ``new_shares`` and ``held_shares``; split and
        consolidation ``old_face_value`` and ``new_face_value``; dividend and
        rights ``amount``. ``description`` defaults to NSE's wording
        (``"Dividend Rs 4"``). Entering the same action again changes
        nothing (``created`` False); the same kind, day and description with
        other numbers raises :class:`~mdc.FailedPrecondition`."""
        return self._run(ops.create_corporate_action(kind, ex_date, symbol=symbol, isin=isin, new_shares=new_shares,
                                                     held_shares=held_shares, old_face_value=old_face_value,
                                                     new_face_value=new_face_value, amount=amount,
                                                     description=description))

    def health(self) -> Health:
        """The service's health (no token needed). A service that cannot reach
        its database answers 503, raised as :class:`~mdc.Unavailable` after
        the retries."""
        return self._run(ops.health())

    # Streams (docs/api.md section 10) -------------------------------------------------

    def watch_quotes(self, symbols: Iterable[str], *, cursor: str | None = None, resume: bool = True,
                     idle_timeout: float | None = IDLE_TIMEOUT) -> EventStream:
        """The stock quotes of ``symbols`` as their writes commit: an iterator
        of :class:`~mdc.MarketEvent` (``event.quote``) that never ends by
        itself, live when this returns. ``cursor``: resume after it
        (``stream.cursor`` of an earlier stream). With ``resume``, a watch cut
        off (a server shutdown, a database outage, a lost connection, reading
        too slowly) reconnects from its cursor by itself, within the client's
        retries. A connection on which nothing arrives for ``idle_timeout``
        seconds (not even the server's heartbeat) counts as lost; None waits
        for ever. Under :meth:`backtest_clock` a watch is refused (412)."""
        return self._stream(ops.watch_quotes(symbols, cursor=cursor, resume=resume, idle_timeout=idle_timeout))

    def watch_nifty(self, *, cursor: str | None = None, resume: bool = True,
                    idle_timeout: float | None = IDLE_TIMEOUT) -> EventStream:
        """NIFTY 50 quotes as their writes commit (``event.nifty``); as
        :meth:`watch_quotes`."""
        return self._stream(ops.watch_nifty(cursor=cursor, resume=resume, idle_timeout=idle_timeout))

    def watch_shortlists(self, shortlist_type: ShortlistType, *, scope: Scope | None = None,
                         cursor: str | None = None, resume: bool = True,
                         idle_timeout: float | None = IDLE_TIMEOUT) -> EventStream:
        """Shortlist snapshots of one type and scope (``TOP_5`` by default)
        as their writes commit (``event.shortlist``); as :meth:`watch_quotes`."""
        return self._stream(ops.watch_shortlists(shortlist_type, scope=scope, cursor=cursor, resume=resume,
                                                 idle_timeout=idle_timeout))

    def replay_day(self, trading_day: date, *, symbols: Iterable[str] = (), kinds: Iterable[ReplayKind] = (),
                   cursor: str | None = None, resume: bool = True,
                   idle_timeout: float | None = IDLE_TIMEOUT) -> EventStream:
        """Every stored record of ``trading_day`` in time order (NIFTY before
        stock quotes before shortlists at one instant), as an iterator of
        :class:`~mdc.MarketEvent` that ends after the last one, or a table
        (``.to_pandas()``). ``symbols`` filters the stock quotes, ``kinds``
        the records (empty: all). Under :meth:`backtest_clock`, only records
        stamped before it. Otherwise as :meth:`watch_quotes`."""
        return self._stream(ops.replay_day(trading_day, symbols=symbols, kinds=kinds, cursor=cursor,
                                           resume=resume, idle_timeout=idle_timeout))

    # Export (docs/api.md section 11) ----------------------------------------------------

    @overload
    def export(self, kind: ExportKind, start: date, end: date | None = None, *, symbols: Iterable[str] = (),
               interval: Interval | None = None, shortlist_type: ShortlistType | None = None,
               scope: Scope | None = None, format: ExportFormat | None = None,
               path: None = None, adjustment: Adjustment | None = None) -> pandas.DataFrame: ...

    @overload
    def export(self, kind: ExportKind, start: date, end: date | None = None, *, symbols: Iterable[str] = (),
               interval: Interval | None = None, shortlist_type: ShortlistType | None = None,
               scope: Scope | None = None, format: ExportFormat | None = None,
               path: str | os.PathLike[str], adjustment: Adjustment | None = None) -> Path: ...

    def export(self, kind: ExportKind, start: date, end: date | None = None, *, symbols: Iterable[str] = (),
               interval: Interval | None = None, shortlist_type: ShortlistType | None = None,
               scope: Scope | None = None, format: ExportFormat | None = None,
               path: str | os.PathLike[str] | None = None,
               adjustment: Adjustment | None = None) -> Path | pandas.DataFrame:
        """Every stored record of ``kind`` (``"quotes"``, ``"nifty"``,
        ``"shortlists"`` or ``"candles"``) of the trading days ``start`` to
        ``end`` (default: ``start``; at most 31 days), streamed as a file.
        With ``path``, writes it there in ``format`` (``"parquet"`` by
        default, ``"csv"``, ``"ndjson"``; first as ``<path>.part``, renamed
        once whole) and returns the path; without, returns the pandas
        DataFrame of its Parquet form (the ``pandas`` extra). ``symbols``
        (quotes, candles), ``interval`` (candles, required),
        ``shortlist_type`` and ``scope`` (shortlists) narrow it. The columns:
        docs/api.md section 11. ``adjustment`` (quotes and candles of listed
        ``symbols``: ``"raw"``, ``"split"`` or ``"all"``) multiplies prices and
        volumes for corporate actions (section 13.6); an adjusted file has a
        last column ``adjustment`` and cannot be imported. An export that
        breaks off raises :class:`~mdc.Unavailable`; ask again."""
        call = ops.export(kind, start, end, symbols=symbols, interval=interval, shortlist_type=shortlist_type,
                          scope=scope, format=format, path=path, adjustment=adjustment)
        response = self._transport.open_stream(find_method(call.rpc), call.request, self._call_headers(),
                                               read_timeout=IDLE_TIMEOUT, query=(("format", call.format),))
        part = None if call.path is None else downloads.partial(call.path)
        try:
            if part is None:
                return downloads.frame(response.read())
            with part.open("wb") as out:
                for chunk in response.iter_bytes():
                    out.write(chunk)
            return part.replace(cast(Path, call.path))
        except httpx.HTTPError as exc:
            if part is not None:
                part.unlink(missing_ok=True)
            raise downloads.broken(call.rpc, exc) from exc
        finally:
            response.close()

    # Import (docs/api.md section 12) ----------------------------------------------------

    def import_(self, path: str | os.PathLike[str], *, kind: ExportKind | None = None,
                format: ExportFormat | None = None) -> ImportResult:
        """Stores the records of the file at ``path``, a file an export wrote
        (admin token): streamed from disk, stored whole once the server has
        it all, or not at all. ``kind`` (``"quotes"``, ``"nifty"``,
        ``"shortlists"``) and ``format`` (``"parquet"``, ``"csv"``,
        ``"ndjson"``) default to what the export's file name says
        (``quotes_2035-03-06_2035-03-07.parquet``). Returns the records read,
        written and left unchanged; importing a file again changes nothing.
        A bad file raises :class:`~mdc.InvalidArgument` whose message begins
        with its line (CSV, NDJSON) or row (Parquet); nothing was stored."""
        call = ops.import_(path, kind=kind, format=format)
        with call.path.open("rb") as file:
            answer = self._transport.upload(find_method(call.rpc), file, call.path.stat().st_size,
                                            (("format", call.format),), self._call_headers())
        return ops.import_result(answer)

    # Any RPC, in generated messages -----------------------------------------------------

    def call(self, method: str, request: message.Message) -> message.Message:
        """Calls any RPC of the contract by name with its generated request
        message, and returns the generated answer (the low level under the
        methods above), e.g. ``client.call("AdminService.ListDevelopers",
        admin_pb2.ListDevelopersRequest())``."""
        return self._transport.call(find_method(method), request, self._call_headers())

    def paginate(self, method: str, request: message.Message, items: str) -> Iterator[Any]:
        """Every item (a generated message) of a paged list RPC, fetched page
        by page as the iterator is consumed; ``items`` names the answer's
        repeated field, e.g. ``"developers"``."""
        rpc, headers = ops.paged_rpc(method, items), self._call_headers()

        def items_of_pages() -> Iterator[Any]:
            seen: set[str] = set()
            page: message.Message | None = request
            while page is not None:
                answer = self._transport.call(rpc, page, headers)
                yield from getattr(answer, items)
                page = ops.next_page(method, page, answer, seen)

        return items_of_pages()

    # Plumbing ------------------------------------------------------------------------------

    def _run(self, op: ops.Op[T]) -> T:
        """Runs a method's description: each call it yields, with the
        headers in force now, until it returns the result."""
        headers = self._call_headers()
        try:
            rpc, request = next(op)
            while True:
                answer = self._transport.call(find_method(rpc), request, headers)
                rpc, request = op.send(answer)
        except StopIteration as done:
            return cast(T, done.value)

    def _stream(self, call: ops.StreamCall) -> EventStream:
        rpc, headers = find_method(call.rpc), self._call_headers()

        def open_from(cursor: str | None) -> httpx.Response:
            return self._transport.open_stream(rpc, ops.from_cursor(call, cursor), headers,
                                               read_timeout=call.idle_timeout)

        retry = self._retry if call.resume else None
        return EventStream(open_from, cursor=call.cursor, ends=call.ends, retry=retry, idle_timeout=call.idle_timeout)

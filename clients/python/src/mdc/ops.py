"""The client's methods, described once for :class:`mdc.Client` and
:class:`mdc.AsyncClient`.

Each public function here that answers an :data:`Op` or a
:class:`StreamCall` is one method of both clients, with the same
parameters: it checks and converts the arguments, names the RPC(s) to call
and turns the answer into records, without any I/O. A unary or paged method
is a generator (:data:`Op`) that yields ``(rpc, request)`` steps and
receives each answer message; the blocking client drives it with
``httpx.Client``, the asyncio one with ``httpx.AsyncClient``. A stream method
returns a :class:`StreamCall` both clients open their own way (the other
public functions are their shared plumbing). ``tests/test_surfaces.py``
checks that both clients have each such function as a method of the same
signature, and no other.

Adding a method to both clients: a function here, a record type when the
answer is new, and the two one-line methods that forward to it.
"""

from __future__ import annotations

import os
from collections.abc import Generator, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import TypeVar, cast

from google.protobuf import field_mask_pb2, message

from mdc import build
from mdc.admin import Developer, Health
from mdc.build import instant, request, strings, timezone_of, to_message
from mdc.convert import from_message, records
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
from mdc.errors import MdcError, invalid_argument
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
from mdc.methods import Method, find_method
from mdc.record import Record, Records
from mdc.runs import Order, Run
from mdc.v1 import (
    admin_pb2,
    collector_pb2,
    dashboard_pb2,
    developer_pb2,
    export_pb2,
    health_pb2,
    market_pb2,
    stream_pb2,
)

T = TypeVar("T")
R = TypeVar("R", bound=Record)

#: One call of a method: the RPC (``Service.Method``) and its request.
Step = tuple[str, message.Message]
#: A unary or paged method: yields its calls, gets their answers, returns
#: the method's result.
Op = Generator[Step, message.Message, T]

#: Seconds without any message after which a stream's connection is taken
#: for lost: three of the server's default heartbeat intervals (15 s).
IDLE_TIMEOUT = 45.0

#: The page size of the paged lists: the most the server sends in a page.
#: A method reads every page, so the fewer pages, the fewer calls counted
#: against the developer's rate limit.
PAGE_SIZE = 1000


@dataclass(frozen=True)
class StreamCall:
    """A stream to open: its RPC, request and how to keep it going."""

    rpc: str
    request: message.Message
    cursor: str | None
    resume: bool
    idle_timeout: float | None
    #: A replay ends after the day's last record; a watch never does.
    ends: bool


@dataclass(frozen=True)
class ExportCall:
    """An export to download (docs/api.md section 11): its RPC and request,
    the file format, and where to write the file (None: read it into a
    pandas DataFrame)."""

    rpc: str
    request: message.Message
    format: ExportFormat
    path: Path | None


@dataclass(frozen=True)
class ImportResult:
    """What an import stored, once committed (docs/api.md section 12)."""

    #: Records the file held.
    records: int
    #: Keys written: new, or stored with another content.
    written: int
    #: Keys whose stored record was the same, left as they were.
    unchanged: int


@dataclass(frozen=True)
class ImportCall:
    """A file to import (docs/api.md section 12): the RPC of its kind, the
    file and its format."""

    rpc: str
    path: Path
    format: ExportFormat


def _unary(rpc: str, req: message.Message) -> Op[message.Message]:
    answer = yield rpc, req
    return answer


def _answer(rpc: str, req: message.Message, record_type: type[R]) -> Op[R]:
    answer = yield rpc, req
    return from_message(record_type, answer)


def next_page(rpc: str, req: message.Message, answer: message.Message, seen: set[str]) -> message.Message | None:
    """The request of the page after ``answer`` (``pageToken`` set to its
    ``nextPageToken``), or None after the last page. ``seen`` holds the
    tokens followed so far: a repeated one would loop for ever."""
    token: str = getattr(answer, "next_page_token")
    if not token:
        return None
    if token in seen:
        raise MdcError(f"{rpc}: the server repeated page token {token!r}", http_status=200, code="INTERNAL")
    seen.add(token)
    following = type(req)()
    following.CopyFrom(req)
    setattr(following, "page_token", token)
    return following


def _all_pages(rpc: str, req: message.Message, items: str, record_type: type[R]) -> Op[Records[R]]:
    """Every item of a paged list, following ``nextPageToken``."""
    collected: list[message.Message] = []
    seen: set[str] = set()
    page: message.Message | None = req
    while page is not None:
        answer = yield rpc, page
        collected.extend(getattr(answer, items))
        page = next_page(rpc, page, answer, seen)
    return records(record_type, collected)


def paged_rpc(method: str, items: str) -> Method:
    """The RPC of :meth:`mdc.Client.paginate`, with ``items`` checked to be
    a list of its answer."""
    rpc = find_method(method)
    field = rpc.response_class.DESCRIPTOR.fields_by_name.get(items)
    if field is None or not field.is_repeated:
        lists = [f.name for f in rpc.response_class.DESCRIPTOR.fields if f.is_repeated]
        raise invalid_argument("items", f"{rpc.name} answers no list {items!r}; its lists: {', '.join(lists)}")
    return rpc


def from_cursor(call: StreamCall, cursor: str | None) -> message.Message:
    """The request of a stream that starts after ``cursor``."""
    req = type(call.request)()
    req.CopyFrom(call.request)
    setattr(req, "cursor", cursor or "")
    return req


def _stream(rpc: str, req: message.Message, cursor: str | None, resume: bool,
            idle_timeout: float | None, *, ends: bool) -> StreamCall:
    if idle_timeout is not None and not idle_timeout > 0:
        raise invalid_argument("idle_timeout", "must be > 0 seconds, or None")
    if cursor is not None and not isinstance(cursor, str):
        raise invalid_argument("cursor", f"expected a string, got {type(cursor).__name__}")
    return StreamCall(rpc, req, cursor or None, resume, idle_timeout, ends)


# Collector writes (idempotent: the same key again replaces) -------------------


def save_shortlist(at: datetime, shortlist_type: ShortlistType, entries: Iterable[ShortlistEntryInput], *,
                   scope: Scope | None = None) -> Op[None]:
    data = request(collector_pb2.ShortlistData, "data.", timestamp=instant("data.timestamp", at, "at"),
                   timezone=timezone_of(at), shortlist_type=shortlist_type, scope=scope)
    for i, entry in enumerate(_listed("data.entries", entries)):
        data.entries.append(to_message(market_pb2.ShortlistEntry, entry, f"data.entries[{i}]"))
    yield from _unary("CollectorService.SaveShortlist", collector_pb2.SaveShortlistRequest(data=data))


def save_nifty(at: datetime, quote: QuoteDataInput, day_change_perc: float) -> Op[None]:
    data = request(collector_pb2.NiftyData, "data.", timestamp=instant("data.timestamp", at, "at"),
                   timezone=timezone_of(at), day_change_perc=day_change_perc)
    data.quote_data.CopyFrom(to_message(market_pb2.QuoteData, quote, "data.quoteData"))
    yield from _unary("CollectorService.SaveNifty", collector_pb2.SaveNiftyRequest(data=data))


def save_quotes(at: datetime, quotes: Mapping[str, QuoteDataInput]) -> Op[None]:
    if not isinstance(quotes, Mapping):
        raise invalid_argument("data.quotes", f"expected a dict of symbol to quote, got {type(quotes).__name__}")
    data = request(collector_pb2.QuotesData, "data.", timestamp=instant("data.timestamp", at, "at"),
                   timezone=timezone_of(at))
    for i, (symbol, quote) in enumerate(quotes.items()):
        where = f"data.quotes[{i}]"
        item = request(collector_pb2.QuoteItem, where + ".", nse_symbol=symbol)
        item.quote_data.CopyFrom(to_message(market_pb2.QuoteData, quote, where + ".quoteData"))
        data.quotes.append(item)
    yield from _unary("CollectorService.SaveQuotes", collector_pb2.SaveQuotesRequest(data=data))


def check_holiday(trading_day: date) -> Op[HolidayCheck]:
    req = collector_pb2.CheckHolidayRequest(date=build.trading_day("date", trading_day, "trading_day"))
    return (yield from _answer("CollectorService.CheckHoliday", req, HolidayCheck))


# Developer reads ----------------------------------------------------------------


def shortlist(shortlist_type: ShortlistType, *, as_of: datetime | None = None,
              scope: Scope | None = None) -> Op[Shortlist]:
    req = request(developer_pb2.GetListRequest,
                  type=shortlist_type, datetime=instant("datetime", as_of, "as_of"), timezone=timezone_of(as_of), scope=scope)
    return (yield from _answer("DeveloperService.GetList", req, Shortlist))


def quote(symbol: str, *, as_of: datetime | None = None) -> Op[StockQuote]:
    req = request(developer_pb2.GetQuoteRequest, symbol=symbol, datetime=instant("datetime", as_of, "as_of"),
                  timezone=timezone_of(as_of))
    return (yield from _answer("DeveloperService.GetQuote", req, StockQuote))


def nifty(*, as_of: datetime | None = None) -> Op[NiftyQuote]:
    req = request(developer_pb2.GetNiftyRequest, datetime=instant("datetime", as_of, "as_of"), timezone=timezone_of(as_of))
    return (yield from _answer("DeveloperService.GetNifty", req, NiftyQuote))


def quotes(symbols: Iterable[str] | None = None, *, as_of: datetime | None = None,
           adjustment: Adjustment | None = None) -> Op[QuoteCrossSection]:
    if symbols is None:
        req = request(developer_pb2.GetQuotesRequest, datetime=instant("datetime", as_of, "as_of"), timezone=timezone_of(as_of),
                      page_size=PAGE_SIZE, adjustment=adjustment)
    else:
        listed = strings("symbols", symbols)
        if not listed:
            raise invalid_argument("symbols", "name at least one symbol, or None for every symbol of the day")
        req = request(developer_pb2.GetQuotesRequest, symbols=listed, datetime=instant("datetime", as_of, "as_of"),
                      timezone=timezone_of(as_of), adjustment=adjustment)
    rpc = "DeveloperService.GetQuotes"
    answer = yield rpc, req
    merged = developer_pb2.QuoteCrossSection()
    merged.CopyFrom(cast(developer_pb2.QuoteCrossSection, answer))
    seen: set[str] = set()
    page = next_page(rpc, req, answer, seen)
    while page is not None:
        answer = yield rpc, page
        merged.quotes.extend(getattr(answer, "quotes"))
        page = next_page(rpc, page, answer, seen)
    merged.next_page_token = ""
    return from_message(QuoteCrossSection, merged)


def quote_timeline(symbol: str, *, start: datetime | None = None, end: datetime | None = None,
                   page_size: int = PAGE_SIZE, adjustment: Adjustment | None = None) -> Op[Records[StockQuote]]:
    req = request(developer_pb2.GetQuoteTimelineRequest, symbol=symbol, start_datetime=instant("start_datetime", start, "start"),
                  end_datetime=instant("end_datetime", end, "end"), timezone=timezone_of(start, end), page_size=page_size,
                  adjustment=adjustment)
    return (yield from _all_pages("DeveloperService.GetQuoteTimeline", req, "quotes", StockQuote))


def nifty_timeline(*, start: datetime | None = None, end: datetime | None = None,
                   page_size: int = PAGE_SIZE) -> Op[Records[NiftyQuote]]:
    req = request(developer_pb2.GetNiftyTimelineRequest, start_datetime=instant("start_datetime", start, "start"),
                  end_datetime=instant("end_datetime", end, "end"), timezone=timezone_of(start, end), page_size=page_size)
    return (yield from _all_pages("DeveloperService.GetNiftyTimeline", req, "quotes", NiftyQuote))


def candles(symbol: str, interval: Interval, *, start: datetime | None = None,
            end: datetime | None = None, adjustment: Adjustment | None = None) -> Op[CandleSeries]:
    req = request(developer_pb2.GetHistoricalCandlesRequest, symbol=symbol, interval=interval,
                  start_datetime=instant("start_datetime", start, "start"), end_datetime=instant("end_datetime", end, "end"),
                  timezone=timezone_of(start, end), adjustment=adjustment)
    return (yield from _answer("DeveloperService.GetHistoricalCandles", req, CandleSeries))


def candles_of_symbols(symbols: Iterable[str], interval: Interval, *, start: datetime | None = None,
                       end: datetime | None = None, adjustment: Adjustment | None = None) -> Op[CandlesOfSymbols]:
    listed = strings("symbols", symbols)
    if not listed:
        raise invalid_argument("symbols", "is required: name 1-100 symbols")
    req = request(developer_pb2.GetCandlesOfSymbolsRequest, symbols=listed, interval=interval,
                  start_datetime=instant("start_datetime", start, "start"),
                  end_datetime=instant("end_datetime", end, "end"), timezone=timezone_of(start, end),
                  adjustment=adjustment)
    return (yield from _answer("DeveloperService.GetCandlesOfSymbols", req, CandlesOfSymbols))


def instruments(*, symbol: str | None = None, isin: str | None = None, prefix: str | None = None,
                as_of: date | None = None) -> Op[Records[Instrument]]:
    given = [name for name, value in (("symbol", symbol), ("isin", isin), ("prefix", prefix)) if value is not None]
    if len(given) != 1:
        raise invalid_argument(given[1] if given else "symbol",
                               "give exactly one of symbol, isin and prefix" + (f" (got {', '.join(given)})" if given else ""))
    req = request(developer_pb2.ListInstrumentsRequest, symbol=symbol, isin=isin, prefix=prefix,
                  date=None if as_of is None else build.trading_day("date", as_of, "as_of"))
    answer = yield from _unary("DeveloperService.ListInstruments", req)
    return records(Instrument, getattr(answer, "instruments"))


def corporate_actions(symbol: str, *, start: date | None = None, end: date | None = None) -> Op[Records[CorporateAction]]:
    req = request(developer_pb2.ListCorporateActionsRequest, symbol=symbol,
                  start_date=None if start is None else build.trading_day("start_date", start, "start"),
                  end_date=None if end is None else build.trading_day("end_date", end, "end"))
    answer = yield from _unary("DeveloperService.ListCorporateActions", req)
    return records(CorporateAction, getattr(answer, "actions"))


#: Each kind of export: its RPC, request message, and the arguments it
#: takes besides the days and the format.
_EXPORTS: dict[str, tuple[str, type[message.Message], frozenset[str]]] = {
    "quotes": ("ExportService.ExportQuotes", export_pb2.ExportQuotesRequest, frozenset({"symbols", "adjustment"})),
    "nifty": ("ExportService.ExportNifty", export_pb2.ExportNiftyRequest, frozenset()),
    "shortlists": ("ExportService.ExportShortlists", export_pb2.ExportShortlistsRequest,
                   frozenset({"type", "scope"})),
    "candles": ("ExportService.ExportCandles", export_pb2.ExportCandlesRequest, frozenset({"symbols", "interval", "adjustment"})),
}
_EXPORT_FORMATS = ("parquet", "csv", "ndjson")


def export(kind: ExportKind, start: date, end: date | None = None, *, symbols: Iterable[str] = (),
           interval: Interval | None = None, shortlist_type: ShortlistType | None = None,
           scope: Scope | None = None, format: ExportFormat | None = None,
           path: str | os.PathLike[str] | None = None, adjustment: Adjustment | None = None) -> ExportCall:
    if kind not in _EXPORTS:
        raise invalid_argument("kind", f"must be one of {', '.join(_EXPORTS)}, got {kind!r}")
    rpc, request_class, takes = _EXPORTS[kind]
    given = {"symbols": strings("symbols", symbols) or None, "interval": interval, "type": shortlist_type,
             "scope": scope, "adjustment": adjustment}
    names = {"type": "shortlist_type"}
    for key, value in given.items():
        if value is not None and key not in takes:
            raise invalid_argument(key, f"an export of {kind} takes no {names.get(key, key)}")
    if format is not None and format not in _EXPORT_FORMATS:
        raise invalid_argument("format", f"must be one of {', '.join(_EXPORT_FORMATS)}, got {format!r}")
    if path is None and format not in (None, "parquet"):
        raise invalid_argument("format", "a DataFrame is read from Parquet: give a path to keep a CSV or NDJSON file")
    if path is not None and not isinstance(path, (str, os.PathLike)):
        raise invalid_argument("path", f"expected a file path, got {type(path).__name__}")
    req = request(request_class, start_date=build.trading_day("start_date", start, "start"),
                  end_date=None if end is None else build.trading_day("end_date", end, "end"),
                  **{key: value for key, value in given.items() if key in takes})
    return ExportCall(rpc, req, format or "parquet", None if path is None else Path(path))


#: The RPC of each kind of import.
_IMPORTS: dict[str, str] = {
    "quotes": "ImportService.ImportQuotes",
    "nifty": "ImportService.ImportNifty",
    "shortlists": "ImportService.ImportShortlists",
}


def import_(path: str | os.PathLike[str], *, kind: ExportKind | None = None,
                format: ExportFormat | None = None) -> ImportCall:
    """The import of the file at ``path``. Without ``kind`` and ``format``,
    both come from the name an export gives its file
    (``quotes_2035-03-06_2035-03-07.parquet``)."""
    if not isinstance(path, (str, os.PathLike)):
        raise invalid_argument("path", f"expected a file path, got {type(path).__name__}")
    file = Path(path)
    if kind is None:
        kind = cast(ExportKind, file.name.split("_", 1)[0])
        if kind not in _IMPORTS:
            raise invalid_argument("kind", f"is not in the file's name {file.name!r}: give kind= "
                                           f"({', '.join(_IMPORTS)})")
    if kind not in _IMPORTS:
        raise invalid_argument("kind", f"must be one of {', '.join(_IMPORTS)}, got {kind!r}")
    if format is None:
        format = cast(ExportFormat, file.suffix.lstrip(".").lower())
        if format not in _EXPORT_FORMATS:
            raise invalid_argument("format", f"is not the file's extension {file.suffix!r}: give format= "
                                             f"({', '.join(_EXPORT_FORMATS)})")
    if format not in _EXPORT_FORMATS:
        raise invalid_argument("format", f"must be one of {', '.join(_EXPORT_FORMATS)}, got {format!r}")
    if not file.is_file():
        raise invalid_argument("path", f"{file} is not a file")
    return ImportCall(_IMPORTS[kind], file, format)


def import_result(answer: message.Message) -> ImportResult:
    """The ImportResult of an ImportResponse."""
    return ImportResult(int(getattr(answer, "records")), int(getattr(answer, "written")),
                        int(getattr(answer, "unchanged")))


def holidays(year: int | None = None) -> Op[Records[Holiday]]:
    req = request(developer_pb2.ListHolidaysRequest, year=year)
    answer = yield from _unary("DeveloperService.ListHolidays", req)
    return records(Holiday, getattr(answer, "holidays"))


# Dashboard: the caller's runs and orders ------------------------------------------


def runs(*, tag: str | None = None, page_size: int = PAGE_SIZE) -> Op[Records[Run]]:
    req = request(dashboard_pb2.ListRunsRequest, tag=tag, page_size=page_size)
    return (yield from _all_pages("DashboardService.ListRuns", req, "runs", Run))


def create_run(start: datetime, end: datetime, *, name: str | None = None, tags: Iterable[str] = ()) -> Op[Run]:
    req = request(dashboard_pb2.CreateRunRequest,
                  start_datetime=instant("start_datetime", start, "start"), end_datetime=instant("end_datetime", end, "end"),
                  timezone=timezone_of(start), name=name, tags=strings("tags", tags))
    return (yield from _answer("DashboardService.CreateRun", req, Run))


def update_run(run_id: str, *, completed: bool | None = None, name: str | None = None,
               tags: Iterable[str] | None = None) -> Op[Run]:
    given = {"completed": completed, "name": name, "tags": None if tags is None else strings("tags", tags)}
    update = request(dashboard_pb2.RunUpdate, **given)
    mask = field_mask_pb2.FieldMask(paths=[key for key, value in given.items() if value is not None])
    req = request(dashboard_pb2.UpdateRunRequest, run_id=run_id)
    req.run.CopyFrom(update)
    req.update_mask.CopyFrom(mask)
    return (yield from _answer("DashboardService.UpdateRun", req, Run))


def delete_run(run_id: str) -> Op[None]:
    yield from _unary("DashboardService.DeleteRun", request(dashboard_pb2.DeleteRunRequest, run_id=run_id))


def orders(run_id: str, *, target_gain_percentage: float | None = None, page_size: int = PAGE_SIZE) -> Op[Records[Order]]:
    req = request(dashboard_pb2.ListOrdersRequest, run_id=run_id, target_gain_percentage=target_gain_percentage,
                  page_size=page_size)
    return (yield from _all_pages("DashboardService.ListOrders", req, "orders", Order))


def create_order(run_id: str, symbol: str, at: datetime, *, entry_price: float, stop_loss_price: float,
                 take_profit_price: float) -> Op[Order]:
    req = request(dashboard_pb2.CreateOrderRequest,
                  run_id=run_id, nse_symbol=symbol, datetime=instant("datetime", at, "at"), timezone=timezone_of(at),
                  entry_price=entry_price, stop_loss_price=stop_loss_price, take_profit_price=take_profit_price)
    return (yield from _answer("DashboardService.CreateOrder", req, Order))


def snapshot_times(trading_day: date) -> Op[list[datetime]]:
    wanted = build.trading_day("date", trading_day, "trading_day")
    req = dashboard_pb2.ListAvailableDatetimesRequest(date=wanted)
    answer = yield from _unary("DashboardService.ListAvailableDatetimes", req)
    days = getattr(answer, "dates")
    return [ts.ToDatetime(tzinfo=UTC) for d in days if d.date == wanted for ts in d.timestamps]


def coverage(trading_day: date | None = None) -> Op[Coverage]:
    req = request(dashboard_pb2.GetCoverageRequest,
                  date=None if trading_day is None else build.trading_day("date", trading_day, "trading_day"))
    return (yield from _answer("DashboardService.GetCoverage", req, Coverage))


# Admin and health ---------------------------------------------------------------------


def create_developer(username: str, *, role: Role = "developer") -> Op[Developer]:
    req = request(admin_pb2.CreateDeveloperRequest, username=username, role=role)
    return (yield from _answer("AdminService.CreateDeveloper", req, Developer))


def import_instruments(kind: InstrumentFile, file: str | os.PathLike[str] | bytes) -> Op[FileImportResult]:
    req = admin_pb2.ImportInstrumentsRequest(kind=_one_of("kind", kind, ("equity_list", "symbol_changes")),
                                             csv=_file_content(file))
    return (yield from _answer("AdminService.ImportInstruments", req, FileImportResult))


def import_corporate_actions(file: str | os.PathLike[str] | bytes) -> Op[FileImportResult]:
    req = admin_pb2.ImportCorporateActionsRequest(csv=_file_content(file))
    return (yield from _answer("AdminService.ImportCorporateActions", req, FileImportResult))


def create_corporate_action(kind: CorporateActionKind, ex_date: date, *, symbol: str | None = None,
                            isin: str | None = None, new_shares: float = 0, held_shares: float = 0,
                            old_face_value: float = 0, new_face_value: float = 0, amount: float = 0,
                            description: str | None = None) -> Op[CorporateActionEntry]:
    if (symbol is None) == (isin is None):
        raise invalid_argument("isin", "give exactly one of symbol and isin")
    req = request(admin_pb2.CreateCorporateActionRequest, symbol=symbol, isin=isin, kind=kind,
                  ex_date=build.trading_day("ex_date", ex_date, "ex_date"), new_shares=new_shares,
                  held_shares=held_shares, old_face_value=old_face_value, new_face_value=new_face_value,
                  amount=amount, description=description)
    return (yield from _answer("AdminService.CreateCorporateAction", req, CorporateActionEntry))


def _one_of(name: str, value: str, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise invalid_argument(name, f"must be one of {', '.join(allowed)}, got {value!r}")
    return value


def _file_content(file: str | os.PathLike[str] | bytes) -> bytes:
    """The bytes of an NSE file: given as they are, or read from a path.
    The files are small (EQUITY_L.csv is about 250 KB, the gateway takes
    up to 4 MiB), so reading one whole here is the simple way."""
    if isinstance(file, (bytes, bytearray)):
        return bytes(file)
    if not isinstance(file, (str, os.PathLike)):
        raise invalid_argument("file", f"expected a file path or the file's bytes, got {type(file).__name__}")
    path = Path(file)
    if not path.is_file():
        raise invalid_argument("file", f"{path} is not a file")
    return path.read_bytes()


def health() -> Op[Health]:
    return (yield from _answer("HealthService.Check", health_pb2.HealthCheckRequest(), Health))


# Streams (docs/api.md section 10) --------------------------------------------------------


def watch_quotes(symbols: Iterable[str], *, cursor: str | None = None, resume: bool = True,
                 idle_timeout: float | None = IDLE_TIMEOUT) -> StreamCall:
    req = request(stream_pb2.WatchQuotesRequest, symbols=strings("symbols", symbols))
    return _stream("StreamService.WatchQuotes", req, cursor, resume, idle_timeout, ends=False)


def watch_nifty(*, cursor: str | None = None, resume: bool = True,
                idle_timeout: float | None = IDLE_TIMEOUT) -> StreamCall:
    return _stream("StreamService.WatchNifty", stream_pb2.WatchNiftyRequest(), cursor, resume, idle_timeout,
                   ends=False)


def watch_shortlists(shortlist_type: ShortlistType, *, scope: Scope | None = None, cursor: str | None = None,
                     resume: bool = True, idle_timeout: float | None = IDLE_TIMEOUT) -> StreamCall:
    req = request(stream_pb2.WatchShortlistsRequest, type=shortlist_type, scope=scope)
    return _stream("StreamService.WatchShortlists", req, cursor, resume, idle_timeout, ends=False)


def replay_day(trading_day: date, *, symbols: Iterable[str] = (), kinds: Iterable[ReplayKind] = (),
               cursor: str | None = None, resume: bool = True,
               idle_timeout: float | None = IDLE_TIMEOUT) -> StreamCall:
    req = request(stream_pb2.ReplayDayRequest, date=build.trading_day("date", trading_day, "trading_day"),
                  symbols=strings("symbols", symbols), kinds=strings("kinds", kinds))
    return _stream("StreamService.ReplayDay", req, cursor, resume, idle_timeout, ends=True)


def _listed(name: str, values: Iterable[T]) -> list[T]:
    if isinstance(values, (str, bytes, Mapping)) or not isinstance(values, Iterable):
        raise invalid_argument(name, f"expected a list, got {type(values).__name__}")
    return list(values)


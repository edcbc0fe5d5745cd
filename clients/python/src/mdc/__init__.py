"""Python client of mdc, the market data collection service.

Quick start::

    import mdc
    client = mdc.Client("http://127.0.0.1:8080", token)
    client.save_shortlist(moment, "TOP_GAINERS", [{"nse_symbol": "RELIANCE", "price": 2950.5}])
    print(client.shortlist("TOP_GAINERS", as_of=moment))
    frame = client.quote_timeline("RELIANCE", start=moment).to_pandas()

:class:`Client` blocks, :class:`AsyncClient` is the same surface for
asyncio. Answers are records (frozen dataclasses: :class:`StockQuote`,
:class:`Shortlist`, :class:`CandleSeries`, ...), lists are :class:`Records`
with ``to_pandas()`` and ``to_polars()``, and every error is an
:class:`MdcError`. The generated protobuf messages of the contract stay in
``mdc.v1``, for :meth:`Client.call`.
"""

from mdc.admin import Developer, Health
from mdc.async_client import AsyncClient
from mdc.async_streams import AsyncEventStream
from mdc.client import Client
from mdc.coverage import (
    Coverage,
    MinuteRange,
    ShortlistCoverage,
    SymbolCoverage,
    WriterActivity,
)
from mdc.enums import (
    Adjustment,
    CorporateActionKind,
    EventKind,
    ExportFormat,
    ExportKind,
    InstrumentFile,
    Interval,
    QuoteStatus,
    ReplayKind,
    Role,
    Scope,
    ServingStatus,
    ShortlistType,
)
from mdc.errors import (
    AlreadyExists,
    DeadlineExceeded,
    FailedPrecondition,
    FieldViolation,
    InvalidArgument,
    MdcError,
    NotFound,
    PermissionDenied,
    ResourceExhausted,
    Unauthenticated,
    Unavailable,
)
from mdc.inputs import (
    DepthDict,
    DepthLevelDict,
    OhlcDict,
    QuoteDataDict,
    QuoteDataInput,
    QuotePayloadDict,
    ShortlistEntryDict,
    ShortlistEntryInput,
)
from mdc.instruments import (
    CorporateAction,
    CorporateActionEntry,
    FileImportResult,
    ImportedRow,
    Instrument,
    InstrumentSymbol,
)
from mdc.market import (
    Candle,
    CandleSeries,
    CandlesOfSymbols,
    Depth,
    DepthLevel,
    Holiday,
    HolidayCheck,
    MarketEvent,
    NiftyQuote,
    Ohlc,
    QuoteCrossSection,
    QuoteData,
    QuotePayload,
    Shortlist,
    ShortlistEntry,
    StockQuote,
)
from mdc.ops import ImportResult
from mdc.record import Record, Records
from mdc.runs import Order, Run, TradeOutcome
from mdc.spool import Spool, SpoolState
from mdc.streams import EventStream
from mdc.times import IST, to_datetime

__all__ = [
    "IST", "Adjustment", "AlreadyExists", "AsyncClient", "AsyncEventStream", "Candle", "CandleSeries", "CandlesOfSymbols", "Client", "CorporateAction", "CorporateActionEntry", "CorporateActionKind", "Coverage",
    "DeadlineExceeded", "Depth", "DepthDict", "DepthLevel", "DepthLevelDict", "Developer", "EventKind",
    "EventStream", "ExportFormat", "ExportKind", "FailedPrecondition", "FieldViolation", "FileImportResult", "Health", "Holiday", "HolidayCheck", "ImportResult", "ImportedRow", "Instrument", "InstrumentFile", "InstrumentSymbol", "Interval",
    "InvalidArgument", "MarketEvent", "MdcError", "MinuteRange", "NiftyQuote", "NotFound", "Ohlc", "OhlcDict", "Order",
    "PermissionDenied", "QuoteCrossSection", "QuoteData", "QuoteDataDict", "QuoteDataInput", "QuotePayload", "QuotePayloadDict",
    "QuoteStatus", "Record", "Records", "ReplayKind", "ResourceExhausted", "Role", "Run", "Scope",
    "ServingStatus", "Shortlist", "ShortlistCoverage", "ShortlistEntry", "ShortlistEntryDict", "ShortlistEntryInput",
    "ShortlistType", "Spool", "SpoolState", "StockQuote", "SymbolCoverage", "TradeOutcome", "Unauthenticated", "Unavailable",
    "WriterActivity", "to_datetime",
]
__version__ = "0.2.0"

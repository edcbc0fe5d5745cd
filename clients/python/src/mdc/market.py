"""Records of market data: quotes, shortlists, candles, stream events and
the holiday calendar (``proto/mdc/v1/market.proto``, ``stream.proto``).

The quote records double as inputs: ``QuoteData(status="SUCCESS",
payload=QuotePayload(last_price=3521.0))`` may be passed wherever a quote is
saved, as may the dicts of :mod:`mdc.inputs`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, time, tzinfo
from typing import TYPE_CHECKING

from mdc.enums import EventKind, Interval, QuoteStatus, Scope, ShortlistType
from mdc.record import ListAnswer, Record, Records

if TYPE_CHECKING:
    import pandas
    import polars
    import pyarrow

# Nested records whose columns a DataFrame shows without a prefix
# (``last_price``, not ``quote_data_payload_last_price``); see mdc.frames.
INLINE = {"flatten": "inline"}


@dataclass(frozen=True, slots=True, kw_only=True, repr=False)
class Ohlc(Record):
    """Open, high, low and close of the day, as the broker reports them."""

    MESSAGE = "mdc.v1.Ohlc"

    open: float | None = None
    high: float | None = None
    low: float | None = None
    close: float | None = None


@dataclass(frozen=True, slots=True, kw_only=True, repr=False)
class DepthLevel(Record):
    """One price level of the order book."""

    MESSAGE = "mdc.v1.DepthLevel"

    price: float | None = None
    quantity: float | None = None


@dataclass(frozen=True, slots=True, kw_only=True, repr=False)
class Depth(Record):
    """Order book depth: bid and offer levels, in the order posted."""

    MESSAGE = "mdc.v1.Depth"

    buy: Records[DepthLevel] = field(default_factory=lambda: Records(DepthLevel))
    sell: Records[DepthLevel] = field(default_factory=lambda: Records(DepthLevel))


@dataclass(frozen=True, slots=True, kw_only=True, repr=False)
class QuotePayload(Record):
    """One quote as the broker reports it. Every number is None when the
    collector sent it null or left it out (never 0.0 in its place)."""

    MESSAGE = "mdc.v1.QuotePayload"

    last_price: float | None = None
    day_change: float | None = None
    day_change_perc: float | None = None
    #: The day's cumulative traded volume.
    volume: float | None = None
    average_price: float | None = None
    bid_quantity: float | None = None
    bid_price: float | None = None
    upper_circuit_limit: float | None = None
    lower_circuit_limit: float | None = None
    high_trade_range: float | None = None
    low_trade_range: float | None = None
    implied_volatility: float | None = None
    last_trade_quantity: float | None = None
    market_cap: float | None = None
    offer_price: float | None = None
    offer_quantity: float | None = None
    oi_day_change: float | None = None
    oi_day_change_percentage: float | None = None
    open_interest: float | None = None
    previous_open_interest: float | None = None
    total_buy_quantity: float | None = None
    total_sell_quantity: float | None = None
    week_52_high: float | None = None
    week_52_low: float | None = None
    #: Time of the last trade in epoch milliseconds, as the broker sends it.
    last_trade_time: float | None = None
    ohlc: Ohlc | None = None
    depth: Depth | None = None


@dataclass(frozen=True, slots=True, kw_only=True, repr=False)
class QuoteData(Record):
    """A quote with the status of the upstream call that produced it; the
    payload is usually None with ``FAILURE``."""

    MESSAGE = "mdc.v1.QuoteData"

    status: QuoteStatus
    payload: QuotePayload | None = field(default=None, metadata=INLINE)


_NO_PAYLOAD = QuotePayload()


@dataclass(frozen=True, slots=True, kw_only=True, repr=False)
class StockQuote(Record):
    """A stored quote of one stock."""

    MESSAGE = "mdc.v1.StockQuote"
    TIME = "timestamp"

    timestamp: datetime
    nse_symbol: str
    quote_data: QuoteData = field(metadata=INLINE)

    @property
    def payload(self) -> QuotePayload:
        """The quote's payload; every field None when it has none."""
        return self.quote_data.payload or _NO_PAYLOAD

    @property
    def symbol(self) -> str:
        """The NSE symbol (``nse_symbol``), named as candles name it."""
        return self.nse_symbol

    @property
    def last_price(self) -> float | None:
        """``quote_data.payload.last_price``: the last traded price (always
        set on a SUCCESS quote; None on a FAILURE without one)."""
        return self.payload.last_price

    @property
    def volume(self) -> float | None:
        """``quote_data.payload.volume``: the day's cumulative traded volume,
        None when the quote did not report one."""
        return self.payload.volume

    @property
    def status(self) -> QuoteStatus:
        """``quote_data.status``: SUCCESS or FAILURE."""
        return self.quote_data.status


@dataclass(frozen=True, slots=True, kw_only=True, repr=False)
class NiftyQuote(Record):
    """A stored quote of the NIFTY 50 index."""

    MESSAGE = "mdc.v1.NiftyQuote"
    TIME = "timestamp"

    timestamp: datetime
    quote_data: QuoteData = field(metadata=INLINE)
    #: The index's day change in percent, as posted with the quote.
    day_change_perc: float | None

    @property
    def payload(self) -> QuotePayload:
        """The quote's payload; every field None when it has none."""
        return self.quote_data.payload or _NO_PAYLOAD

    @property
    def symbol(self) -> str:
        """``"NIFTY"``, the symbol candles and cross-sections give the index."""
        return "NIFTY"

    @property
    def last_price(self) -> float | None:
        """``quote_data.payload.last_price``: the index's level."""
        return self.payload.last_price

    @property
    def volume(self) -> float | None:
        """``quote_data.payload.volume``; None when not reported (an index
        usually reports none)."""
        return self.payload.volume

    @property
    def status(self) -> QuoteStatus:
        """``quote_data.status``: SUCCESS or FAILURE."""
        return self.quote_data.status


@dataclass(frozen=True, slots=True, kw_only=True, repr=False)
class ShortlistEntry(Record):
    """One ranked stock of a shortlist snapshot (the entries' order is the
    rank). Also an input of ``save_shortlist``."""

    MESSAGE = "mdc.v1.ShortlistEntry"

    nse_symbol: str
    name: str = ""
    #: Price when observed (always present in a stored snapshot).
    price: float | None = None
    quote_data: QuoteData | None = field(default=None, metadata=INLINE)

    @property
    def symbol(self) -> str:
        """The NSE symbol (``nse_symbol``), named as candles name it."""
        return self.nse_symbol


@dataclass(frozen=True, slots=True, kw_only=True, repr=False)
class Shortlist(Record, ListAnswer[ShortlistEntry]):
    """A stored shortlist snapshot; its tables are those of its entries."""

    MESSAGE = "mdc.v1.Shortlist"
    ITEMS = "entries"

    timestamp: datetime
    shortlist_type: ShortlistType
    scope: Scope
    entries: Records[ShortlistEntry]


@dataclass(frozen=True, slots=True, kw_only=True, repr=False)
class Candle(Record):
    """One OHLCV bucket built from stored quotes (docs/api.md section 6)."""

    MESSAGE = "mdc.v1.Candle"
    TIME = "time"

    #: Start of the bucket.
    time: datetime
    open: float
    high: float
    low: float
    close: float
    #: Volume traded in the bucket (increases of the day's cumulative
    #: volume); None when no quote of the bucket reported a volume (no data,
    #: as opposed to 0.0, no trades). NaN in a DataFrame.
    volume: float | None
    #: The symbol the candle's close was stored under, for a symbol of the
    #: security master (across a rename, the old or the new one; docs/api.md
    #: section 13.5); None for other symbols and NIFTY.
    symbol: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True, repr=False)
class CandleSeries(Record, ListAnswer[Candle]):
    """Candles of one symbol at one interval, ascending by time (buckets
    without a priced quote are absent); its tables are those of its candles."""

    MESSAGE = "mdc.v1.CandleSeries"
    ITEMS = "candles"

    symbol: str
    interval: Interval
    #: The bucket length (nominal for 1day, 1week, 1month).
    interval_minutes: int
    candles: Records[Candle]
    #: The adjustment applied ("split" or "all"); None for raw, stored
    #: prices (docs/api.md section 13.4).
    adjustment: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True, repr=False)
class CandlesOfSymbols(Record):
    """Candles of several symbols at one interval (alpaca-py's multi-symbol
    bars): ``series`` in the order asked, the symbols without a candle in
    ``missing``. Its table is long: one row per candle, keyed by
    ``(symbol, time)`` (pandas: that MultiIndex; polars and Arrow: those two
    columns first); ``answer["TCS"]`` is one symbol's series."""

    MESSAGE = "mdc.v1.CandlesOfSymbols"

    interval: Interval
    #: The bucket length (nominal for 1day, 1week, 1month).
    interval_minutes: int
    series: Records[CandleSeries]
    #: The symbols asked for without a candle in the range, in the order asked.
    missing: tuple[str, ...]

    def __getitem__(self, symbol: str) -> CandleSeries:
        for series in self.series:
            if series.symbol == symbol:
                return series
        raise KeyError(symbol)

    def to_arrow(self) -> pyarrow.Table:
        """A ``pyarrow.Table``: ``symbol`` (the series'), then the columns of
        :class:`Candle`, one row per candle, its own ``symbol`` (the symbol
        its close was stored under) named ``stored_symbol``."""
        from mdc.frames import _import, to_arrow

        pa = _import("pyarrow", "to_arrow", "pandas")
        candles = [c for s in self.series for c in s.candles]
        symbols = [s.symbol for s in self.series for _ in s.candles]
        table = to_arrow(Candle, candles)
        table = table.rename_columns(["stored_symbol" if name == "symbol" else name for name in table.column_names])
        return table.add_column(0, "symbol", pa.array(symbols, type=pa.string()))

    def to_pandas(self, *, tz: str | tzinfo | None = None) -> pandas.DataFrame:
        """A long ``pandas.DataFrame`` indexed by ``(symbol, time)`` (time
        tz-aware, UTC or ``tz``): ``frame.loc["TCS"]`` is one symbol's
        candles, ``frame["close"].unstack("symbol")`` a wide table."""
        from mdc.frames import to_pandas

        frame = to_pandas(Candle, self.to_arrow(), None).reset_index()
        if tz is not None:
            frame["time"] = frame["time"].dt.tz_convert(tz)
        return frame.set_index(["symbol", "time"])

    def to_polars(self, *, tz: str | None = None) -> polars.DataFrame:
        """A long ``polars.DataFrame``: ``symbol`` and ``time`` (UTC or
        ``tz``) first."""
        from mdc.frames import to_polars

        return to_polars(Candle, self.to_arrow(), tz).select(["symbol", "time", "open", "high", "low", "close",
                                                               "volume"])


@dataclass(frozen=True, slots=True, kw_only=True, repr=False)
class QuoteCrossSection(Record, ListAnswer[StockQuote]):
    """The latest quote of each of many symbols at or before one instant,
    within its trading day; its tables are those of its quotes, indexed by
    symbol (pandas: the index ``symbol``; polars and Arrow: the column
    ``nse_symbol`` first), since each symbol has one row."""

    MESSAGE = "mdc.v1.QuoteCrossSection"
    ITEMS = "quotes"

    #: The instant read as of.
    as_of: datetime
    #: Its trading day (Asia/Kolkata): quotes from 00:00 IST of it on.
    trading_day: date
    #: One quote per symbol found: in the order asked, else by symbol.
    quotes: Records[StockQuote]
    #: The symbols asked for without a quote that day at or before ``as_of``.
    missing: tuple[str, ...]
    #: "" once :meth:`mdc.Client.quotes` has read every page.
    next_page_token: str
    #: The adjustment applied ("split" or "all"); None for raw, stored
    #: quotes (docs/api.md section 13.4).
    adjustment: str | None = None

    def __getitem__(self, symbol: str) -> StockQuote:
        for quote in self.quotes:
            if quote.nse_symbol == symbol:
                return quote
        raise KeyError(symbol)

    def to_pandas(self, *, tz: str | tzinfo | None = None) -> pandas.DataFrame:
        """A ``pandas.DataFrame`` of the quotes indexed by ``symbol`` (one row
        each), ``timestamp`` a column (UTC or ``tz``)."""
        frame = self.quotes.to_pandas(tz=tz).reset_index()
        return frame.set_index(frame.pop("nse_symbol").rename("symbol"))

    def to_polars(self, *, tz: str | None = None) -> polars.DataFrame:
        """A ``polars.DataFrame`` of the quotes, ``nse_symbol`` first."""
        frame = self.quotes.to_polars(tz=tz)
        return frame.select(["nse_symbol", *[c for c in frame.columns if c != "nse_symbol"]])


@dataclass(frozen=True, slots=True, kw_only=True, repr=False)
class Holiday(Record):
    """An exchange holiday, or a special session (both session times set) on
    a day that is normally closed."""

    MESSAGE = "mdc.v1.Holiday"

    #: The trading day (Asia/Kolkata).
    date: date
    name: str
    #: Session times in Asia/Kolkata; None for an ordinary holiday.
    session_open: time | None
    session_close: time | None


@dataclass(frozen=True, slots=True, kw_only=True, repr=False)
class HolidayCheck(Record):
    """Whether a date is a holiday and whether the exchange trades on it."""

    MESSAGE = "mdc.v1.CheckHolidayResponse"

    date: date
    is_holiday: bool
    #: The calendar entry's name; "" when there is none.
    name: str
    is_trading_day: bool


@dataclass(frozen=True, slots=True, kw_only=True, repr=False)
class MarketEvent(Record):
    """One record of a watch or a replay: ``kind`` says which of ``quote``,
    ``nifty`` and ``shortlist`` it carries. ``cursor`` resumes a stream right
    after it. A DataFrame of events has the columns of all three kinds."""

    MESSAGE = "mdc.v1.MarketEvent"
    TIME = "timestamp"

    cursor: str
    kind: EventKind = field(metadata={"oneof": "record"})
    quote: StockQuote | None = field(default=None, metadata={"flatten": "branch"})
    nifty: NiftyQuote | None = field(default=None, metadata={"flatten": "branch"})
    shortlist: Shortlist | None = field(default=None, metadata={"flatten": "branch"})

    @property
    def timestamp(self) -> datetime:
        """The instant of the record the event carries."""
        for carried in (self.quote, self.nifty, self.shortlist):
            if carried is not None:
                return carried.timestamp
        raise AssertionError("an event carries a record")

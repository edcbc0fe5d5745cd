"""What the collector writes take, typed: each input is a record of
:mod:`mdc.market` or a dict of the ``TypedDict`` here, whose keys are the
record's field names (snake_case). So ``mypy --strict`` flags a misspelled
key where it is written, and the client refuses one at run time as well
(:class:`mdc.InvalidArgument` naming it), instead of dropping it.

A number may be None (null on the wire: stored as absent). The keys are
those of ``proto/mdc/v1/market.proto``; ``tests/test_records.py`` fails when
they and the records drift apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NotRequired, TypedDict

from mdc.enums import QuoteStatus
from mdc.market import Depth, DepthLevel, Ohlc, QuoteData, QuotePayload, ShortlistEntry


class OhlcDict(TypedDict, total=False):
    """:class:`mdc.Ohlc` as a dict."""

    open: float | None
    high: float | None
    low: float | None
    close: float | None


class DepthLevelDict(TypedDict, total=False):
    """:class:`mdc.DepthLevel` as a dict."""

    price: float | None
    quantity: float | None


class DepthDict(TypedDict, total=False):
    """:class:`mdc.Depth` as a dict."""

    buy: Sequence[DepthLevel | DepthLevelDict]
    sell: Sequence[DepthLevel | DepthLevelDict]


class QuotePayloadDict(TypedDict, total=False):
    """:class:`mdc.QuotePayload` as a dict: the broker's quote, every key
    optional."""

    last_price: float | None
    day_change: float | None
    day_change_perc: float | None
    volume: float | None
    average_price: float | None
    bid_quantity: float | None
    bid_price: float | None
    upper_circuit_limit: float | None
    lower_circuit_limit: float | None
    high_trade_range: float | None
    low_trade_range: float | None
    implied_volatility: float | None
    last_trade_quantity: float | None
    market_cap: float | None
    offer_price: float | None
    offer_quantity: float | None
    oi_day_change: float | None
    oi_day_change_percentage: float | None
    open_interest: float | None
    previous_open_interest: float | None
    total_buy_quantity: float | None
    total_sell_quantity: float | None
    week_52_high: float | None
    week_52_low: float | None
    last_trade_time: float | None
    ohlc: Ohlc | OhlcDict | None
    depth: Depth | DepthDict | None


class QuoteDataDict(TypedDict):
    """:class:`mdc.QuoteData` as a dict:
    ``{"status": "SUCCESS", "payload": {"last_price": 3521.0}}``."""

    status: QuoteStatus
    payload: NotRequired[QuotePayload | QuotePayloadDict | None]


class ShortlistEntryDict(TypedDict):
    """:class:`mdc.ShortlistEntry` as a dict:
    ``{"nse_symbol": "RELIANCE", "name": "Reliance", "price": 1234.5}``."""

    nse_symbol: str
    name: NotRequired[str]
    price: float
    quote_data: NotRequired[QuoteData | QuoteDataDict | None]


#: A quote to save: a record or its dict.
QuoteDataInput = QuoteData | QuoteDataDict
#: A shortlist entry to save: a record or its dict.
ShortlistEntryInput = ShortlistEntry | ShortlistEntryDict

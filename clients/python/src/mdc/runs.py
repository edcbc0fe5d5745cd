"""Records of the dashboard's backtest bookkeeping: runs, their orders and
the simulated outcome of each order (``proto/mdc/v1/dashboard.proto``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from mdc.record import Record


@dataclass(frozen=True, slots=True, kw_only=True, repr=False)
class TradeOutcome(Record):
    """The result of a simulated trade (docs/api.md sections 5.3 and 5.4).
    Every field after the two levels is None when no candle follows the
    entry, and the times and minutes only for the level that ended it."""

    MESSAGE = "mdc.v1.TradeOutcome"

    target_price: float
    stop_loss_price: float
    target_achieved: bool | None
    stop_loss_hit: bool | None
    target_time: datetime | None
    stop_loss_time: datetime | None
    minutes_to_target: int | None
    minutes_to_stop_loss: int | None
    #: Best high after entry as a gain over entry, in percent (2 decimals).
    max_gain_percentage: float | None


@dataclass(frozen=True, slots=True, kw_only=True, repr=False)
class Run(Record):
    """A backtest run of the caller's."""

    MESSAGE = "mdc.v1.Run"

    id: str
    name: str
    tags: tuple[str, ...]
    start_time: datetime
    end_time: datetime
    completed: bool
    created_time: datetime
    order_count: int


@dataclass(frozen=True, slots=True, kw_only=True, repr=False)
class Order(Record):
    """An order of a run, with its outcome."""

    MESSAGE = "mdc.v1.Order"
    TIME = "time"

    id: str
    run_id: str
    nse_symbol: str
    entry_price: float
    stop_loss_price: float
    take_profit_price: float
    #: When the order was placed.
    time: datetime
    created_time: datetime
    outcome: TradeOutcome | None

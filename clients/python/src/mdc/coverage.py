"""Records of a trading day's coverage (``DashboardService.GetCoverage``,
docs/api.md "Coverage"): which session minutes hold data per stock symbol,
for NIFTY 50 and per shortlist, and when each collector last wrote."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from mdc.enums import ReplayKind, Scope, ShortlistType
from mdc.record import ListAnswer, Record, Records


@dataclass(frozen=True, slots=True, kw_only=True, repr=False)
class MinuteRange(Record):
    """Consecutive session minutes with data, ``first`` to ``last`` included
    (minute 0 is 09:15:00-09:15:59 IST)."""

    MESSAGE = "mdc.v1.MinuteRange"

    first: int
    last: int


@dataclass(frozen=True, slots=True, kw_only=True, repr=False)
class SymbolCoverage(Record):
    """One stock's (or NIFTY 50's) records of the day; the minutes between
    its ``ranges`` are its gaps."""

    MESSAGE = "mdc.v1.SymbolCoverage"

    nse_symbol: str
    #: Session minutes holding at least one record (of 375).
    minutes: int
    #: Records of the whole trading day, outside the session too.
    records: int
    ranges: Records[MinuteRange]
    last_time: datetime | None


@dataclass(frozen=True, slots=True, kw_only=True, repr=False)
class ShortlistCoverage(Record):
    """One shortlist's (type and scope) snapshots of the day."""

    MESSAGE = "mdc.v1.ShortlistCoverage"

    shortlist_type: ShortlistType
    scope: Scope
    minutes: int
    records: int
    ranges: Records[MinuteRange]
    last_time: datetime | None


@dataclass(frozen=True, slots=True, kw_only=True, repr=False)
class WriterActivity(Record):
    """What one developer (collector) wrote of one kind of record: when it
    last wrote any, and how many it wrote for the coverage's day."""

    MESSAGE = "mdc.v1.WriterActivity"

    developer_id: str
    username: str
    kind: ReplayKind
    #: The latest write of this kind, for any trading day.
    last_write_time: datetime | None
    #: The latest instant among the records it wrote.
    last_record_time: datetime | None
    day_records: int
    #: Its latest write for the coverage's day; None when it wrote none.
    day_last_write_time: datetime | None


@dataclass(frozen=True, slots=True, kw_only=True, repr=False)
class Coverage(Record, ListAnswer[SymbolCoverage]):
    """A trading day's coverage; its tables are those of its symbols."""

    MESSAGE = "mdc.v1.Coverage"
    ITEMS = "symbols"

    #: The day described; None when nothing is stored at all.
    date: date | None
    #: 09:15 IST of that day: minute 0 of the ranges.
    session_start: datetime | None
    session_minutes: int
    symbols: Records[SymbolCoverage]
    nifty: SymbolCoverage | None
    shortlists: Records[ShortlistCoverage]
    #: Empty under the backtest clock.
    writers: Records[WriterActivity]

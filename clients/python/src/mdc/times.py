"""Conversions between Python time values and the API's time strings.

The API takes a wall clock ``YYYY-MM-DDTHH:MM:SS`` plus a ``timezone`` name
that applies to it, and dates as ``YYYY-MM-DD``; it answers instants as
RFC 3339 UTC, which the records hold as aware UTC ``datetime`` values. This
client takes timezone-aware ``datetime`` values only: a naive one has no
instant, and guessing a zone for it is how backtests silently shift by 5:30
hours. :data:`IST` is the exchange's zone, to view an instant in:
``quote.timestamp.astimezone(mdc.IST)``.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

from google.protobuf import timestamp_pb2

from mdc.errors import invalid_argument

#: Asia/Kolkata, the zone of the NSE's trading days and session times.
IST = ZoneInfo("Asia/Kolkata")

# The zone every instant is sent in: a UTC wall clock names exactly one
# instant (no DST gap or fold), whatever zone the caller's datetime had.
WIRE_TIMEZONE = "UTC"

_WALL_CLOCK = "%Y-%m-%dT%H:%M:%S"


def wall_clock(moment: datetime, name: str = "datetime", argument: str | None = None) -> str:
    """The API's wall-clock string of an aware datetime, in UTC.

    The API has no fractions of a second: they are cut off (floored), which
    for an as-of read or the backtest clock means "the second it falls in".

    Raises:
        InvalidArgument: ``moment`` (the argument ``name``) is naive or not a
            datetime.
    """
    if not isinstance(moment, datetime):
        raise invalid_argument(name, f"{_of(argument)}expected a timezone-aware datetime, got {type(moment).__name__}")
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise invalid_argument(
            name,
            f"{_of(argument)}naive datetime {moment.isoformat()} refused: it names no instant. Attach a zone, "
            "e.g. datetime(2025, 1, 2, 9, 15, tzinfo=mdc.IST) or tzinfo=UTC",
        )
    return moment.astimezone(UTC).strftime(_WALL_CLOCK)


def _of(argument: str | None) -> str:
    """Names the argument a field came from, where the two differ."""
    return f"(argument {argument}) " if argument else ""


def day(value: date, name: str = "date", argument: str | None = None) -> str:
    """The API's ``YYYY-MM-DD`` of a date (a trading day in Asia/Kolkata).

    Raises:
        InvalidArgument: ``value`` is a datetime (its trading day depends on
            its zone: pass ``moment.astimezone(mdc.IST).date()``) or not a date.
    """
    if isinstance(value, datetime) or not isinstance(value, date):
        raise invalid_argument(
            name,
            f"{_of(argument)}expected a datetime.date (a trading day), got {type(value).__name__}; "
            "for an instant use .astimezone(mdc.IST).date()",
        )
    return value.isoformat()


def to_datetime(timestamp: timestamp_pb2.Timestamp) -> datetime:
    """The aware UTC datetime of a ``Timestamp`` of a generated message (the
    low-level :meth:`mdc.Client.call`; records hold datetimes already)."""
    return timestamp.ToDatetime(tzinfo=UTC)

"""Conversions between Python time values and the API's time strings.

The API takes a wall clock ``YYYY-MM-DDTHH:MM:SS`` plus a ``timezone`` name
that applies to it, and dates as ``YYYY-MM-DD``; it answers instants as
``google.protobuf.Timestamp`` (RFC 3339 UTC). This client takes and gives
timezone-aware ``datetime`` values only: a naive one has no instant, and
guessing a zone for it is how backtests silently shift by 5:30 hours.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

from google.protobuf import timestamp_pb2

# The zone every instant is sent in: a UTC wall clock names exactly one
# instant (no DST gap or fold), whatever zone the caller's datetime had.
WIRE_TIMEZONE = "UTC"

_WALL_CLOCK = "%Y-%m-%dT%H:%M:%S"


def wall_clock(moment: datetime) -> str:
    """The API's wall-clock string of an aware datetime, in UTC.

    The API has no fractions of a second: they are cut off (floored), which
    for an as-of read or the backtest clock means "the second it falls in".

    Raises:
        ValueError: ``moment`` is naive.
        TypeError: ``moment`` is not a datetime.
    """
    if not isinstance(moment, datetime):
        raise TypeError(f"expected a timezone-aware datetime, got {type(moment).__name__}")
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(
            f"naive datetime {moment.isoformat()} refused: it names no instant. Attach a zone, "
            "e.g. datetime(2025, 1, 2, 9, 15, tzinfo=ZoneInfo('Asia/Kolkata')) or tzinfo=UTC"
        )
    return moment.astimezone(UTC).strftime(_WALL_CLOCK)


def day(value: date) -> str:
    """The API's ``YYYY-MM-DD`` of a date (a trading day in Asia/Kolkata).

    Raises:
        TypeError: ``value`` is a datetime (its trading day depends on its
            zone: pass ``moment.astimezone(ZoneInfo("Asia/Kolkata")).date()``)
            or not a date.
    """
    if isinstance(value, datetime) or not isinstance(value, date):
        raise TypeError(
            f"expected a datetime.date (a trading day), got {type(value).__name__}; "
            "for an instant use .astimezone(ZoneInfo('Asia/Kolkata')).date()"
        )
    return value.isoformat()


def to_datetime(timestamp: timestamp_pb2.Timestamp) -> datetime:
    """The aware UTC datetime of a ``Timestamp`` from an answer."""
    return timestamp.ToDatetime(tzinfo=UTC)

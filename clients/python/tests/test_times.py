"""Time conversions (no server)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest
from google.protobuf import timestamp_pb2

import mdc
from mdc.times import day, to_datetime, wall_clock


def test_aware_datetimes_become_utc_wall_clocks() -> None:
    assert wall_clock(datetime(2025, 1, 2, 9, 15, tzinfo=ZoneInfo("Asia/Kolkata"))) == "2025-01-02T03:45:00"
    assert wall_clock(datetime(2025, 1, 2, 0, 30, tzinfo=timezone(timedelta(hours=5, minutes=30)))) == (
        "2025-01-01T19:00:00")
    # A DST fold: the second 01:30 in New York is 06:30 UTC.
    fold = datetime(2025, 11, 2, 1, 30, fold=1, tzinfo=ZoneInfo("America/New_York"))
    assert wall_clock(fold) == "2025-11-02T06:30:00"


def test_fractions_of_a_second_are_floored() -> None:
    assert wall_clock(datetime(2025, 1, 2, 3, 4, 5, 999_999, tzinfo=UTC)) == "2025-01-02T03:04:05"


def test_naive_datetimes_and_other_types_are_refused() -> None:
    with pytest.raises(mdc.InvalidArgument, match="naive datetime 2025-01-02T10:00:00 refused") as caught:
        wall_clock(datetime(2025, 1, 2, 10, 0), "as_of")
    assert list(caught.value.fields) == ["as_of"] and caught.value.status is None and caught.value.attempts == 0
    with pytest.raises(mdc.InvalidArgument):
        wall_clock("2025-01-02T10:00:00")  # type: ignore[arg-type]


def test_days_are_dates_not_datetimes() -> None:
    assert day(date(2025, 1, 2)) == "2025-01-02"
    with pytest.raises(mdc.InvalidArgument, match="trading day"):
        day(datetime(2025, 1, 2, tzinfo=UTC))


def test_timestamps_become_aware_utc_datetimes() -> None:
    ts = timestamp_pb2.Timestamp()
    ts.FromJsonString("2025-12-31T03:45:00Z")
    got = to_datetime(ts)
    assert got == datetime(2025, 12, 31, 9, 15, tzinfo=ZoneInfo("Asia/Kolkata"))
    assert got.tzinfo is UTC

"""Dashboard runs and orders through the real gateway and server."""

from __future__ import annotations

from datetime import date, datetime

import pytest
from mdc.v1 import dashboard_pb2

import mdc

IST = mdc.IST


def ist(day: date, hh: int, mm: int) -> datetime:
    return datetime(day.year, day.month, day.day, hh, mm, tzinfo=IST)


def test_runs_are_created_updated_paged_and_deleted(client: mdc.Client) -> None:
    day = date(2025, 2, 3)
    created = [
        client.create_run(ist(day, 9, 15), ist(day, 15, 30), name=f"run {i}", tags=[" momentum ", "pytest"])
        for i in range(3)
    ]
    first = created[0]
    assert first.tags == ("momentum", "pytest")  # trimmed and sorted by the server
    assert first.start_time == ist(day, 9, 15) and first.order_count == 0 and not first.completed

    # Only the fields given change; false and "" are sent, not dropped.
    done = client.update_run(first.id, completed=True)
    assert done.completed and done.name == "run 0" and done.tags == ("momentum", "pytest")
    undone = client.update_run(first.id, completed=False, name="")
    assert not undone.completed and undone.name == "" and undone.tags == ("momentum", "pytest")
    untagged = client.update_run(first.id, tags=[])
    assert untagged.tags == () and not untagged.completed

    listed = [run.id for run in client.runs(tag="pytest", page_size=1)]  # one run per page
    assert listed == [run.id for run in reversed(created[1:])]  # newest first; run 0 lost its tag
    assert first.id in [run.id for run in client.runs(page_size=2)]

    client.delete_run(first.id)
    with pytest.raises(mdc.NotFound) as caught:
        client.update_run(first.id, completed=True)
    assert caught.value.status == 404


def test_orders_with_outcomes(client: mdc.Client) -> None:
    day = date(2025, 2, 4)
    for minute, price in [(0, 100), (1, 104), (2, 111), (3, 95)]:
        client.save_quotes(ist(day, 10, minute), {"WIPRO": {"status": "SUCCESS", "payload": {"last_price": price}}})
    run = client.create_run(ist(day, 9, 15), ist(day, 15, 30), name="orders")
    client.create_order(run.id, "WIPRO", ist(day, 10, 0), entry_price=100, stop_loss_price=90, take_profit_price=110)
    client.create_order(run.id, "WIPRO", ist(day, 10, 1), entry_price=104, stop_loss_price=96, take_profit_price=120)

    orders = client.orders(run.id, page_size=1)

    assert [(o.nse_symbol, o.time) for o in orders] == [("WIPRO", ist(day, 10, 0)), ("WIPRO", ist(day, 10, 1))]
    first, second = (o.outcome for o in orders)
    assert first is not None and second is not None
    assert first.target_achieved and first.minutes_to_target == 2 and first.target_time == ist(day, 10, 2)
    assert second.stop_loss_hit and not second.target_achieved
    assert second.minutes_to_target is None and second.target_time is None  # absent, not 0
    frame = orders.to_pandas()
    assert frame["outcome_minutes_to_target"].isna().tolist() == [False, True]
    assert frame.index.name == "time" and str(frame.index.dtype) == "datetime64[us, UTC]"
    with pytest.raises(mdc.InvalidArgument) as caught:
        client.create_order(run.id, "WIPRO", ist(day, 10, 0), entry_price=100, stop_loss_price=120,
                            take_profit_price=110)
    assert caught.value.http_status == 400
    assert "stopLossPrice" in caught.value.fields, caught.value.field_violations


def test_coverage_of_a_day(client: mdc.Client) -> None:
    day = date(2031, 8, 4)
    for hh, mm in [(9, 15), (9, 16), (9, 18)]:  # 09:17 missing
        client.save_quotes(ist(day, hh, mm), {"COVPY": {"status": "SUCCESS", "payload": {"last_price": 10}}})
    client.save_nifty(ist(day, 9, 15), {"status": "SUCCESS", "payload": {"last_price": 23000}}, 0.1)

    cov = client.coverage(day)

    assert cov.date == day and cov.session_minutes == 375 and cov.session_start == ist(day, 9, 15)
    symbol = next(s for s in cov.symbols if s.nse_symbol == "COVPY")
    assert symbol.minutes == 3 and symbol.records == 3 and symbol.last_time == ist(day, 9, 18)
    assert [(r.first, r.last) for r in symbol.ranges] == [(0, 1), (3, 3)]
    assert cov.nifty is not None and [(r.first, r.last) for r in cov.nifty.ranges] == [(0, 0)]
    assert "COVPY" in cov.to_pandas()["nse_symbol"].tolist()  # one row per symbol
    with pytest.raises(mdc.InvalidArgument):
        client.call("DashboardService.GetCoverage", dashboard_pb2.GetCoverageRequest(date="2031-02-30"))

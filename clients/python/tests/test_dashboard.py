"""Dashboard runs and orders through the real gateway and server."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest

import mdc

IST = ZoneInfo("Asia/Kolkata")


def ist(day: date, hh: int, mm: int) -> datetime:
    return datetime(day.year, day.month, day.day, hh, mm, tzinfo=IST)


def test_runs_are_created_updated_paged_and_deleted(client: mdc.Client) -> None:
    day = date(2025, 2, 3)
    created = [
        client.create_run(ist(day, 9, 15), ist(day, 15, 30), name=f"run {i}", tags=[" momentum ", "pytest"])
        for i in range(3)
    ]
    first = created[0]
    assert list(first.tags) == ["momentum", "pytest"]  # trimmed and sorted by the server
    assert mdc.to_datetime(first.start_time) == ist(day, 9, 15)

    # Only the fields given change; false and "" are sent, not dropped.
    done = client.update_run(first.id, completed=True)
    assert done.completed and done.name == "run 0" and list(done.tags) == ["momentum", "pytest"]
    undone = client.update_run(first.id, completed=False, name="")
    assert not undone.completed and undone.name == "" and list(undone.tags) == ["momentum", "pytest"]
    untagged = client.update_run(first.id, tags=[])
    assert list(untagged.tags) == [] and not untagged.completed

    listed = [run.id for run in client.runs(tag="pytest", page_size=1)]  # one run per page
    assert listed == [run.id for run in reversed(created[1:])]  # newest first; run 0 lost its tag
    assert first.id in [run.id for run in client.runs(page_size=2)]

    client.delete_run(first.id)
    with pytest.raises(mdc.MdcError) as caught:
        client.update_run(first.id, completed=True)
    assert caught.value.http_status == 404


def test_orders_with_outcomes(client: mdc.Client) -> None:
    day = date(2025, 2, 4)
    for minute, price in [(0, 100), (1, 104), (2, 111), (3, 95)]:
        client.save_quotes(ist(day, 10, minute), {"WIPRO": {"status": "SUCCESS", "payload": {"last_price": price}}})
    run = client.create_run(ist(day, 9, 15), ist(day, 15, 30), name="orders")
    client.create_order(run.id, "WIPRO", ist(day, 10, 0), entry_price=100, stop_loss_price=90, take_profit_price=110)
    client.create_order(run.id, "WIPRO", ist(day, 10, 1), entry_price=104, stop_loss_price=96, take_profit_price=120)

    orders = list(client.orders(run.id, page_size=1))

    assert [o.nse_symbol for o in orders] == ["WIPRO", "WIPRO"]
    assert orders[0].outcome.target_achieved and orders[0].outcome.minutes_to_target == 2
    assert orders[1].outcome.stop_loss_hit and not orders[1].outcome.target_achieved
    with pytest.raises(mdc.MdcError) as caught:
        client.create_order(run.id, "WIPRO", ist(day, 10, 0), entry_price=100, stop_loss_price=120,
                            take_profit_price=110)
    assert caught.value.http_status == 400
    assert "stopLossPrice" in caught.value.fields, caught.value.field_violations

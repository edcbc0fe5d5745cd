"""Imports through the real gateway and server: a day exported, deleted and
imported back from each format by both clients, and a bad file refused
with its line."""

from __future__ import annotations

import asyncio
from datetime import date, datetime
from pathlib import Path

import pytest
from mdc.v1 import admin_pb2

import mdc
from mdc_stack import Stack

DAY = date(2035, 11, 6)


def at(hh: int, mm: int) -> datetime:
    return datetime(DAY.year, DAY.month, DAY.day, hh, mm, tzinfo=mdc.IST)


@pytest.mark.parametrize("format", ["parquet", "csv", "ndjson"])
def test_a_day_exported_deleted_and_imported_reads_as_before(
        client: mdc.Client, admin: mdc.Client, format: mdc.ExportFormat, tmp_path: Path) -> None:
    client.save_quotes(at(9, 15), {"PYIMA": {"status": "SUCCESS", "payload": {"last_price": 10.5, "volume": 3}},
                                   "PYIMB": {"status": "FAILURE"}})
    client.save_quotes(at(9, 16), {"PYIMA": {"status": "SUCCESS", "payload": {"last_price": 11.0}}})
    before = client.export("quotes", DAY, symbols=["PYIMA", "PYIMB"], format=format,
                           path=tmp_path / f"quotes_{DAY}_{DAY}.{format}")
    admin.call("AdminService.DeleteDataDates", admin_pb2.DeleteDataDatesRequest(dates=[DAY.isoformat()]))
    assert len(client.quote_timeline("PYIMA", start=at(9, 0), end=at(10, 0))) == 0

    assert admin.import_(before) == mdc.ImportResult(records=3, written=3, unchanged=0)
    after = client.export("quotes", DAY, symbols=["PYIMA", "PYIMB"], format=format, path=tmp_path / f"again.{format}")
    assert after.read_bytes() == before.read_bytes()
    # Again: the same records change nothing.
    assert admin.import_(before) == mdc.ImportResult(records=3, written=0, unchanged=3)


def test_a_bad_file_is_refused_with_its_line(admin: mdc.Client, tmp_path: Path) -> None:
    bad = tmp_path / "quotes.csv"
    bad.write_text("timestamp,trading_day\r\n")
    with pytest.raises(mdc.InvalidArgument) as refused:
        admin.import_(bad, kind="quotes")
    assert refused.value.message.startswith("line 1: missing column")
    with pytest.raises(mdc.InvalidArgument):
        admin.import_(tmp_path / "notes.txt")  # neither kind nor format in the name


def test_a_developer_may_not_import(client: mdc.Client, tmp_path: Path) -> None:
    file = tmp_path / "nifty_2035-11-06_2035-11-06.csv"
    file.write_text("timestamp\r\n")
    with pytest.raises(mdc.PermissionDenied):
        client.import_(file)


def test_the_async_client_imports_too(stack: Stack, client: mdc.Client, tmp_path: Path) -> None:
    client.save_quotes(at(10, 0), {"PYIMC": {"status": "SUCCESS", "payload": {"last_price": 5.0}}})
    file = client.export("quotes", DAY, symbols=["PYIMC"], format="csv", path=tmp_path / "quotes_x.csv")

    async def run() -> mdc.ImportResult:
        async with mdc.AsyncClient(stack.base_url, stack.admin_token) as admin:
            return await admin.import_(file)

    assert asyncio.run(run()) == mdc.ImportResult(records=1, written=0, unchanged=1)


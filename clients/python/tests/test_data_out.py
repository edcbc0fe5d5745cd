"""The cross-section and the exports through the real gateway and server:
quotes of many symbols at one instant, and export files written to a path or
read into a DataFrame, by both clients."""

from __future__ import annotations

import asyncio
import csv
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pyarrow.parquet
import pytest

import mdc
from mdc_stack import Stack

IST = mdc.IST
DAY = date(2035, 10, 2)


def at(hh: int, mm: int) -> datetime:
    return datetime(DAY.year, DAY.month, DAY.day, hh, mm, tzinfo=IST)


@pytest.fixture(scope="module")
def stored(stack: Stack, developer_token: str) -> list[str]:
    """Three symbols quoted at 09:15 and 09:16 of DAY; the third only at 09:16."""
    symbols = ["PYXA", "PYXB", "PYXC"]
    with mdc.Client(stack.base_url, developer_token) as client:
        client.save_quotes(at(9, 15), {s: {"status": "SUCCESS", "payload": {"last_price": 10.0}} for s in symbols[:2]})
        client.save_quotes(at(9, 16), {s: {"status": "SUCCESS", "payload": {"last_price": 11.0}} for s in symbols})
    return symbols


def test_quotes_at_one_instant_with_the_missing_named(client: mdc.Client, stored: list[str]) -> None:
    xs = client.quotes([stored[2], stored[0], "NOPE"], as_of=at(9, 15))
    assert xs.as_of == at(9, 15) and xs.trading_day == DAY
    assert [q.nse_symbol for q in xs.quotes] == [stored[0]] and xs.missing == (stored[2], "NOPE")
    frame = xs.to_pandas()
    assert frame.index.name == "symbol" and list(frame.index) == [stored[0]] and list(frame["last_price"]) == [10.0]
    assert xs[stored[0]].last_price == 10.0
    # A cross-section's rows share their time: the symbol is the key.
    three = client.quotes(stored, as_of=at(9, 16)).to_pandas(tz="Asia/Kolkata")
    assert list(three.index) == stored and three.loc[stored[1], "last_price"] == 11.0
    assert set(three["timestamp"]) == {at(9, 16)}
    assert client.quotes(stored, as_of=at(9, 16)).to_polars().columns[0] == "nse_symbol"
    every = client.quotes(None, as_of=at(9, 30))
    assert [q.nse_symbol for q in every.quotes if q.nse_symbol in stored] == stored and every.next_page_token == ""
    with pytest.raises(mdc.InvalidArgument) as refused:
        client.quotes([])
    assert refused.value.field_violations[0].field == "symbols"


def test_export_to_a_dataframe_and_to_files(client: mdc.Client, stored: list[str], tmp_path: Path) -> None:
    frame = client.export("quotes", DAY, symbols=stored)
    assert len(frame) == 5 and list(frame.columns[:3]) == ["timestamp", "trading_day", "nse_symbol"]
    assert str(frame["timestamp"].dtype) == "datetime64[us, UTC]" and frame["trading_day"].iloc[0] == DAY
    assert frame["timestamp"].iloc[0] == at(9, 15).astimezone(UTC)

    parquet = client.export("candles", DAY, interval="1minute", symbols=stored[:1], path=tmp_path / "c.parquet")
    table = pyarrow.parquet.read_table(parquet)
    assert parquet == tmp_path / "c.parquet" and table.num_rows == 2 and not (tmp_path / "c.parquet.part").exists()
    written = client.export("quotes", DAY, format="csv", symbols=stored, path=str(tmp_path / "q.csv"))
    with written.open(newline="") as f:
        rows = list(csv.DictReader(f))
    assert [r["nse_symbol"] for r in rows] == [stored[0], stored[1], stored[0], stored[1], stored[2]]
    assert rows[0]["timestamp"] == "2035-10-02T03:45:00Z" and rows[0]["week_52_high"] == ""


def test_export_refuses_bad_arguments_before_sending(client: mdc.Client) -> None:
    # Arguments the type checker would refuse too: typed Any so that the
    # run-time checks are what is tested.
    cases: list[tuple[dict[str, Any], str]] = [
        ({"kind": "trades"}, "kind"), ({"kind": "nifty", "symbols": ["A"]}, "symbols"),
        ({"kind": "quotes", "format": "xlsx", "path": "x"}, "format"),
        ({"kind": "quotes", "format": "csv"}, "format")]
    for kwargs, field in cases:
        with pytest.raises(mdc.InvalidArgument) as refused:
            client.export(start=DAY, **kwargs)
        assert refused.value.field_violations[0].field == field, kwargs
    with pytest.raises(mdc.InvalidArgument) as server:
        client.export("quotes", DAY, date(2035, 12, 31))
    assert server.value.field_violations[0].field == "end_date"


def test_the_async_client_exports_too(stack: Stack, developer_token: str, stored: list[str], tmp_path: Path) -> None:
    async def run() -> None:
        async with mdc.AsyncClient(stack.base_url, developer_token) as client:
            xs = await client.quotes(stored, as_of=at(9, 16))
            assert len(xs.quotes) == 3 and xs.missing == ()
            path = await client.export("nifty", DAY, path=tmp_path / "n.ndjson", format="ndjson")
            assert path.read_text() == ""
            frame = await client.export("shortlists", DAY)
            assert len(frame) == 0 and "rank" in frame.columns

    asyncio.run(run())

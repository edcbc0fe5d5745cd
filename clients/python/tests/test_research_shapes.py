"""Answers shaped for research, through the real gateway and server: flat
accessors of quotes, candles of several symbols as one long DataFrame keyed
by (symbol, time), candles that tell "no volume reported" (None, NaN) from
zero, and the server's rule that a SUCCESS quote carries its last_price."""

from __future__ import annotations

import asyncio
import math
from datetime import date, datetime
from typing import Any

import pytest

import mdc
from mdc_stack import Stack

IST = mdc.IST


def untyped(value: object) -> Any:
    """A value as code without type checks would pass it (JSON a collector parsed)."""
    return value
DAY = date(2035, 11, 14)


def at(hh: int, mm: int, ss: int = 0) -> datetime:
    return datetime(DAY.year, DAY.month, DAY.day, hh, mm, ss, tzinfo=IST)


@pytest.fixture(scope="module")
def stored(stack: Stack, developer_token: str) -> tuple[str, str]:
    """RSVOL reports a volume, RSNOV never does; NIFTY is quoted too."""
    with mdc.Client(stack.base_url, developer_token) as client:
        client.save_quotes(at(9, 15, 10), {"RSVOL": {"status": "SUCCESS", "payload": {"last_price": 100.0, "volume": 50}},
                                           "RSNOV": {"status": "SUCCESS", "payload": {"last_price": 7.5}}})
        client.save_quotes(at(9, 16, 10), {"RSVOL": {"status": "SUCCESS", "payload": {"last_price": 101.0, "volume": 50}},
                                           "RSNOV": {"status": "SUCCESS", "payload": {"last_price": 7.25}}})
        client.save_nifty(at(9, 15, 30), {"status": "SUCCESS", "payload": {"last_price": 22000.0}}, 0.5)
    return "RSVOL", "RSNOV"


def test_flat_accessors(client: mdc.Client, stored: tuple[str, str]) -> None:
    q = client.quote("RSVOL", as_of=at(9, 15, 59))
    assert (q.symbol, q.last_price, q.volume, q.status) == ("RSVOL", 100.0, 50.0, "SUCCESS")
    assert q.last_price == q.quote_data.payload.last_price  # type: ignore[union-attr]
    n = client.nifty(as_of=at(9, 20))
    assert (n.symbol, n.last_price, n.volume) == ("NIFTY", 22000.0, None)
    assert client.quote("RSNOV", as_of=at(9, 20)).volume is None


def test_candles_of_symbols_are_one_long_frame(client: mdc.Client, stored: tuple[str, str]) -> None:
    answer = client.candles_of_symbols(["RSVOL", "RSNOV", "NIFTY", "RSNONE"], "1minute",
                                       start=at(9, 15), end=at(15, 30))
    assert [s.symbol for s in answer.series] == ["RSVOL", "RSNOV", "NIFTY"] and answer.missing == ("RSNONE",)
    # The volume: reported and unchanged is 0.0 (no trades); never reported is None.
    assert [c.volume for c in answer["RSVOL"].candles] == [50.0, 0.0]
    assert [c.volume for c in answer["RSNOV"].candles] == [None, None]
    assert [c.volume for c in answer["NIFTY"].candles] == [None]
    frame = answer.to_pandas(tz="Asia/Kolkata")
    assert frame.index.names == ["symbol", "time"]
    assert list(frame.index.get_level_values("symbol")) == ["RSVOL", "RSVOL", "RSNOV", "RSNOV", "NIFTY"]
    assert frame.loc[("RSNOV", at(9, 16)), "close"] == 7.25
    volumes = frame["volume"]
    assert math.isnan(volumes[("RSNOV", at(9, 15))]) and volumes[("RSVOL", at(9, 16))] == 0.0
    assert list(frame["close"].unstack("symbol").columns) == ["NIFTY", "RSNOV", "RSVOL"]
    polars = answer.to_polars()
    assert polars.columns[:2] == ["symbol", "time"] and polars["volume"].null_count() == 3
    # One series alone is what candles() answers.
    assert client.candles("RSNOV", "1minute", start=at(9, 15), end=at(15, 30)).candles == answer["RSNOV"].candles
    with pytest.raises(mdc.InvalidArgument) as refused:
        client.candles_of_symbols([], "1minute")
    assert refused.value.field_violations[0].field == "symbols"


def test_the_async_client_has_them_too(stack: Stack, developer_token: str, stored: tuple[str, str]) -> None:
    async def run() -> mdc.CandlesOfSymbols:
        async with mdc.AsyncClient(stack.base_url, developer_token) as client:
            return await client.candles_of_symbols(["RSNOV"], "1day", start=at(0, 0), end=at(23, 0))

    answer = asyncio.run(run())
    assert [(c.close, c.volume) for c in answer["RSNOV"].candles] == [(7.25, None)]


def test_a_success_quote_without_last_price_is_refused_by_the_server(client: mdc.Client) -> None:
    with pytest.raises(mdc.InvalidArgument) as caught:
        client.save_quotes(at(10, 0), {"RSBAD": {"status": "SUCCESS", "payload": {"volume": 5}}})
    assert caught.value.http_status == 400
    assert list(caught.value.fields) == ["data.quotes[0].quoteData.payload.last_price"]
    assert "is required when status is SUCCESS" in caught.value.fields["data.quotes[0].quoteData.payload.last_price"]
    client.save_quotes(at(10, 0), {"RSBAD": {"status": "FAILURE", "payload": {"volume": 5}}})  # a FAILURE needs none
    assert client.quote("RSBAD", as_of=at(10, 0)).last_price is None


def test_a_misspelled_key_is_refused_with_the_servers_path(client: mdc.Client) -> None:
    # The same path the server names (camelCase key as written), before anything is sent.
    with pytest.raises(mdc.InvalidArgument) as local:
        client.save_quotes(at(10, 1), {"RSBAD": untyped({"status": "SUCCESS", "payload": {"lastPrice": 5}})})
    assert local.value.attempts == 0
    assert list(local.value.fields) == ["data.quotes[0].quoteData.payload.lastPrice"]
    assert "did you mean 'last_price'?" in local.value.fields["data.quotes[0].quoteData.payload.lastPrice"]

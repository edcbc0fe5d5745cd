"""The client as typed code uses it: mypy --strict must accept every line
and infer the types asserted (tests/test_typing.py; run_tests.sh checks it
too). Not run, only type-checked."""

from __future__ import annotations

from datetime import date, datetime
from typing import assert_type

import pandas
import polars

import mdc

AT = datetime(2025, 1, 2, 10, 0, tzinfo=mdc.IST)


def collect(client: mdc.Client) -> None:
    client.save_quotes(AT, {
        "TCS": {"status": "SUCCESS", "payload": {"last_price": 3521.0, "volume": None, "ohlc": {"open": 3500}}},
        "INFY": mdc.QuoteData(status="FAILURE"),
    })
    client.save_shortlist(AT, "TOP_GAINERS", [
        {"nse_symbol": "TCS", "name": "Tata Consultancy Services", "price": 3521},
        mdc.ShortlistEntry(nse_symbol="INFY", price=1640.5),
    ], scope="FULL")
    client.save_nifty(AT, {"status": "SUCCESS", "payload": {"last_price": 22000}}, 0.4)


def research(client: mdc.Client) -> None:
    quote = client.quote("TCS", as_of=AT)
    assert_type(quote.timestamp, datetime)
    assert_type(quote.payload.volume, float | None)
    assert_type(quote.quote_data.status, mdc.QuoteStatus)
    timeline = client.quote_timeline("TCS", start=AT)
    assert_type(timeline, mdc.Records[mdc.StockQuote])
    assert_type(timeline[0], mdc.StockQuote)
    assert_type(timeline.to_pandas(tz="Asia/Kolkata"), pandas.DataFrame)
    assert_type(timeline.to_polars(), polars.DataFrame)
    series = client.candles("TCS", "5minute", start=AT)
    assert_type(series.candles[0].close, float)
    adjusted = client.candles_of_symbols(["TCS"], "1day", start=AT, adjustment="all")
    assert_type(adjusted["TCS"].adjustment, str | None)
    instrument = client.instruments(symbol="TCS", as_of=AT.date())[0]
    assert_type(instrument.symbols[0].valid_to, date | None)
    assert_type(client.corporate_actions("TCS", start=AT.date())[0].price_factor, float | None)
    entry = client.create_corporate_action("split", AT.date(), symbol="TCS", old_face_value=10, new_face_value=2)
    assert_type(entry.created, bool)
    assert_type(entry.action.price_factor, float | None)
    assert_type(client.export("candles", AT.date(), symbols=["TCS"], interval="1day", adjustment="split"),
                pandas.DataFrame)
    assert_type(series.to_pandas(), pandas.DataFrame)
    shortlist = client.shortlist("TOP_GAINERS", as_of=AT)
    assert_type(shortlist.entries[0].price, float | None)
    assert_type(client.holidays(2025)[0].date, date)
    for event in client.replay_day(AT.date(), kinds=["quotes", "nifty"]):
        assert_type(event.kind, mdc.EventKind)
        if event.quote is not None:
            assert_type(event.quote.payload.last_price, float | None)
    orders = client.orders("7")
    outcome = orders[0].outcome
    if outcome is not None:
        assert_type(outcome.minutes_to_target, int | None)
    try:
        client.delete_run("7")
    except mdc.NotFound as error:
        assert_type(error.status, int | None)
        assert_type(error.field_violations, tuple[mdc.FieldViolation, ...])


async def research_async(client: mdc.AsyncClient) -> None:
    quote = await client.quote("TCS", as_of=AT)
    assert_type(quote, mdc.StockQuote)
    timeline = await client.quote_timeline("TCS", start=AT)
    assert_type(timeline.to_pandas(), pandas.DataFrame)
    async for event in await client.replay_day(AT.date()):
        assert_type(event, mdc.MarketEvent)
    assert_type(await (await client.replay_day(AT.date())).to_pandas(), pandas.DataFrame)

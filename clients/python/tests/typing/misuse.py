"""Mistakes mypy --strict must flag in code that uses the client: each line
marked ``# error: TEXT`` must draw a mypy error whose message holds TEXT, and
no other line any (tests/test_typing.py). Not run, only type-checked.

(Where a quote or an entry may be a record or a dict, mypy names the union
it expected rather than the bad key; the client's own refusal at run time
names the key and the one it probably meant. A datetime passed for a date is
no type error, datetime being a date; the client refuses it at run time.)"""

from __future__ import annotations

from datetime import UTC, datetime

import mdc

AT = datetime(2025, 1, 2, 10, 0, tzinfo=UTC)


def misuse(client: mdc.Client) -> None:
    client.save_quotes(AT, {"TCS": {"status": "SUCCESS", "payload": {"lastPrice": 1.0}}})  # error: "QuoteData | QuoteDataDict"
    client.save_shortlist(AT, "TOP_LOSERS", [])  # error: "TOP_LOSERS"
    client.save_shortlist(AT, "TOP_GAINERS", [{"nseSymbol": "TCS", "price": 1}])  # error: "ShortlistEntryDict"
    client.save_nifty(AT, {"status": "OK"}, 0.5)  # error: "QuoteData | QuoteDataDict"
    client.save_quotes(AT, {"TCS": {"status": "SUCCESS", "payload": {"volume": "12a"}}})  # error: "QuoteData | QuoteDataDict"
    volume: float = client.quote("TCS").payload.volume  # error: "float | None"
    client.candles("TCS", "7minute")  # error: "7minute"
    client.quote_timeline("TCS", adjustment="dividend")  # error: "dividend"
    client.import_instruments("corporate_actions", b"")  # error: "corporate_actions"
    client.create_corporate_action("merger", AT.date(), symbol="TCS")  # error: "merger"
    mdc.QuotePayload(lastPrice=1.0)  # error: "lastPrice"
    client.quote_timeline("TCS").to_pandas(tz=5)  # error: "int"
    del volume


async def misuse_async(client: mdc.AsyncClient) -> None:
    quote: mdc.StockQuote = client.quote("TCS")  # error: "Coroutine"
    del quote

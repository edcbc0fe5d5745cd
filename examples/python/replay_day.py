#!/usr/bin/env python3
"""A collector that replays one trading day from a CSV into a running mdc.

For every instant of the file, in time order, it does what a live collector
does each few minutes of the session:

1. saves the quotes of all stocks of that instant in one batch,
2. saves the NIFTY 50 quote,
3. saves the TOP_GAINERS shortlist (the 5 stocks with the largest change
   against the previous close).

Writes are idempotent, so replaying the same day twice stores it once. The
client retries 503s and network errors itself; any other error stops the
replay with the server's message.

    MDC_URL=http://127.0.0.1:8080 MDC_TOKEN=mdc_... python3 replay_day.py [day.csv]

The CSV is written by make_day_csv.py (columns: time, symbol, name,
last_price, volume, day_change_perc; time is an IST wall clock).
"""

from __future__ import annotations

import csv
import itertools
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import mdc

IST = mdc.IST
INDEX = "NIFTY"
TOP = 5


@dataclass(frozen=True)
class Row:
    at: datetime
    symbol: str
    name: str
    last_price: float
    volume: float | None
    day_change_perc: float

    def quote_data(self) -> mdc.QuoteData:
        """The quote as the client takes it (a missing volume stays None:
        stored as absent, not as zero)."""
        payload = mdc.QuotePayload(last_price=self.last_price, day_change_perc=self.day_change_perc,
                                   volume=self.volume)
        return mdc.QuoteData(status="SUCCESS", payload=payload)


def read_rows(path: Path) -> Iterator[Row]:
    with open(path, newline="") as f:
        for record in csv.DictReader(f):
            yield Row(
                at=datetime.fromisoformat(record["time"]).replace(tzinfo=IST),
                symbol=record["symbol"],
                name=record["name"],
                last_price=float(record["last_price"]),
                volume=float(record["volume"]) if record["volume"] else None,
                day_change_perc=float(record["day_change_perc"]),
            )


def top_gainers(stocks: list[Row]) -> list[mdc.ShortlistEntry]:
    """Shortlist entries of the TOP largest gainers, best first."""
    ranked = sorted(stocks, key=lambda r: (-r.day_change_perc, r.symbol))[:TOP]
    return [mdc.ShortlistEntry(nse_symbol=r.symbol, name=r.name, price=r.last_price, quote_data=r.quote_data())
            for r in ranked]


def replay(client: mdc.Client, path: Path) -> int:
    """Replays the file; returns how many instants were stored."""
    instants = 0
    for at, group in itertools.groupby(read_rows(path), key=lambda r: r.at):
        rows = list(group)
        stocks = [r for r in rows if r.symbol != INDEX]
        client.save_quotes(at, {r.symbol: r.quote_data() for r in stocks})
        for index in (r for r in rows if r.symbol == INDEX):
            client.save_nifty(at, index.quote_data(), index.day_change_perc)
        client.save_shortlist(at, "TOP_GAINERS", top_gainers(stocks))
        instants += 1
    return instants


def main(argv: list[str]) -> int:
    path = Path(argv[1]) if len(argv) > 1 else Path(__file__).with_name("day.csv")
    url, token = os.environ.get("MDC_URL"), os.environ.get("MDC_TOKEN")
    if not url or not token:
        print("set MDC_URL (the gateway) and MDC_TOKEN (a developer token)", file=sys.stderr)
        return 2
    with mdc.Client(url, token, run_id="replay-" + path.stem) as client:
        try:
            instants = replay(client, path)
        except mdc.MdcError as error:
            print(f"replay stopped: {error}", file=sys.stderr)
            for violation in error.field_violations:
                print(f"  {violation.field}: {violation.description}", file=sys.stderr)
            return 1
    print(f"replayed {instants} instants from {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

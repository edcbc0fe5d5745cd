"""A week of mdc's market data in polars and DuckDB: every stock's 5-minute
returns and its beta to the NIFTY 50.

    MDC_URL=http://127.0.0.1:8080 MDC_TOKEN=mdc_... python3 week_beta.py --generate

With ``--generate`` it first stores a made-up week (a seeded random walk of
the index and ten stocks whose returns follow it with known betas) through
the collector API, so the answer can be checked; without, it studies what
is stored for that week. Then, as a researcher would:

1. one call exports the week's 5-minute candles of the stocks and the index
   to a Parquet file (``client.export``; docs/api.md section 11);
2. polars reads the file and computes each stock's 5-minute returns within
   each trading day and its beta, cov(stock, index) / var(index);
3. DuckDB computes the same from the same file in SQL (``regr_slope``);
4. the cross-section of the week's last instant (``client.quotes``) gives
   the closing prices in one call.

It prints one line per stock: the beta the data was made with (when it
generated it), polars' and DuckDB's.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import duckdb
import polars as pl

import mdc

IST = ZoneInfo("Asia/Kolkata")
MONDAY = date(2030, 3, 4)  # a week of five trading days
DAYS = [MONDAY + timedelta(days=i) for i in range(5)]
# The stocks and the betas their made-up returns follow.
BETAS = {
    "INFY": 0.6, "TCS": 0.8, "HDFCBANK": 1.0, "ICICIBANK": 1.2, "RELIANCE": 0.9,
    "ITC": 0.4, "LT": 1.1, "SBIN": 1.4, "AXISBANK": 1.3, "M&M": 1.5,
}
INSTANTS_PER_DAY = 75  # every 5 minutes from 09:15 to 15:25 IST


def instants(day: date) -> list[datetime]:
    """The 5-minute instants of one session, in IST."""
    start = datetime(day.year, day.month, day.day, 9, 15, tzinfo=IST)
    return [start + timedelta(minutes=5 * k) for k in range(INSTANTS_PER_DAY)]


def generate(client: mdc.Client, seed: int = 20300304) -> None:
    """Stores the made-up week: at each instant the index's quote and the
    stocks' quotes in one batch. Each stock's 5-minute return is its beta
    times the index's plus noise of its own."""
    rng = random.Random(seed)
    index = 22000.0
    prices = {symbol: 100.0 + 50 * i for i, symbol in enumerate(BETAS)}
    for day in DAYS:
        for k, at in enumerate(instants(day)):
            if k > 0:  # returns within the day; each day opens where it closed
                r_index = rng.gauss(0.0, 0.0015)
                index *= 1 + r_index
                for symbol, beta in BETAS.items():
                    prices[symbol] *= 1 + beta * r_index + rng.gauss(0.0, 0.0004)
            client.save_nifty(at, {"status": "SUCCESS", "payload": {"last_price": round(index, 6)}}, 0.0)
            client.save_quotes(at, {
                symbol: {"status": "SUCCESS", "payload": {"last_price": round(price, 6), "volume": 1000.0}}
                for symbol, price in prices.items()
            })


@dataclass(frozen=True)
class Beta:
    symbol: str
    polars: float
    duckdb: float


def betas_with_polars(candles: Path) -> dict[str, float]:
    """Each stock's beta to the index from the exported candles."""
    frame = pl.read_parquet(candles).sort("symbol", "timestamp")
    returns = frame.with_columns(
        ret=pl.col("close") / pl.col("close").shift(1).over("symbol", "trading_day") - 1
    ).drop_nulls("ret")
    index = returns.filter(pl.col("symbol") == "NIFTY").select("timestamp", pl.col("ret").alias("index_ret"))
    stocks = returns.filter(pl.col("symbol") != "NIFTY").join(index, on="timestamp")
    table = stocks.group_by("symbol").agg(
        (pl.cov("ret", "index_ret") / pl.col("index_ret").var()).alias("beta")
    )
    return {str(row["symbol"]): float(row["beta"]) for row in table.iter_rows(named=True)}


def betas_with_duckdb(candles: Path) -> dict[str, float]:
    """The same in SQL over the same file."""
    rows = duckdb.sql(f"""
        WITH r AS (
          SELECT symbol, timestamp,
                 close / lag(close) OVER (PARTITION BY symbol, trading_day ORDER BY timestamp) - 1 AS ret
          FROM read_parquet('{candles.as_posix()}'))
        SELECT s.symbol, regr_slope(s.ret, i.ret)
        FROM r s JOIN r i ON i.timestamp = s.timestamp AND i.symbol = 'NIFTY'
        WHERE s.symbol <> 'NIFTY' AND s.ret IS NOT NULL AND i.ret IS NOT NULL
        GROUP BY s.symbol""").fetchall()
    return {str(symbol): float(beta) for symbol, beta in rows}


def study(client: mdc.Client, out: Path) -> list[Beta]:
    """Exports the week's candles and computes every stock's beta twice."""
    out.mkdir(parents=True, exist_ok=True)
    candles = client.export("candles", DAYS[0], DAYS[-1], interval="5minute",
                            symbols=[*BETAS, "NIFTY"], format="parquet", path=out / "candles_5minute.parquet")
    with_polars = betas_with_polars(candles)
    with_duckdb = betas_with_duckdb(candles)
    return [Beta(symbol, with_polars[symbol], with_duckdb[symbol]) for symbol in sorted(with_polars)]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--generate", action="store_true", help="store the made-up week first")
    parser.add_argument("--out", type=Path, default=Path("research-out"), help="where the exported files go")
    args = parser.parse_args(argv)
    url, token = os.environ.get("MDC_URL", "http://127.0.0.1:8080"), os.environ.get("MDC_TOKEN")
    with mdc.Client(url, token) as client:
        if args.generate:
            generate(client)
        betas = study(client, args.out)
        closes = client.quotes(list(BETAS), as_of=instants(DAYS[-1])[-1])
    print(f"{'symbol':<10} {'made with':>9} {'polars':>9} {'DuckDB':>9} {'last close':>11}")
    last = {quote.nse_symbol: quote.payload.last_price for quote in closes.quotes if quote.payload}
    for beta in betas:
        made = f"{BETAS[beta.symbol]:9.2f}" if args.generate else f"{'':9}"
        close = last.get(beta.symbol)
        print(f"{beta.symbol:<10} {made} {beta.polars:9.4f} {beta.duckdb:9.4f} {close or float('nan'):11.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

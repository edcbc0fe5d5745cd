#!/usr/bin/env python3
"""Writes day.csv: one made-up NSE trading day for replay_day.py.

Deterministic (a fixed seed, no clock), so the committed day.csv is exactly
what this script writes; a test checks that. Every 5 minutes of the session
(09:15 to 15:25 IST) it has one row per stock and one for the NIFTY 50
index: a random walk of the last price and a growing cumulative volume.

Columns: time (IST wall clock), symbol, name, last_price, volume,
day_change_perc (change against the previous close, in percent).

    python3 make_day_csv.py [OUTPUT]      (default: day.csv beside this file)
"""

from __future__ import annotations

import csv
import random
import sys
from datetime import datetime, timedelta
from pathlib import Path

DAY = "2025-03-04"
SEED = 20250304
STEP = timedelta(minutes=5)
SESSION_OPEN = datetime.fromisoformat(f"{DAY}T09:15:00")
SESSION_LAST = datetime.fromisoformat(f"{DAY}T15:25:00")

# symbol, name, previous close
INSTRUMENTS = [
    ("NIFTY", "NIFTY 50", 22080.0),
    ("RELIANCE", "Reliance Industries", 1160.0),
    ("TCS", "Tata Consultancy Services", 3520.0),
    ("HDFCBANK", "HDFC Bank", 1690.0),
    ("INFY", "Infosys", 1640.0),
    ("ICICIBANK", "ICICI Bank", 1210.0),
    ("SBIN", "State Bank of India", 700.0),
    ("M&M", "Mahindra & Mahindra", 2650.0),
    ("BAJAJ-AUTO", "Bajaj Auto", 7600.0),
    ("ITC", "ITC", 395.0),
    ("WIPRO", "Wipro", 282.0),
]
COLUMNS = ["time", "symbol", "name", "last_price", "volume", "day_change_perc"]


def rows() -> list[list[str]]:
    """The day's rows, in time order, instruments in the order above."""
    rng = random.Random(SEED)
    price = {symbol: close * (1 + rng.uniform(-0.01, 0.01)) for symbol, _, close in INSTRUMENTS}
    volume = {symbol: 0 for symbol, _, _ in INSTRUMENTS}
    out: list[list[str]] = []
    moment = SESSION_OPEN
    while moment <= SESSION_LAST:
        for symbol, name, close in INSTRUMENTS:
            price[symbol] *= 1 + rng.gauss(0, 0.002)
            if symbol != "NIFTY":  # an index has no traded volume
                volume[symbol] += rng.randint(1_000, 50_000)
            tick = round(price[symbol] / 0.05) * 0.05  # NSE tick size
            change = (tick - close) / close * 100
            out.append([
                moment.strftime("%Y-%m-%dT%H:%M:%S"),
                symbol,
                name,
                f"{tick:.2f}",
                str(volume[symbol]) if symbol != "NIFTY" else "",
                f"{change:.2f}",
            ])
        moment += STEP
    return out


def main(argv: list[str]) -> None:
    output = Path(argv[1]) if len(argv) > 1 else Path(__file__).with_name("day.csv")
    with open(output, "w", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(COLUMNS)
        writer.writerows(rows())


if __name__ == "__main__":
    main(sys.argv)

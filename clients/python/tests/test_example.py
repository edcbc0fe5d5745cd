"""examples/python: the CSV is reproducible and the replay collector works."""

from __future__ import annotations

import csv
import os
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest

import mdc
from mdc_stack import Stack

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "python"
IST = mdc.IST

pytestmark = pytest.mark.skipif(not EXAMPLES.is_dir(), reason=f"no {EXAMPLES} (not a repository checkout)")


def csv_rows() -> list[dict[str, str]]:
    with open(EXAMPLES / "day.csv", newline="") as f:
        return list(csv.DictReader(f))


def test_day_csv_is_what_make_day_csv_writes(tmp_path: Path) -> None:
    fresh = tmp_path / "day.csv"
    subprocess.run([sys.executable, str(EXAMPLES / "make_day_csv.py"), str(fresh)], check=True)
    assert fresh.read_bytes() == (EXAMPLES / "day.csv").read_bytes(), (
        "examples/python/day.csv is stale: run examples/python/make_day_csv.py")


def test_replayed_day_is_readable(stack: Stack, developer_token: str, client: mdc.Client) -> None:
    result = subprocess.run(
        [sys.executable, str(EXAMPLES / "replay_day.py")],
        env={**os.environ, "MDC_URL": stack.base_url, "MDC_TOKEN": developer_token},
        capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    rows = csv_rows()
    instants = sorted({r["time"] for r in rows})
    assert result.stdout.strip().endswith(f"{len(instants)} instants from {EXAMPLES / 'day.csv'}")

    def at(wall: str) -> datetime:
        return datetime.fromisoformat(wall).replace(tzinfo=IST)

    first, last = at(instants[0]), at(instants[-1])
    tcs = [r for r in rows if r["symbol"] == "TCS"]
    timeline = client.quote_timeline("TCS", start=first, end=last.replace(hour=15, minute=30), page_size=50)
    assert [(q.timestamp, q.payload.last_price, q.payload.volume) for q in timeline] == [
        (at(r["time"]), float(r["last_price"]), float(r["volume"])) for r in tcs]
    frame = timeline.to_pandas(tz=IST)
    assert frame.index[0] == first and frame["last_price"].tolist() == [float(r["last_price"]) for r in tcs]

    (closing_nifty,) = [r for r in rows if r["time"] == instants[-1] and r["symbol"] == "NIFTY"]
    nifty = client.nifty(as_of=last)
    assert nifty.day_change_perc == float(closing_nifty["day_change_perc"])
    assert nifty.payload.last_price == float(closing_nifty["last_price"])
    assert nifty.payload.volume is None  # the CSV has none for the index: absent, not 0.0

    gainers = client.shortlist("TOP_GAINERS", as_of=last)
    closing = [r for r in rows if r["time"] == instants[-1] and r["symbol"] != "NIFTY"]
    best = sorted(closing, key=lambda r: (-float(r["day_change_perc"]), r["symbol"]))[:5]
    assert [e.nse_symbol for e in gainers.entries] == [r["symbol"] for r in best]

    daily = client.candles("TCS", "1day", start=first, end=last.replace(hour=15, minute=30))
    assert len(daily.candles) == 1 and daily.candles[0].time == first.replace(hour=0, minute=0)
    assert daily.candles[0].volume == float(tcs[-1]["volume"])  # the day's cumulative volume
    assert daily.candles[0].close == float(tcs[-1]["last_price"])

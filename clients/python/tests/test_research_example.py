"""examples/research/week_beta.py against the stack: the week it stores comes
back out as one Parquet file, and polars and DuckDB find in it the betas the
data was made with."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from mdc_stack import Stack

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "research" / "week_beta.py"
# The betas week_beta.py's made-up returns follow (its BETAS).
MADE_WITH = {
    "INFY": 0.6, "TCS": 0.8, "HDFCBANK": 1.0, "ICICIBANK": 1.2, "RELIANCE": 0.9,
    "ITC": 0.4, "LT": 1.1, "SBIN": 1.4, "AXISBANK": 1.3, "M&M": 1.5,
}
# Each stock's own noise (sd 0.0004) against the index's (sd 0.0015) over
# 5 x 74 returns leaves a standard error of about 0.014 on a beta: 0.07 is
# five of them, and far below the gap between any two betas made with.
TOLERANCE = 0.07

pytestmark = pytest.mark.skipif(not EXAMPLE.is_file(), reason=f"no {EXAMPLE} (not a repository checkout)")


def test_week_beta_finds_the_betas_it_was_made_with(stack: Stack, developer_token: str, tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, str(EXAMPLE), "--generate", "--out", str(tmp_path)],
        env={**os.environ, "MDC_URL": stack.base_url, "MDC_TOKEN": developer_token},
        capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stderr

    header, *lines = result.stdout.strip().splitlines()
    assert header.split() == ["symbol", "made", "with", "polars", "DuckDB", "last", "close"]
    printed: dict[str, tuple[float, float, float, float]] = {}
    for line in lines:
        name, *numbers = line.split()
        made_with, by_polars, by_duckdb, last_close = map(float, numbers)
        printed[name] = (made_with, by_polars, by_duckdb, last_close)
    assert sorted(printed) == sorted(MADE_WITH)
    for symbol, (made, with_polars, with_duckdb, close) in printed.items():
        assert made == MADE_WITH[symbol]
        assert math.isclose(with_polars, with_duckdb, abs_tol=1e-4), symbol  # both printed to 4 places
        assert abs(with_polars - made) < TOLERANCE, (symbol, with_polars, made)
        assert close > 0, symbol  # the cross-section found every stock's last quote

    # The file is the whole week: 75 five-minute candles a day of the ten
    # stocks and the index, and the last candle's close is the close printed.
    frame = pl.read_parquet(tmp_path / "candles_5minute.parquet")
    assert frame.height == 5 * 75 * 11
    assert frame.group_by("symbol").len().sort("symbol")["len"].to_list() == [5 * 75] * 11
    assert frame["trading_day"].n_unique() == 5
    last = frame.sort("timestamp").group_by("symbol").last()
    for symbol, (_, _, _, printed_close) in printed.items():
        (closing,) = last.filter(pl.col("symbol") == symbol)["close"].to_list()
        assert round(closing, 2) == printed_close, symbol

"""Issue 34: the collector spool (mdc.Spool). Writes mdc cannot take now are
kept on disk, reported, survive a restart of the collector (a new Spool on
the same folder), and are delivered oldest first when mdc is back; the spool
is bounded. "Unavailable" here is a gateway address nothing listens on, as
when the gateway or its host is down; the failover test (tests/e2e,
TestFailover) covers the database's loss behind a running gateway."""

from __future__ import annotations

import secrets
import socket
from datetime import UTC, datetime
from pathlib import Path

import pytest

import mdc
from mdc_stack import Stack

AT = datetime(2031, 5, 6, 4, 0, tzinfo=UTC)
LATER = datetime(2031, 5, 6, 4, 1, tzinfo=UTC)


def quote(last_price: float) -> mdc.QuoteDataDict:
    return {"status": "SUCCESS", "payload": {"last_price": last_price}}


def nobody_listening() -> str:
    """A gateway address where nothing listens: connections are refused."""
    with socket.create_server(("127.0.0.1", 0)) as s:
        return f"http://127.0.0.1:{s.getsockname()[1]}"


def test_writes_wait_on_disk_and_arrive_in_order_after_a_restart(
        stack: Stack, developer_token: str, tmp_path: Path) -> None:
    symbol = "SPOOL" + secrets.token_hex(3).upper()
    folder = tmp_path / "spool"
    with mdc.Client(nobody_listening(), developer_token, retries=0, timeout=2) as down:
        spool = mdc.Spool(down, folder)
        spool.save_quotes(AT, {symbol: quote(1)})
        spool.save_quotes(AT, {symbol: quote(2)})  # the same key again: the last one wins
        spool.save_quotes(LATER, {symbol: quote(3)})
        held = spool.state()
    assert held.writes == 3 and held.bytes > 0 and held.rejected == 0
    assert held.oldest is not None and held.last_error is not None and held.last_error.startswith("UNAVAILABLE")

    # The collector process is restarted; mdc is back.
    with mdc.Client(stack.base_url, developer_token) as up:
        restarted = mdc.Spool(up, folder)
        assert restarted.state().writes == 3
        assert restarted.flush() == 3
        after = restarted.state()
        assert (after.writes, after.bytes, after.oldest, after.last_error) == (0, 0, None, None)
        assert up.quote(symbol, as_of=AT).payload.last_price == 2
        assert up.quote(symbol).payload.last_price == 3
        # A write through a spool with nothing held goes straight through.
        restarted.save_nifty(LATER, quote(22000), 0.5)
        assert restarted.state().writes == 0


def test_the_spool_is_bounded(developer_token: str, tmp_path: Path) -> None:
    with mdc.Client(nobody_listening(), developer_token, retries=0, timeout=2) as down:
        spool = mdc.Spool(down, tmp_path / "spool", max_writes=2)
        spool.save_quotes(AT, {"TCS": quote(1)})
        spool.save_quotes(LATER, {"TCS": quote(2)})
        with pytest.raises(mdc.ResourceExhausted, match="spool is full"):
            spool.save_quotes(LATER, {"INFY": quote(3)})
        assert spool.state().writes == 2


def test_arguments_are_refused_before_anything_is_spooled(developer_token: str, tmp_path: Path) -> None:
    with mdc.Client(nobody_listening(), developer_token, retries=0, timeout=2) as down:
        spool = mdc.Spool(down, tmp_path / "spool")
        with pytest.raises(mdc.InvalidArgument):
            spool.save_quotes(AT, {"TCS": {"status": "NOT_A_STATUS"}})  # type: ignore[dict-item]
        assert spool.state().writes == 0

"""Adjusted candles through the client (docs/api.md section 13): the
security master and a 1:1 bonus imported as NSE's files through the admin
routes, then ``candles(..., adjustment=...)`` checked against values
computed by hand, point in time included."""

from __future__ import annotations

import json
import secrets
import urllib.request
from datetime import date, datetime, timedelta, timezone

import pytest

import mdc
from mdc_stack import Stack
from nse_files import isin_with_check_digit

IST_ZONE = timezone(timedelta(hours=5, minutes=30))


def ist(day: date, hh: int, mm: int = 0) -> datetime:
    return datetime(day.year, day.month, day.day, hh, mm, tzinfo=IST_ZONE)


def import_file(stack: Stack, path: str, csv: str) -> dict[str, object]:
    req = urllib.request.Request(stack.base_url + path, data=csv.encode(), method="POST", headers={
        "Authorization": f"Bearer {stack.admin_token}", "Content-Type": "text/csv"})
    with urllib.request.urlopen(req, timeout=10) as resp:
        answer: dict[str, object] = json.loads(resp.read())
        return answer



def test_candles_adjusted_for_a_bonus(stack: Stack, client: mdc.Client) -> None:
    symbol = "PYADJ" + secrets.token_hex(3).upper()
    isin = isin_with_check_digit("INE" + secrets.token_hex(4).upper())
    listed = import_file(stack, "/v1/admin/instruments/import?kind=equity_list",
                         "SYMBOL,NAME OF COMPANY, SERIES, DATE OF LISTING, PAID UP VALUE, MARKET LOT, ISIN NUMBER,"
                         f" FACE VALUE\n{symbol},Python Co,EQ,02-JAN-2030,10,1,{isin},10\n")
    assert listed["imported"] == 1, listed
    actions = import_file(stack, "/v1/admin/corporate-actions/import",
                          "SYMBOL,COMPANY NAME,SERIES,PURPOSE,FACE VALUE,EX-DATE\n"
                          f"{symbol},Python Co,EQ,Bonus 1:1,10,08-Aug-2033\n")
    assert actions["imported"] == 1, actions
    before, on = date(2033, 8, 5), date(2033, 8, 8)
    client.save_quotes(ist(before, 10), {symbol: {"status": "SUCCESS", "payload": {"last_price": 400, "volume": 1000}}})
    client.save_quotes(ist(on, 10), {symbol: {"status": "SUCCESS", "payload": {"last_price": 200, "volume": 2000}}})

    start, end = ist(date(2033, 8, 1), 0), ist(date(2033, 8, 9), 0)
    with client.backtest_clock(ist(date(2033, 8, 20), 12), run_id="pytest-adjusted"):
        raw = client.candles(symbol, "1day", start=start, end=end)
        split = client.candles(symbol, "1day", start=start, end=end, adjustment="split")
    assert raw.adjustment is None and [c.close for c in raw.candles] == [400, 200]
    assert split.adjustment == "split"
    assert [(c.close, c.volume) for c in split.candles] == [(200, 2000), (200, 2000)]
    # Before the ex-date the bonus is not known yet.
    with client.backtest_clock(ist(date(2033, 8, 7), 12), run_id="pytest-adjusted"):
        early = client.candles(symbol, "1day", start=start, end=ist(date(2033, 8, 7), 0), adjustment="all")
    assert [c.close for c in early.candles] == [400]
    with pytest.raises(mdc.InvalidArgument, match="adjustment"):
        client.candles(symbol, "1day", start=start, end=end, adjustment="dividend")  # type: ignore[arg-type]

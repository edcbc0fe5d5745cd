"""Adjusted exports through the client's export helper (docs/api.md section
13.6) and an admin's entry of one corporate action (section 13.7), against
the real stack: a 1:1 bonus and a Rs 10 -> Rs 2 split imported from an
NSE-layout file, a Rs 4 dividend entered with ``create_corporate_action``,
one quote a day over four days, and the exported closes and volumes
checked against values computed by hand."""

from __future__ import annotations

import csv
import secrets
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import pytest

import mdc
from nse_files import isin_with_check_digit

IST_ZONE = timezone(timedelta(hours=5, minutes=30))
# Tuesday to Friday: the bonus on D2, the split on D3, the dividend on D4.
D1, D2, D3, D4 = date(2034, 2, 7), date(2034, 2, 8), date(2034, 2, 9), date(2034, 2, 10)
AFTER = date(2034, 2, 13)
STORED = [(1000.0, 100.0), (500.0, 200.0), (100.0, 1000.0), (98.0, 1000.0)]
# By hand: before D2 x 1/2, before D3 x 1/5 (volumes inversely); all also
# x (1 - 4 / 100) before D4, 100 being D3's close.
SPLIT = [(100.0, 1000.0), (100.0, 1000.0), (100.0, 1000.0), (98.0, 1000.0)]
ALL = [(96.0, 1000.0), (96.0, 1000.0), (96.0, 1000.0), (98.0, 1000.0)]


def ist(day: date, hh: int = 0) -> datetime:
    return datetime(day.year, day.month, day.day, hh, tzinfo=IST_ZONE)


def flat(rows: list[tuple[float, float]]) -> list[float]:
    return [value for row in rows for value in row]


def test_adjusted_exports_and_one_entered_action(admin: mdc.Client, client: mdc.Client, tmp_path: Path) -> None:
    tag = secrets.token_hex(3).upper()
    symbol = "PYEXP" + tag
    isin = isin_with_check_digit("INE" + secrets.token_hex(4).upper())
    name = f"Pyexport {tag} Limited"
    listed = admin.import_instruments("equity_list", (
        "SYMBOL,NAME OF COMPANY, SERIES, DATE OF LISTING, PAID UP VALUE, MARKET LOT, ISIN NUMBER, FACE VALUE\n"
        f"{symbol},{name},EQ,06-OCT-2020,10,1,{isin},10\n").encode())
    assert listed.imported == 1, listed
    imported = admin.import_corporate_actions((
        "SYMBOL,COMPANY NAME,SERIES,PURPOSE,FACE VALUE,EX-DATE,RECORD DATE\n"
        f"{symbol},{name},EQ,Bonus 1:1,10,{D2.strftime('%d-%b-%Y')},-\n"
        f"{symbol},{name},EQ,Face Value Split (Sub-Division) - From Rs 10/- Per Share To Rs 2/- Per Share,"
        f"10,{D3.strftime('%d-%b-%Y')},-\n").encode())
    assert imported.imported == 2, imported
    for day, (price, volume) in zip((D1, D2, D3, D4), STORED, strict=True):
        client.save_quotes(ist(day, 10), {symbol: {"status": "SUCCESS", "payload": {"last_price": price,
                                                                                   "volume": volume}}})

    # The dividend entered by the admin, by symbol; its default description
    # is NSE's wording, entering it again changes nothing.
    entered = admin.create_corporate_action("dividend", D4, symbol=symbol, amount=4)
    assert entered.created and isinstance(entered.action, mdc.CorporateAction)
    assert (entered.action.isin, entered.action.ex_date, entered.action.kind, entered.action.amount,
            entered.action.description) == (isin, D4, "dividend", 4, "Dividend Rs 4")
    assert not admin.create_corporate_action("dividend", D4, isin=isin, amount=4).created
    assert [a.price_factor for a in client.corporate_actions(symbol)] == pytest.approx([0.5, 0.2, 0.96])
    with pytest.raises(mdc.FailedPrecondition):
        admin.create_corporate_action("dividend", D4, isin=isin, amount=5, description="Dividend Rs 4")
    with pytest.raises(mdc.InvalidArgument, match="amount"):
        admin.create_corporate_action("dividend", D4, symbol=symbol)
    with pytest.raises(mdc.InvalidArgument, match="isin"):
        admin.create_corporate_action("dividend", D4, symbol=symbol, isin=isin, amount=4)
    with pytest.raises(mdc.PermissionDenied):
        client.create_corporate_action("dividend", D4, symbol=symbol, amount=4)

    with client.backtest_clock(ist(AFTER, 12), run_id="pytest-adjusted-exports"):
        candles = client.export("candles", D1, D4, symbols=[symbol], interval="1day", adjustment="split")
        quotes_csv = client.export("quotes", D1, D4, symbols=[symbol], adjustment="all", format="csv",
                                   path=tmp_path / "quotes_all.csv")
        raw = client.export("quotes", D1, D4, symbols=[symbol])
    # The DataFrame of the Parquet file: adjusted values and the column
    # saying which adjustment made them.
    assert flat(list(zip(candles["close"], candles["volume"], strict=True))) == pytest.approx(flat(SPLIT))
    assert list(candles["adjustment"]) == ["split"] * 4
    with quotes_csv.open(newline="") as f:
        rows = list(csv.DictReader(f))
    assert flat([(float(r["last_price"]), float(r["volume"])) for r in rows]) == pytest.approx(flat(ALL))
    assert [r["adjustment"] for r in rows] == ["all"] * 4
    assert "adjustment" not in raw.columns
    assert flat(list(zip(raw["last_price"], raw["volume"], strict=True))) == pytest.approx(flat(STORED))
    # An adjusted file is not stored data: the import refuses it.
    with pytest.raises(mdc.InvalidArgument, match="adjust"):
        admin.import_(quotes_csv, kind="quotes")

    # Point in time: on D3 the dividend is not known yet.
    with client.backtest_clock(ist(D3, 12), run_id="pytest-adjusted-exports"):
        early = client.export("candles", D1, D2, symbols=[symbol], interval="1day", adjustment="all")
    assert flat(list(zip(early["close"], early["volume"], strict=True))) == pytest.approx(flat(SPLIT[:2]))

    with pytest.raises(mdc.InvalidArgument, match="adjustment"):
        client.export("nifty", D1, D4, adjustment="split")
    with pytest.raises(mdc.InvalidArgument, match="adjustment"):
        client.export("quotes", D1, D4, adjustment="split")  # every symbol is no list of instruments
    with pytest.raises(mdc.InvalidArgument, match="adjustment"):
        client.export("quotes", D1, D4, symbols=[symbol], adjustment="dividend")  # type: ignore[call-overload]

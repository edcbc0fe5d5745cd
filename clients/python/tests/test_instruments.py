"""The security master, corporate actions and adjusted reads through the
client (docs/api.md section 13), against the real stack: NSE-layout files
this test writes (an equity list, a symbol change, corporate actions with a
1:1 bonus, a 1:5 split and a dividend) imported with the admin methods, then
every read that takes ``adjustment`` checked against values computed by hand,
point in time (the backtest clock) included."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Iterable
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import pytest

import mdc
from mdc_stack import Stack
from nse_files import isin_with_check_digit

IST_ZONE = timezone(timedelta(hours=5, minutes=30))
RENAMED_ON = date(2021, 6, 2)
# Tuesday to Friday: a bonus (1:1) on D2, a split (Rs 10 to Rs 2) on D3, a
# Rs 4 dividend on D4; the backtest clock reads on the Monday after.
D1, D2, D3, D4 = date(2034, 1, 3), date(2034, 1, 4), date(2034, 1, 5), date(2034, 1, 6)
AFTER = date(2034, 1, 9)
# One quote a day (10:00 IST): the close and the day's volume as stored.
STORED = {D1: (1000.0, 100.0), D2: (500.0, 200.0), D3: (100.0, 1000.0), D4: (98.0, 1000.0)}
# By hand. Split (bonus and split): a day before D2 x 1/2, before D3 x 1/5;
# volumes inversely. All: also x (1 - 4 / 100) before D4, 100 being D3's close.
SPLIT = [(100.0, 1000.0), (100.0, 1000.0), (100.0, 1000.0), (98.0, 1000.0)]
ALL = [(96.0, 1000.0), (96.0, 1000.0), (96.0, 1000.0), (98.0, 1000.0)]


def ist(day: date, hh: int = 0) -> datetime:
    return datetime(day.year, day.month, day.day, hh, tzinfo=IST_ZONE)



def nse_date(day: date) -> str:
    return day.strftime("%d-%b-%Y")  # 04-Jan-2034, as NSE writes it


def flat(rows: Iterable[tuple[float | None, ...]]) -> list[float | None]:
    """Pairs as one list (pytest.approx compares flat lists)."""
    return [value for row in rows for value in row]


def pairs(candles: mdc.CandleSeries) -> list[tuple[float, float | None]]:
    return [(c.close, c.volume) for c in candles.candles]


def test_instruments_actions_and_adjusted_reads(stack: Stack, admin: mdc.Client, client: mdc.Client,
                                                developer_token: str, tmp_path: Path) -> None:
    tag = secrets.token_hex(3).upper()
    old, new, stranger = "PYOLD" + tag, "PYNEW" + tag, "PYNONE" + tag
    isin = isin_with_check_digit("INE" + secrets.token_hex(4).upper())
    name = f"Pyinstr {tag} Limited"

    # The equity list from a path; a bad ISIN row is listed back, the rest imported.
    equity_list = tmp_path / "EQUITY_L.csv"
    equity_list.write_text("SYMBOL,NAME OF COMPANY, SERIES, DATE OF LISTING, PAID UP VALUE, MARKET LOT,"
                           " ISIN NUMBER, FACE VALUE\n"
                           f"{new},{name},EQ,06-OCT-2020,10,1,{isin},10\n"
                           f"{stranger},Nobody,EQ,06-OCT-2020,10,1,INE000000000,10\n")
    listed = admin.import_instruments("equity_list", equity_list)
    assert (listed.kind, listed.imported, listed.unchanged) == ("equity_list", 1, 0), listed
    assert [row.line for row in listed.rejected] == [3] and "ISIN" in listed.rejected[0].reason.upper()
    assert admin.import_instruments("equity_list", equity_list.read_bytes()).unchanged == 1

    changes = ("SM_NAME_OF_COMPANY,SM_KEY_SYMBOL,SM_NEW_SYMBOL,SM_APPLICABLE_FROM\n"
               f"{name},{old},{new},{nse_date(RENAMED_ON)}\n").encode()
    renamed = admin.import_instruments("symbol_changes", changes)
    assert (renamed.kind, renamed.imported) == ("symbol_changes", 1), renamed

    actions_file = ("SYMBOL,COMPANY NAME,SERIES,PURPOSE,FACE VALUE,EX-DATE,RECORD DATE\n"
                    f"{new},{name},EQ,Bonus 1:1,10,{nse_date(D2)},-\n"
                    f"{new},{name},EQ,Face Value Split (Sub-Division) - From Rs 10/- Per Share To Rs 2/- Per Share,"
                    f"10,{nse_date(D3)},-\n"
                    f"{new},{name},EQ,Interim Dividend - Rs 4 Per Share,2,{nse_date(D4)},-\n"
                    f"{new},{name},EQ,Annual General Meeting,2,{nse_date(D4)},-\n"
                    f"{stranger},Nobody,EQ,Bonus 1:1,10,{nse_date(D2)},-\n").encode()
    imported = admin.import_corporate_actions(actions_file)
    assert (imported.kind, imported.imported, imported.unchanged) == ("corporate_actions", 3, 0), imported
    assert [row.line for row in imported.ignored] == [5]
    assert [row.line for row in imported.rejected] == [6] and "SYMBOL" in imported.rejected[0].reason.upper()
    assert admin.import_corporate_actions(actions_file).unchanged == 3

    # The security master by the old symbol, the ISIN and the name's prefix.
    by_old = client.instruments(symbol=old)
    assert [(i.isin, i.symbol, i.name, i.series, i.listing_date, i.face_value, i.market_lot) for i in by_old] == [
        (isin, new, name, "EQ", date(2020, 10, 6), 10.0, 1)]
    assert [(s.symbol, s.valid_from, s.valid_to) for s in by_old[0].symbols] == [
        (old, date(2020, 10, 6), RENAMED_ON), (new, RENAMED_ON, None)]
    assert client.instruments(isin=isin, as_of=date(2021, 1, 1))[0].symbol == old
    assert [i.isin for i in client.instruments(prefix=f"pyinstr {tag.lower()}")] == [isin]
    assert list(client.instruments(symbol=new).to_pandas()["isin"]) == [isin]
    with pytest.raises(mdc.InvalidArgument, match="exactly one"):
        client.instruments(symbol=new, isin=isin)
    with pytest.raises(mdc.InvalidArgument, match="symbol"):
        client.instruments(symbol=stranger)

    for day, (price, volume) in STORED.items():
        client.save_quotes(ist(day, 10), {new: {"status": "SUCCESS", "payload": {"last_price": price, "volume": volume}}})

    # Corporate actions by either symbol, with their factors; D3's close
    # makes the dividend's 1 - 4/100.
    actions = client.corporate_actions(old)
    assert [(a.ex_date, a.kind, a.new_shares, a.held_shares, a.old_face_value, a.new_face_value, a.amount)
            for a in actions] == [(D2, "bonus", 1, 1, 0, 0, 0), (D3, "split", 0, 0, 10, 2, 0),
                                  (D4, "dividend", 0, 0, 0, 0, 4)]
    assert [a.price_factor for a in actions] == pytest.approx([0.5, 0.2, 0.96])
    assert [a.volume_factor for a in actions] == pytest.approx([2, 5, 1])
    assert [a.kind for a in client.corporate_actions(new, start=D3, end=D3)] == ["split"]
    assert list(actions.to_pandas()["kind"]) == ["bonus", "split", "dividend"]

    start, end = ist(D1), ist(AFTER)
    # Today (years before the actions' ex-dates) no action is known yet.
    assert pairs(client.candles(new, "1day", start=start, end=end, adjustment="split")) == list(STORED.values())
    with client.backtest_clock(ist(AFTER, 12), run_id="pytest-instruments"):
        raw = client.candles(new, "1day", start=start, end=end)
        split = client.candles(new, "1day", start=start, end=end, adjustment="split")
        every = client.candles(new, "1day", start=start, end=end, adjustment="all")
        of_symbols = client.candles_of_symbols([new], "1day", start=start, end=end, adjustment="all")
        timeline = client.quote_timeline(new, start=start, end=end, adjustment="all")
        section = client.quotes([new], as_of=ist(D1, 15), adjustment="split")
    assert raw.adjustment is None and pairs(raw) == list(STORED.values())
    assert split.adjustment == "split" and flat(pairs(split)) == pytest.approx(flat(SPLIT))
    # Each candle of a symbol of the master names the symbol its close was stored under.
    assert [c.symbol for c in split.candles] == [new] * 4 and list(split.to_pandas()["symbol"]) == [new] * 4
    assert list(of_symbols.to_pandas()["stored_symbol"]) == [new] * 4
    assert every.adjustment == "all" and flat(pairs(every)) == pytest.approx(flat(ALL))
    assert of_symbols[new].adjustment == "all" and flat(pairs(of_symbols[new])) == pytest.approx(flat(ALL))
    frame = every.to_pandas(tz="Asia/Kolkata")
    assert [t.date() for t in frame.index] == [D1, D2, D3, D4]
    assert flat(zip(frame["close"], frame["volume"], strict=True)) == pytest.approx(flat(ALL))
    assert flat((q.quote_data.payload.last_price, q.quote_data.payload.volume)
                for q in timeline if q.quote_data.payload) == pytest.approx(flat(ALL))
    assert list(timeline.to_pandas()["last_price"]) == pytest.approx([p for p, _ in ALL])
    payload = section[new].quote_data.payload
    assert section.adjustment == "split" and payload is not None
    assert (payload.last_price, payload.volume) == pytest.approx(SPLIT[0])

    # Point in time: on D3 the bonus and the split are known, the dividend not yet.
    with client.backtest_clock(ist(D3, 12), run_id="pytest-instruments"):
        known = client.candles(new, "1day", start=start, end=ist(D3, 11), adjustment="all")
        early = client.quote_timeline(new, start=start, end=ist(D3, 11), adjustment="all")
    assert flat(pairs(known)) == pytest.approx(flat(SPLIT[:3]))
    assert [q.quote_data.payload.last_price for q in early if q.quote_data.payload] == pytest.approx([100.0] * 3)

    with pytest.raises(mdc.InvalidArgument, match="adjustment"):
        client.quote_timeline(new, start=start, end=end, adjustment="dividend")  # type: ignore[arg-type]
    with pytest.raises(mdc.InvalidArgument, match="kind"):
        admin.import_instruments("corporate_actions", changes)  # type: ignore[arg-type]
    with pytest.raises(mdc.InvalidArgument, match="csv"):
        admin.import_corporate_actions(changes)  # the symbol-change list is not a corporate-actions file
    with pytest.raises(mdc.PermissionDenied):
        client.import_corporate_actions(actions_file)

    async def read_async() -> tuple[mdc.Records[mdc.Instrument], mdc.Records[mdc.CorporateAction], mdc.CandleSeries]:
        async with mdc.AsyncClient(stack.base_url, developer_token) as aclient:
            with aclient.backtest_clock(ist(AFTER, 12), run_id="pytest-instruments"):
                return (await aclient.instruments(isin=isin), await aclient.corporate_actions(new),
                        await aclient.candles(new, "1day", start=start, end=end, adjustment="split"))

    instruments, async_actions, async_split = asyncio.run(read_async())
    assert [i.symbol for i in instruments] == [new] and async_actions == actions
    assert flat(pairs(async_split)) == pytest.approx(flat(SPLIT))


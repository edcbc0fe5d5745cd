"""Collector writes and developer reads through the real gateway and server.

Each test writes to a trading day of its own, so tests do not see each
other's data in the session's shared database.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from mdc.v1 import developer_pb2, market_pb2

import mdc
from mdc_stack import Stack

IST = mdc.IST


def ist(day: date, hh: int, mm: int, ss: int = 0) -> datetime:
    return datetime(day.year, day.month, day.day, hh, mm, ss, tzinfo=IST)


def quote(last_price: float, volume: float | None) -> mdc.QuoteDataDict:
    return {"status": "SUCCESS", "payload": {"last_price": last_price, "volume": volume}}


def test_shortlist_saved_and_read_back_as_of(client: mdc.Client) -> None:
    day = date(2025, 1, 15)
    entries: list[mdc.ShortlistEntryInput] = [
        {"nse_symbol": "RELIANCE", "name": "Reliance Industries", "price": 1234.5},
        mdc.ShortlistEntry(nse_symbol="M&M", name="Mahindra & Mahindra", price=2950,
                           quote_data=mdc.QuoteData(status="SUCCESS", payload=mdc.QuotePayload(last_price=2950))),
    ]
    client.save_shortlist(ist(day, 10, 0), "TOP_GAINERS", entries)
    client.save_shortlist(ist(day, 10, 5), "TOP_GAINERS", entries[:1])

    got = client.shortlist("TOP_GAINERS", as_of=ist(day, 10, 4, 59))

    assert got.timestamp == ist(day, 10, 0) and got.timestamp.tzinfo is UTC
    assert (got.shortlist_type, got.scope) == ("TOP_GAINERS", "TOP_5")
    assert [(e.nse_symbol, e.name, e.price) for e in got.entries] == [
        ("RELIANCE", "Reliance Industries", 1234.5),
        ("M&M", "Mahindra & Mahindra", 2950.0),
    ]
    assert got.entries[0].quote_data is None
    assert got.entries[1] == entries[1]  # a record in, the same record out
    frame = got.to_pandas()  # a shortlist's table is its entries'
    assert list(frame["nse_symbol"]) == ["RELIANCE", "M&M"] and list(frame["last_price"].isna()) == [True, False]
    later = client.shortlist("TOP_GAINERS", as_of=ist(day, 15, 0))
    assert [e.nse_symbol for e in later.entries] == ["RELIANCE"]


def test_shortlist_before_the_first_snapshot_is_not_found(client: mdc.Client) -> None:
    day = date(2025, 1, 3)
    client.save_shortlist(ist(day, 11, 0), "VOLUME_SHOCKERS", [], scope="FULL")
    with pytest.raises(mdc.NotFound) as caught:
        client.shortlist("VOLUME_SHOCKERS", as_of=ist(day, 10, 59), scope="FULL")
    assert caught.value.status == 404
    assert caught.value.code == "NOT_FOUND"
    # An empty shortlist is a real observation: it is stored and read back.
    empty = client.shortlist("VOLUME_SHOCKERS", as_of=ist(day, 11, 0), scope="FULL")
    assert list(empty.entries) == [] and len(empty.to_pandas()) == 0
    assert empty.scope == "FULL"


def test_quote_batch_and_timeline_pages(client: mdc.Client) -> None:
    day = date(2025, 1, 6)
    times = [ist(day, 9, 15 + i) for i in range(5)]
    for i, at in enumerate(times):
        client.save_quotes(at, {"TCS": quote(4000 + i, 100 * (i + 1)), "M&M": quote(1900 - i, 50)})

    timeline = client.quote_timeline("TCS", start=ist(day, 9, 0), end=ist(day, 15, 30), page_size=2)

    assert [q.timestamp for q in timeline] == times  # all three pages
    assert [q.payload.last_price for q in timeline] == [4000, 4001, 4002, 4003, 4004]
    assert {q.nse_symbol for q in timeline} == {"TCS"}
    as_of = client.quote("M&M", as_of=ist(day, 9, 17, 30))  # "&" escaped in the query
    assert as_of.payload.last_price == 1898
    assert as_of.quote_data.status == "SUCCESS"


def test_nifty_saved_and_read(client: mdc.Client) -> None:
    day = date(2025, 1, 7)
    payload: mdc.QuotePayloadDict = {
        "last_price": 23500.25,
        "day_change_perc": 0.5,
        "volume": None,  # null stays absent
        "ohlc": {"open": 23400, "high": 23550, "low": 23390, "close": 23380},
    }
    client.save_nifty(ist(day, 9, 30), {"status": "SUCCESS", "payload": payload}, 0.5)
    client.save_nifty(ist(day, 9, 31), {"status": "FAILURE"}, 0.6)

    got = client.nifty(as_of=ist(day, 9, 30, 30))

    assert got.day_change_perc == 0.5
    assert got.payload.last_price == 23500.25
    assert got.payload.volume is None  # null on the wire: None, not 0.0
    assert got.payload.average_price is None  # absent: None too
    assert got.payload.ohlc == mdc.Ohlc(open=23400, high=23550, low=23390, close=23380)
    timeline = client.nifty_timeline(start=ist(day, 9, 0), end=ist(day, 10, 0), page_size=1)
    assert [q.day_change_perc for q in timeline] == [0.5, 0.6]
    assert timeline[1].quote_data == mdc.QuoteData(status="FAILURE")  # no payload: None
    assert timeline[1].payload.last_price is None
    frame = timeline.to_pandas()
    assert list(frame["status"]) == ["SUCCESS", "FAILURE"]
    assert frame["volume"].isna().all() and frame["last_price"].isna().tolist() == [False, True]


def test_candles_from_quotes(client: mdc.Client) -> None:
    day = date(2025, 1, 8)
    prices = [(ist(day, 9, 15, 0), 100, 10), (ist(day, 9, 15, 30), 103, 25),
              (ist(day, 9, 16, 10), 99, 40), (ist(day, 9, 16, 50), 101, 45)]
    for at, price, volume in prices:
        client.save_quotes(at, {"HDFCBANK": quote(price, volume)})

    series = client.candles("HDFCBANK", "1minute", start=ist(day, 9, 15), end=ist(day, 9, 20))

    assert series.interval == "1minute" and series.interval_minutes == 1
    assert series.candles == [
        mdc.Candle(time=ist(day, 9, 15), open=100, high=103, low=100, close=103, volume=25),
        mdc.Candle(time=ist(day, 9, 16), open=99, high=101, low=99, close=101, volume=20),
    ]
    frame = series.to_pandas(tz="Asia/Kolkata")
    assert [t.strftime("%H:%M %z") for t in frame.index] == ["09:15 +0530", "09:16 +0530"]
    assert frame["close"].tolist() == [103, 101] and frame["volume"].tolist() == [25, 20]


def test_backtest_clock_hides_the_future(client: mdc.Client) -> None:
    day = date(2025, 1, 9)
    for minute in (0, 10, 20):
        client.save_quotes(ist(day, 10, minute), {"SBIN": quote(800 + minute, 1)})
        client.save_shortlist(ist(day, 10, minute), "TOP_GAINERS",
                              [{"nse_symbol": "SBIN", "price": 800 + minute}])

    with client.backtest_clock(ist(day, 10, 15), run_id="pytest-clock"):
        assert client.shortlist("TOP_GAINERS").entries[0].price == 810  # "now" is the clock
        seen = client.quote_timeline("SBIN", end=ist(day, 15, 0))
        assert [q.payload.last_price for q in seen] == [800, 810]
        with pytest.raises(mdc.PermissionDenied) as caught:
            client.quote("SBIN", as_of=ist(day, 10, 20))
        with client.backtest_clock(ist(day, 10, 5)):  # blocks nest
            assert client.quote("SBIN").payload.last_price == 800

    assert caught.value.status == 403
    assert caught.value.code == "PERMISSION_DENIED"
    # Outside the block the clock is gone again.
    assert client.quote("SBIN", as_of=ist(day, 10, 20)).payload.last_price == 820


def test_a_bad_request_carries_the_field_violations(client: mdc.Client) -> None:
    with pytest.raises(mdc.MdcError) as caught:
        client.save_shortlist(
            ist(date(2025, 1, 10), 10, 0),
            "TOP_GAINERS",
            [{"nse_symbol": "RELIANCE", "price": 1}, {"nse_symbol": "NOT A SYMBOL!", "price": -5}],
        )
    error = caught.value
    assert isinstance(error, mdc.InvalidArgument)
    assert error.status == 400
    assert error.code == "INVALID_ARGUMENT"
    assert error.attempts == 1
    fields = error.fields
    assert "data.entries[1].nseSymbol" in fields, error.field_violations
    assert "data.entries[1].price" in fields, error.field_violations
    assert all(description for description in fields.values())


def test_timeline_start_after_end_is_refused_by_the_server(client: mdc.Client) -> None:
    day = date(2025, 1, 10)
    with pytest.raises(mdc.MdcError) as caught:
        client.quote_timeline("TCS", start=ist(day, 12, 0), end=ist(day, 11, 0))
    assert caught.value.http_status == 400
    assert "start_datetime" in caught.value.fields


def test_a_bad_token_is_401(stack: Stack) -> None:
    with mdc.Client(stack.base_url, "mdc_not-a-token", retries=0) as stranger:
        with pytest.raises(mdc.Unauthenticated) as caught:
            stranger.quote("TCS")
    assert caught.value.http_status == 401
    assert caught.value.code == "UNAUTHENTICATED"


def test_a_developer_token_on_an_admin_route_is_403(client: mdc.Client) -> None:
    with pytest.raises(mdc.MdcError) as caught:
        client.create_developer("not-allowed")
    assert caught.value.http_status == 403


def test_holidays(admin: mdc.Client, client: mdc.Client) -> None:
    from mdc.v1 import admin_pb2

    admin.call(
        "AdminService.CreateHolidays",
        admin_pb2.CreateHolidaysRequest(
            holidays=[market_pb2.Holiday(date="2031-03-14", name="Holi")], dates=["2031-10-02"]
        ),
    )
    assert client.holidays(2031) == [
        mdc.Holiday(date=date(2031, 3, 14), name="Holi", session_open=None, session_close=None),
        mdc.Holiday(date=date(2031, 10, 2), name="", session_open=None, session_close=None),
    ]
    check = client.check_holiday(date(2031, 3, 14))
    assert check == mdc.HolidayCheck(date=date(2031, 3, 14), is_holiday=True, name="Holi", is_trading_day=False)


def test_any_paged_list_lazily(admin: mdc.Client, developer_token: str) -> None:
    from mdc.v1 import admin_pb2

    request = admin_pb2.ListDevelopersRequest(page_size=1)  # a page per developer
    usernames = [d.username for d in admin.paginate("AdminService.ListDevelopers", request, "developers")]
    assert len(usernames) >= 2 and len(set(usernames)) == len(usernames)


def test_any_rpc_by_name(client: mdc.Client) -> None:
    day = date(2025, 1, 13)
    client.save_shortlist(ist(day, 12, 0), "TOP_GAINERS", [{"nse_symbol": "ITC", "price": 450}])
    answer = client.call(
        "DeveloperService.GetList",
        developer_pb2.GetListRequest(type="TOP_GAINERS", datetime="2025-01-13T12:00:00", timezone="asia/kolkata"),
    )
    assert isinstance(answer, market_pb2.Shortlist)
    assert answer.entries[0].nse_symbol == "ITC"
    assert client.snapshot_times(day) == [ist(day, 12, 0).astimezone(UTC)]
    with pytest.raises(mdc.InvalidArgument) as caught:
        client.call("DeveloperService.NoSuchMethod", developer_pb2.GetListRequest())
    assert "no method 'NoSuchMethod'" in caught.value.fields["method"]

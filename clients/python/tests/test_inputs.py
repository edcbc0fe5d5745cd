"""What the client refuses before sending, and what it sends (against a
scripted stub server): every refusal is an mdc.InvalidArgument naming the
field as the server's own 400 would (its wire path), with no request made;
records and dicts send the same JSON."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from datetime import UTC, date, datetime
from typing import Any

import pytest

import mdc
from stub_server import Reply, Stub, stub_server

AT = datetime(2025, 1, 2, 10, 0, tzinfo=UTC)


@pytest.fixture
def stub() -> Iterator[Stub]:
    with stub_server(Reply(200, {})) as running:
        yield running


@pytest.fixture
def client(stub: Stub) -> Iterator[mdc.Client]:
    with mdc.Client(stub.base_url, "mdc_token", retries=0) as c:
        yield c


def untyped(value: object) -> Any:
    """A value as code without type checks would pass it."""
    return value


# What mypy flags statically (tests/typing/misuse.py), refused at run time too.
REFUSED: list[tuple[str, Callable[[mdc.Client], object], str, str]] = [
    ("misspelled payload key",
     lambda c: c.save_quotes(AT, {"INFY": {"status": "SUCCESS", "payload": {"last_price": 2}},
                                  "TCS": untyped({"status": "SUCCESS", "payload": {"lastPrice": 1}})}),
     "data.quotes[1].quoteData.payload.lastPrice", "unknown key 'lastPrice' of QuotePayload; did you mean 'last_price'?"),
    ("misspelled payload key, no camelCase", lambda c: c.save_nifty(AT, untyped({"status": "SUCCESS", "payload": {
        "last_price": 1, "volumee": 2}}), 0.1),
     "data.quoteData.payload.volumee", "did you mean 'volume'?"),
    ("an abbreviated key", lambda c: c.save_nifty(AT, untyped({"status": "SUCCESS", "payload": {
        "last_price": 1, "depth": {"buy": [{"price": 1, "qty": 2}]}}}), 0.1),
     "data.quoteData.payload.depth.buy[0].qty", "did you mean 'quantity'?"),
    ("camelCase entry key", lambda c: c.save_shortlist(AT, "TOP_GAINERS", [untyped({"nseSymbol": "TCS", "price": 1})]),
     "data.entries[0].nseSymbol", "did you mean 'nse_symbol'?"),
    ("unknown enum name", lambda c: c.save_shortlist(AT, untyped("TOP_LOSERS"), []),
     "data.shortlistType", "expected one of TOP_GAINERS, VOLUME_SHOCKERS, got 'TOP_LOSERS'"),
    ("unknown status", lambda c: c.save_nifty(AT, untyped({"status": "OK"}), 0.5),
     "data.quoteData.status", "expected one of SUCCESS, FAILURE"),
    ("a number as text",
     lambda c: c.save_quotes(AT, {"TCS": untyped({"status": "SUCCESS", "payload": {"last_price": "12a"}})}),
     "data.quotes[0].quoteData.payload.last_price", "expected a number, got str '12a'"),
    ("a bool as a number", lambda c: c.save_nifty(AT, {"status": "SUCCESS", "payload": {"last_price": 1}}, True),
     "data.dayChangePerc", "expected a number, got bool"),
    ("a naive time of a write", lambda c: c.save_quotes(datetime(2025, 1, 2, 10, 0), {}),
     "data.timestamp", "(argument at) naive datetime"),
    ("naive datetime", lambda c: c.quote("TCS", as_of=datetime(2025, 1, 2, 10, 0)),
     "datetime", "(argument as_of) naive datetime 2025-01-02T10:00:00 refused"),
    ("a datetime for a day", lambda c: c.replay_day(AT),
     "date", "(argument trading_day) expected a datetime.date"),
    ("a string for a list", lambda c: c.watch_quotes("TCS"),
     "symbols", "expected a list of strings"),
    ("a symbol that is no string", lambda c: c.quote(untyped(42)),
     "symbol", "expected a string, got int 42"),
    ("a page size out of range", lambda c: c.runs(page_size=2**40),
     "pageSize", "out of range"),
    ("a non-positive idle timeout", lambda c: c.watch_nifty(idle_timeout=0),
     "idle_timeout", "must be > 0"),
    ("an entry that is neither", lambda c: c.save_shortlist(AT, "TOP_GAINERS", [untyped("TCS")]),
     "data.entries[0]", "expected a dict or a record of ShortlistEntry, got str"),
    ("quotes that are no dict",
     lambda c: c.save_quotes(AT, untyped([("TCS", {"status": "SUCCESS", "payload": {"last_price": 1}})])),
     "data.quotes", "expected a dict of symbol to quote"),
    ("a bad backtest clock", lambda c: c.backtest_clock(untyped("2025-01-02T10:00:00")).__enter__(),
     "X-Current-Timestamp", "(argument now) expected a timezone-aware datetime, got str"),
]


@pytest.mark.parametrize(("case", "call", "field", "says"), REFUSED, ids=[r[0] for r in REFUSED])
def test_bad_arguments_are_refused_before_sending(
    case: str, call: Callable[[mdc.Client], object], field: str, says: str, client: mdc.Client, stub: Stub
) -> None:
    with pytest.raises(mdc.InvalidArgument) as caught:
        call(client)
    error = caught.value
    assert (error.status, error.code, error.attempts) == (None, "INVALID_ARGUMENT", 0)
    assert list(error.fields) == [field], error.fields
    assert says in error.fields[field]
    assert stub.received == []


def test_the_client_options_are_checked_too() -> None:
    for options, field in [({"timeout": 0}, "timeout"), ({"timeout": "10"}, "timeout"), ({"retries": -1}, "retries"),
                           ({"retries": "3"}, "retries"), ({"backoff": None}, "backoff"),
                           ({"ca_file": "/no/such/ca.pem"}, "ca_file")]:
        with pytest.raises(mdc.InvalidArgument) as caught:
            mdc.Client("http://127.0.0.1:1", None, **options)  # type: ignore[arg-type]
        assert list(caught.value.fields) == [field]
    with mdc.Client("127.0.0.1:1", None, retries=0) as no_scheme, pytest.raises(mdc.InvalidArgument) as caught:
        no_scheme.health()
    assert list(caught.value.fields) == ["base_url"]


def test_the_low_level_checks_its_arguments_too(client: mdc.Client, stub: Stub) -> None:
    from mdc.v1 import admin_pb2, developer_pb2

    cases: list[tuple[Callable[[], object], str]] = [
        (lambda: client.call("DeveloperService.GetQuote", untyped({"symbol": "TCS"})), "request"),
        (lambda: client.call("DeveloperService.GetQuote", developer_pb2.GetNiftyRequest()), "request"),
        (lambda: client.call("DeveloperService.Nothing", developer_pb2.GetNiftyRequest()), "method"),
        (lambda: client.paginate("AdminService.ListDevelopers", admin_pb2.ListDevelopersRequest(), "runs"), "items"),
        (lambda: mdc.Client(untyped(None), "mdc_token"), "base_url"),
    ]
    for call, field in cases:
        with pytest.raises(mdc.InvalidArgument) as caught:
            call()
        assert list(caught.value.fields) == [field]
    assert stub.received == []


def sent_body(stub: Stub) -> Any:
    return json.loads(stub.received[-1].body)


def test_records_and_dicts_send_the_same_json(client: mdc.Client, stub: Stub) -> None:
    as_dict: mdc.QuoteDataDict = {
        "status": "SUCCESS",
        "payload": {"last_price": 10, "volume": None, "ohlc": {"open": 9},
                    "depth": {"buy": [{"price": 9.9, "quantity": 5}]}},
    }
    client.save_quotes(AT, {"M&M": as_dict})
    from_dict = sent_body(stub)
    record = mdc.QuoteData(status="SUCCESS", payload=mdc.QuotePayload(
        last_price=10, ohlc=mdc.Ohlc(open=9),
        depth=mdc.Depth(buy=mdc.Records(mdc.DepthLevel, [mdc.DepthLevel(price=9.9, quantity=5)]))))
    client.save_quotes(AT, {"M&M": record})
    assert sent_body(stub) == from_dict == {"data": {
        "timestamp": "2025-01-02T10:00:00", "timezone": "UTC",
        "quotes": [{"nseSymbol": "M&M", "quoteData": {"status": "SUCCESS", "payload": {
            "last_price": 10.0, "ohlc": {"open": 9.0}, "depth": {"buy": [{"price": 9.9, "quantity": 5.0}]}}}}],
    }}


def test_an_empty_shortlist_and_empty_payload_are_sent(client: mdc.Client, stub: Stub) -> None:
    client.save_shortlist(AT, "VOLUME_SHOCKERS", [], scope="FULL")
    assert sent_body(stub)["data"]["entries"] == [] and sent_body(stub)["data"]["scope"] == "FULL"
    client.save_nifty(AT, {"status": "FAILURE", "payload": {}}, 0)
    assert sent_body(stub)["data"]["quoteData"] == {"status": "FAILURE", "payload": {}}
    assert sent_body(stub)["data"]["dayChangePerc"] == 0.0


def test_reads_send_utc_wall_clocks_and_days(client: mdc.Client, stub: Stub) -> None:
    assert client.candles("TCS", "5minute", start=AT, end=datetime(2025, 1, 2, 15, 30, tzinfo=mdc.IST)).candles == []
    assert stub.received[-1].path == (
        "/v1/developer/historical-candles?symbol=TCS&interval=5minute&startDatetime=2025-01-02T10%3A00%3A00"
        "&endDatetime=2025-01-02T10%3A00%3A00&timezone=UTC")
    with pytest.raises(mdc.MdcError) as caught:  # the stub's {} has no date: a malformed answer
        client.check_holiday(date(2031, 3, 14))
    assert caught.value.code == "UNKNOWN" and caught.value.status == 200
    assert stub.received[-1].path == "/v1/developer/collector/check-holiday?date=2031-03-14"

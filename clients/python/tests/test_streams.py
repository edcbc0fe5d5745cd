"""Watches and day replay (docs/api.md section 10) through the real gateway
and server: the client's iterators over the NDJSON stream routes.

Each test writes symbols and days of its own, so the session's other tests
(and their writes) do not disturb it.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import date, datetime

import pytest

import mdc
from mdc_stack import WATCH_HEARTBEAT, Stack
from tcp_proxy import BlackHoleProxy

IST = mdc.IST


def symbol(prefix: str) -> str:
    return prefix + secrets.token_hex(3).upper()


def unique_day() -> date:
    """A day of its own, far from the other tests' days."""
    return date.fromordinal(date(2041, 1, 1).toordinal() + secrets.randbelow(7000))


def ist(day: date, hh: int, mm: int) -> datetime:
    return datetime(day.year, day.month, day.day, hh, mm, tzinfo=IST)


def quote(price: float) -> mdc.QuoteDataDict:
    return {"status": "SUCCESS", "payload": {"last_price": price}}


def key(event: mdc.MarketEvent) -> str:
    """The record an event carries, e.g. "Q TCS 09:15" (IST)."""
    at = event.timestamp.astimezone(IST).strftime("%H:%M")
    if event.quote is not None:
        return f"Q {event.quote.nse_symbol} {at}"
    if event.nifty is not None:
        return f"N {at}"
    if event.shortlist is not None:
        return f"S {event.shortlist.shortlist_type} {event.shortlist.scope} {at}"
    return "?"


def take(events: Iterator[mdc.MarketEvent], n: int) -> list[mdc.MarketEvent]:
    return [next(events) for _ in range(n)]


def test_a_watch_receives_a_write_made_after_it_opened(client: mdc.Client) -> None:
    day, sym = unique_day(), symbol("W")
    with client.watch_quotes([sym, "NOT" + sym]) as watch:
        opened_at = watch.cursor
        assert opened_at  # the first message says where the watch stands
        client.save_quotes(ist(day, 9, 15), {sym: quote(101.5), symbol("X"): quote(1)})
        event = next(watch)
        assert key(event) == f"Q {sym} 09:15" and event.kind == "quote"
        assert event.quote is not None and event.quote.payload.last_price == 101.5
        assert watch.cursor == event.cursor != opened_at


def test_a_watch_resumed_from_a_cursor_misses_nothing(client: mdc.Client) -> None:
    day, sym = unique_day(), symbol("R")
    with client.watch_quotes([sym]) as first:
        client.save_quotes(ist(day, 9, 15), {sym: quote(1)})
        assert key(next(first)) == f"Q {sym} 09:15"
        cursor = first.cursor
    # While nobody watches: two new quotes, and the first one replaced.
    client.save_quotes(ist(day, 9, 16), {sym: quote(2)})
    client.save_quotes(ist(day, 9, 17), {sym: quote(3)})
    client.save_quotes(ist(day, 9, 15), {sym: quote(4)})

    with client.watch_quotes([sym], cursor=cursor) as resumed:
        missed = take(resumed, 3)
        client.save_quotes(ist(day, 9, 18), {sym: quote(5)})
        live = next(resumed)
    assert [key(e) for e in [*missed, live]] == [f"Q {sym} 09:{m}" for m in ("16", "17", "15", "18")]
    assert missed[2].quote is not None and missed[2].quote.payload.last_price == 4  # the latest version


def test_a_watch_cut_by_a_server_restart_resumes_by_itself(stack: Stack, developer_token: str) -> None:
    day, sym = unique_day(), symbol("S")
    # Patient enough to outlast the server's restart.
    with mdc.Client(stack.base_url, developer_token, retries=20, backoff=0.1, max_backoff=1.0) as client:
        watch = client.watch_quotes([sym])
        broken = client.watch_quotes([sym], resume=False)
        client.save_quotes(ist(day, 10, 0), {sym: quote(1)})
        assert key(next(watch)) == key(next(broken)) == f"Q {sym} 10:00"

        # The server shuts down (its watches end 503 UNAVAILABLE) and comes
        # back; the quotes written meanwhile, before either iterator reads
        # on, reach the resuming one from the database.
        try:
            stack.stop_server()
        finally:
            stack.start_server()
        client.save_quotes(ist(day, 10, 1), {sym: quote(2)})
        client.save_quotes(ist(day, 10, 2), {sym: quote(3)})
        with watch:
            assert [key(e) for e in take(watch, 2)] == [f"Q {sym} 10:01", f"Q {sym} 10:02"]
            client.save_quotes(ist(day, 10, 3), {sym: quote(4)})
            assert key(next(watch)) == f"Q {sym} 10:03"

        # Without resume, the error that ended the stream is raised.
        with broken, pytest.raises(mdc.Unavailable) as caught:
            next(broken)
        assert caught.value.code == "UNAVAILABLE"
        assert caught.value.http_status == 503
        assert "shutting down" in caught.value.message


def test_a_watch_whose_connection_dies_silently_reconnects_after_its_idle_timeout(
    stack: Stack, developer_token: str, client: mdc.Client
) -> None:
    """A proxy between the client and the gateway black-holes the watch's
    connection (no reset, no error: nothing). Only the idle timeout can
    notice; the watch then reconnects through the proxy from its cursor and
    gets what was written meanwhile, once each."""
    day, sym = unique_day(), symbol("H")
    idle_timeout = 2.0 * WATCH_HEARTBEAT  # heartbeats keep a healthy watch under it
    # Left in reverse order: the proxy closes before the reader thread is
    # joined, so a reader still blocked wakes up.
    with ThreadPoolExecutor(1) as reader, BlackHoleProxy(stack.http_addr) as proxy, mdc.Client(
        f"http://{proxy.addr}", developer_token, retries=5, backoff=0.1, max_backoff=0.5
    ) as proxied:
        watch = proxied.watch_quotes([sym], idle_timeout=idle_timeout)
        fragile = proxied.watch_quotes([sym], idle_timeout=idle_timeout, resume=False)
        with watch, fragile:
            client.save_quotes(ist(day, 11, 0), {sym: quote(1)})  # writes bypass the proxy
            assert key(next(watch)) == key(next(fragile)) == f"Q {sym} 11:00"

            proxy.black_hole()
            accepted = proxy.accepted
            client.save_quotes(ist(day, 11, 1), {sym: quote(2)})
            client.save_quotes(ist(day, 11, 2), {sym: quote(3)})
            # In a thread, so a watch blocked for ever fails the test instead
            # of hanging it (closing the proxy wakes the reader).
            missed = reader.submit(take, watch, 2).result(timeout=60)
            assert [key(e) for e in missed] == [f"Q {sym} 11:01", f"Q {sym} 11:02"]
            assert proxy.accepted > accepted  # a new connection, through the proxy
            client.save_quotes(ist(day, 11, 3), {sym: quote(4)})
            assert key(reader.submit(next, watch).result(timeout=60)) == f"Q {sym} 11:03"

            # Without resume, the silence is the error that ends the stream.
            with pytest.raises(mdc.MdcError) as caught:
                reader.submit(next, fragile).result(timeout=60)
            assert caught.value.code == "UNAVAILABLE" and caught.value.http_status is None
            assert "no message for" in caught.value.message


def test_replay_yields_the_day_in_order_and_resumes(client: mdc.Client) -> None:
    day = unique_day()
    a, b = sorted([symbol("RA"), symbol("RB")])
    for hh, mm in ((9, 15), (10, 0)):
        client.save_quotes(ist(day, hh, mm), {b: quote(2), a: quote(1)})
        client.save_nifty(ist(day, hh, mm), quote(22000), 0.5)
    client.save_shortlist(ist(day, 9, 15), "TOP_GAINERS", [{"nse_symbol": a, "name": "A", "price": 1}])
    want = [
        "N 09:15", f"Q {a} 09:15", f"Q {b} 09:15", "S TOP_GAINERS TOP_5 09:15",
        "N 10:00", f"Q {a} 10:00", f"Q {b} 10:00",
    ]

    events = list(client.replay_day(day, symbols=[a, b]))
    assert [key(e) for e in events] == want
    # From each event's cursor: exactly the rest.
    for i, event in enumerate(events):
        rest = client.replay_day(day, symbols=[a, b], cursor=event.cursor)
        assert [key(e) for e in rest] == want[i + 1 :]
    # Kinds select; the backtest clock cuts the day.
    assert [key(e) for e in client.replay_day(day, kinds=["nifty"])] == ["N 09:15", "N 10:00"]
    with client.backtest_clock(ist(day, 10, 0)):
        assert [key(e) for e in client.replay_day(day, symbols=[a, b])] == want[:4]
    # A day without records: an iterator without events.
    assert list(client.replay_day(date(1990, 1, 1))) == []
    # A replay as a table: one row per event, the kinds' columns side by side.
    frame = client.replay_day(day, symbols=[a, b]).to_pandas(tz="Asia/Kolkata")
    assert frame["kind"].tolist() == ["nifty", "quote", "quote", "shortlist", "nifty", "quote", "quote"]
    assert frame["nse_symbol"].tolist()[1:3] == [a, b] and frame["last_price"].tolist()[:3] == [22000, 1, 2]
    assert frame["day_change_perc"].tolist()[0] == 0.5 and frame["shortlist_type"].tolist()[3] == "TOP_GAINERS"
    assert [t.strftime("%H:%M") for t in frame.index] == ["09:15"] * 4 + ["10:00"] * 3
    with client.watch_nifty() as watch, pytest.raises(mdc.FailedPrecondition):
        watch.to_records()  # a watch never ends


def test_bad_requests_and_tokens_are_mdc_errors(stack: Stack, client: mdc.Client) -> None:
    with mdc.Client(stack.base_url, "mdc_" + secrets.token_hex(20)) as stranger, pytest.raises(mdc.MdcError) as caught:
        stranger.watch_nifty()
    assert isinstance(caught.value, mdc.Unauthenticated)
    assert (caught.value.http_status, caught.value.code) == (401, "UNAUTHENTICATED")

    with pytest.raises(mdc.MdcError) as caught:
        client.watch_quotes(["NOT A SYMBOL"])
    assert caught.value.http_status == 400
    assert any(field.startswith("symbols") for field in caught.value.fields)

    with pytest.raises(mdc.MdcError) as caught:
        client.replay_day(date(2024, 1, 2), cursor="not-a-cursor")
    assert caught.value.http_status == 400 and "cursor" in caught.value.fields

    # A watch is live: with the backtest clock set it is refused.
    with client.backtest_clock(ist(date(2024, 1, 2), 10, 0)), pytest.raises(mdc.MdcError) as caught:
        client.watch_nifty()
    assert (caught.value.http_status, caught.value.code) == (412, "FAILED_PRECONDITION")

"""mdc.AsyncClient: the same calls through the real gateway and server from
asyncio code (each test runs its own event loop), and the same retries
against the scripted stub."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable
from datetime import date, datetime

import pytest

import answers
import mdc
from mdc_stack import Stack
from stub_server import Reply, stub_server

IST = mdc.IST


def ist(day: date, hh: int, mm: int) -> datetime:
    return datetime(day.year, day.month, day.day, hh, mm, tzinfo=IST)


def run(stack: Stack, token: str, test: Callable[[mdc.AsyncClient], Awaitable[None]]) -> None:
    async def main() -> None:
        async with mdc.AsyncClient(stack.base_url, token) as client:
            await test(client)

    asyncio.run(main())


def test_writes_reads_and_tables(stack: Stack, developer_token: str) -> None:
    day, sym = date(2025, 4, 1), "A" + secrets.token_hex(3).upper()

    async def test(client: mdc.AsyncClient) -> None:
        await asyncio.gather(*(
            client.save_quotes(ist(day, 9, 15 + i), {sym: {"status": "SUCCESS",
                                                          "payload": {"last_price": 100 + i, "volume": None}}})
            for i in range(3)
        ))
        timeline = await client.quote_timeline(sym, start=ist(day, 9, 0), end=ist(day, 10, 0), page_size=2)
        assert [q.payload.last_price for q in timeline] == [100, 101, 102]
        frame = timeline.to_pandas(tz="Asia/Kolkata")
        assert frame["volume"].isna().all() and frame.index[0] == ist(day, 9, 15)
        series = await client.candles(sym, "1hour", start=ist(day, 9, 0), end=ist(day, 10, 0))
        assert [(c.open, c.close) for c in series.candles] == [(100, 102)]
        quote = await client.quote(sym, as_of=ist(day, 9, 16))
        assert quote.payload.last_price == 101
        with client.backtest_clock(ist(day, 9, 16)):  # the clock of this task
            assert (await client.quote(sym)).payload.last_price == 100
            with pytest.raises(mdc.PermissionDenied):
                await client.quote(sym, as_of=ist(day, 9, 17))
        with pytest.raises(mdc.NotFound):
            await client.quote(sym, as_of=ist(day, 9, 0))
        with pytest.raises(mdc.InvalidArgument) as caught:
            await client.quote(sym, as_of=datetime(2025, 4, 1, 9, 0))
        assert caught.value.attempts == 0

    run(stack, developer_token, test)


def test_runs_and_orders(stack: Stack, developer_token: str) -> None:
    day = date(2025, 4, 2)

    async def test(client: mdc.AsyncClient) -> None:
        run_ = await client.create_run(ist(day, 9, 15), ist(day, 15, 30), name="async", tags=["pytest-async"])
        assert (await client.update_run(run_.id, completed=True)).completed
        assert run_.id in [r.id for r in await client.runs(tag="pytest-async")]
        assert await client.orders(run_.id) == []
        await client.delete_run(run_.id)
        with pytest.raises(mdc.NotFound):
            await client.delete_run(run_.id)

    run(stack, developer_token, test)


def test_a_watch_and_a_replay(stack: Stack, developer_token: str) -> None:
    day, sym = date(2041, 6, 3), "W" + secrets.token_hex(3).upper()

    async def test(client: mdc.AsyncClient) -> None:
        async with await client.watch_quotes([sym]) as watch:
            assert watch.cursor  # live
            await client.save_quotes(ist(day, 9, 15), {sym: {"status": "SUCCESS", "payload": {"last_price": 1}}})
            event = await anext(watch)
            assert event.kind == "quote" and event.quote is not None and event.quote.nse_symbol == sym
            assert watch.cursor == event.cursor
        await client.save_nifty(ist(day, 9, 15), {"status": "FAILURE"}, 0.1)
        replayed = [e.kind async for e in await client.replay_day(day, symbols=[sym])]
        assert replayed == ["nifty", "quote"]
        frame = await (await client.replay_day(day, symbols=[sym])).to_pandas()
        assert frame["kind"].tolist() == ["nifty", "quote"]
        with pytest.raises(mdc.InvalidArgument):
            await client.watch_quotes(["NOT A SYMBOL"])

    run(stack, developer_token, test)


def test_the_async_transport_retries_as_the_blocking_one() -> None:
    unavailable = Reply(503, {"code": 14, "message": "the server is not reachable"})
    slow = Reply(200, {}, hold=True)

    async def main() -> None:
        with stub_server(unavailable, unavailable, Reply(200, answers.QUOTE)) as stub:
            async with mdc.AsyncClient(stub.base_url, "mdc_token", backoff=0.01, max_backoff=0.02) as client:
                assert (await client.quote("TCS")).payload.last_price == 3521.5
            assert len(stub.received) == 3
        with stub_server(slow) as stub:
            async with mdc.AsyncClient(stub.base_url, "mdc_token", timeout=0.15, retries=2, backoff=0.01) as client:
                with pytest.raises(mdc.DeadlineExceeded) as caught:
                    await client.delete_run("7")  # its answer may be lost after it landed: once
            assert caught.value.attempts == 1 and len(stub.received) == 1

    asyncio.run(main())

"""mdc.EventStream on its own: scripted stream answers (NDJSON bodies), no
server. What it yields, where its cursor stands and when it gives up; the
stack tests (test_streams.py) cover the real streams."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime

import httpx
import pytest

import mdc
from mdc.streams import resumable
from mdc.transport import RetryPolicy

RETRY_ONCE = RetryPolicy(retries=1, initial_backoff=0, max_backoff=0)


def message(cursor: str, *event_cursors: str) -> dict[str, object]:
    """One stream line: events (NIFTY quotes) with those cursors, or none (a
    watch's first message, a heartbeat)."""
    nifty = {"timestamp": "2025-01-02T04:45:00Z", "quoteData": {"status": "FAILURE"}}
    events = [{"cursor": c, "nifty": nifty} for c in event_cursors]
    return {"result": {"events": events, "cursor": cursor}}


class SilentAfter(httpx.SyncByteStream):
    """A body that sends its lines, then hits the read timeout (as httpx does
    when nothing arrives for the stream's idle timeout)."""

    def __init__(self, lines: list[dict[str, object]]) -> None:
        self._lines = lines

    def __iter__(self) -> Iterator[bytes]:
        for line in self._lines:
            yield (json.dumps(line) + "\n").encode()
        raise httpx.ReadTimeout("timed out")


class Script:
    """An opener whose n-th call answers the n-th body and records the cursor
    it was called with."""

    def __init__(self, *bodies: list[dict[str, object]] | SilentAfter) -> None:
        self._bodies: Iterator[list[dict[str, object]] | SilentAfter] = iter(bodies)
        self.cursors: list[str | None] = []

    def __call__(self, cursor: str | None) -> httpx.Response:
        self.cursors.append(cursor)
        body = next(self._bodies)
        if isinstance(body, SilentAfter):
            return httpx.Response(200, stream=body)
        return httpx.Response(200, content="".join(json.dumps(line) + "\n" for line in body).encode())


def test_messages_without_events_move_the_cursor_and_yield_nothing() -> None:
    script = Script([message("7.1"), message("7.2"), message("8.1", "8.1"), message("9.4")])
    stream = mdc.EventStream(script, cursor=None, ends=False, retry=None)
    assert stream.cursor == "7.1"  # the first message: live
    event = next(stream)  # the heartbeat 7.2 is read, not yielded
    assert event.cursor == "8.1" and event.kind == "nifty"
    assert event.nifty == mdc.NiftyQuote(timestamp=datetime(2025, 1, 2, 4, 45, tzinfo=UTC),
                                         quote_data=mdc.QuoteData(status="FAILURE"), day_change_perc=None)
    assert stream.cursor == "8.1"
    with pytest.raises(mdc.MdcError) as caught:  # the heartbeat 9.4, then the body ends: cut
        next(stream)
    assert caught.value.code == "UNAVAILABLE"
    assert stream.cursor == "9.4"


def test_a_silent_connection_is_resumed_like_a_cut_one() -> None:
    script = Script(SilentAfter([message("7.1"), message("7.2")]), [message("7.2"), message("8.1", "8.1")])
    stream = mdc.EventStream(script, cursor=None, ends=False, retry=RETRY_ONCE, idle_timeout=2.0, sleep=lambda _: None)
    assert next(stream).cursor == "8.1"
    assert script.cursors == [None, "7.2"]

    # Without resuming, the silence is the error; before the first message, the call's.
    stream = mdc.EventStream(Script(SilentAfter([message("7.1")])), cursor=None, ends=False, retry=None, idle_timeout=2.0)
    with pytest.raises(mdc.MdcError) as caught:
        next(stream)
    assert (caught.value.code, caught.value.http_status) == ("UNAVAILABLE", None)
    assert "no message for 2.0 s" in caught.value.message
    with pytest.raises(mdc.MdcError) as caught:
        mdc.EventStream(Script(SilentAfter([])), cursor=None, ends=False, retry=None, idle_timeout=2.0)
    assert (caught.value.code, caught.value.http_status) == ("UNAVAILABLE", None)


def test_a_watch_cut_after_a_heartbeat_resumes_from_the_heartbeats_cursor() -> None:
    script = Script([message("7.1"), message("7.2")], [message("7.2"), message("8.1", "8.1")])
    stream = mdc.EventStream(script, cursor=None, ends=False, retry=RETRY_ONCE, sleep=lambda _: None)
    assert next(stream).cursor == "8.1"
    assert script.cursors == [None, "7.2"]


def test_a_connection_that_carried_a_heartbeat_was_progress() -> None:
    # Each connection: its first message, a heartbeat (the cursor stays), then
    # cut. A break after a heartbeat does not count against the budget...
    lived = [message("5.0"), message("5.0")]
    script = Script(lived, lived, lived, lived, [message("5.0"), message("6.0", "6.0")])
    stream = mdc.EventStream(script, cursor=None, ends=False, retry=RETRY_ONCE, sleep=lambda _: None)
    assert next(stream).cursor == "6.0"
    assert script.cursors == [None, "5.0", "5.0", "5.0", "5.0"]

    # ... while connections that only open and break do.
    script = Script(lived, [message("5.0")], [message("5.0"), message("6.0", "6.0")])
    stream = mdc.EventStream(script, cursor=None, ends=False, retry=RETRY_ONCE, sleep=lambda _: None)
    with pytest.raises(mdc.MdcError) as caught:
        next(stream)
    assert caught.value.code == "UNAVAILABLE"
    assert script.cursors == [None, "5.0"]


def test_what_resuming_repairs() -> None:
    def error(code: str, http_status: int | None, reason: str | None = None) -> mdc.MdcError:
        return mdc.MdcError("x", http_status=http_status, code=code, reason=reason)

    assert resumable(error("UNAVAILABLE", 503))  # a server shutting down, a database outage
    assert resumable(error("UNAVAILABLE", None))  # a connection cut, or silent past the idle timeout
    assert resumable(error("DEADLINE_EXCEEDED", None))  # no answer at all in time: as good as lost
    assert resumable(error("RESOURCE_EXHAUSTED", 429, "WATCHER_FELL_BEHIND"))
    assert not resumable(error("DEADLINE_EXCEEDED", 504))  # the server answered: its deadline passed
    assert not resumable(error("RESOURCE_EXHAUSTED", 429, "RATE_LIMITED"))
    assert not resumable(error("INVALID_ARGUMENT", 400))

"""How the transport treats the server's per-developer rate limit: a 429
with ``Retry-After`` (reason ``RATE_LIMITED``) is waited out and sent again,
a 429 without it is final, and a wait longer than ``MAX_RETRY_AFTER`` is
left to the caller. Against a scripted local HTTP server; the sleeps are
recorded instead of waited."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

import answers
import mdc
from mdc.transport import MAX_RETRY_AFTER, may_retry_answer
from stub_server import Reply, stub_server


def rate_limited(seconds: str | None) -> Reply:
    body = {
        "code": 8,
        "message": "too many reads: a developer may make 5 per second (bursts of 5); retry after 200ms",
        "details": [
            {"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "RATE_LIMITED",
             "domain": "mdc.v1", "metadata": {"limit": "reads"}},
            {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "0.200s"},
        ],
    }
    return Reply(429, body, headers={} if seconds is None else {"Retry-After": seconds})


QUOTE = Reply(200, answers.QUOTE)


def recording_client(base_url: str, sleeps: list[float], retries: int = 3) -> mdc.Client:
    client = mdc.Client(base_url, "mdc_token", retries=retries, backoff=0.01, max_backoff=0.05, timeout=5.0)
    client._transport._sleep = sleeps.append
    return client


def test_a_429_with_retry_after_is_waited_out_and_sent_again() -> None:
    sleeps: list[float] = []
    with stub_server(rate_limited("1"), rate_limited("2"), QUOTE) as stub, recording_client(stub.base_url, sleeps) as client:
        got = client.quote("TCS")
    assert got.nse_symbol == "TCS"
    assert len(stub.received) == 3
    assert sleeps == [1.0, 2.0]  # no sooner than Retry-After


def test_a_rate_limited_write_is_sent_again_too() -> None:
    # Refused before anything was done, so even a create may be sent again.
    sleeps: list[float] = []
    with stub_server(rate_limited("1"), Reply(200, answers.RUN)) as stub, recording_client(stub.base_url, sleeps) as client:
        moment = datetime(2025, 1, 2, 10, 0, tzinfo=UTC)
        assert client.create_run(moment, moment).id == "7"
    assert len(stub.received) == 2 and sleeps == [1.0]


def test_past_the_retries_the_429_is_raised_with_its_reason_and_retry_after() -> None:
    sleeps: list[float] = []
    with stub_server(rate_limited("3")) as stub, recording_client(stub.base_url, sleeps, retries=2) as client:
        with pytest.raises(mdc.ResourceExhausted) as caught:
            client.quote("TCS")
    error = caught.value
    assert (error.http_status, error.code, error.reason) == (429, "RESOURCE_EXHAUSTED", "RATE_LIMITED")
    assert error.retry_after == 3.0 and error.attempts == 3
    assert len(stub.received) == 3 and sleeps == [3.0, 3.0]


def test_a_429_without_retry_after_is_final() -> None:
    sleeps: list[float] = []
    with stub_server(rate_limited(None), QUOTE) as stub, recording_client(stub.base_url, sleeps) as client:
        with pytest.raises(mdc.MdcError) as caught:
            client.quote("TCS")
    assert len(stub.received) == 1 and sleeps == []
    assert caught.value.http_status == 429 and caught.value.retry_after is None


def test_a_long_retry_after_is_left_to_the_caller() -> None:
    sleeps: list[float] = []
    with stub_server(rate_limited("120"), QUOTE) as stub, recording_client(stub.base_url, sleeps) as client:
        with pytest.raises(mdc.MdcError) as caught:
            client.quote("TCS")
    assert len(stub.received) == 1 and sleeps == []
    assert caught.value.retry_after == 120.0


def test_a_503_with_retry_after_waits_at_least_that_long() -> None:
    sleeps: list[float] = []
    busy = Reply(503, {"code": 14, "message": "gateway busy; retry"}, headers={"Retry-After": "1"})
    with stub_server(busy, QUOTE) as stub, recording_client(stub.base_url, sleeps) as client:
        client.quote("TCS")
    assert len(stub.received) == 2 and sleeps == [1.0]


def test_the_answer_rule() -> None:
    assert may_retry_answer(503, None) and may_retry_answer(503, 5.0)
    assert may_retry_answer(429, 0.0) and may_retry_answer(429, MAX_RETRY_AFTER)
    assert not may_retry_answer(429, None)
    assert not may_retry_answer(429, MAX_RETRY_AFTER + 1)
    assert not may_retry_answer(503, MAX_RETRY_AFTER + 1)
    for status in (400, 401, 404, 409, 500, 504):
        assert not may_retry_answer(status, 1.0)

"""Retries, timeouts and error decoding of the transport.

Most tests talk to a scripted local HTTP server (no mdc needed); the last
one stops and restarts the real mdc-server under the real gateway.
"""

from __future__ import annotations

import random
import threading
import time
from datetime import UTC, datetime

import httpx
import pytest

import answers
import mdc
from mdc.transport import RetryPolicy
from mdc_stack import Stack, free_addr
from stub_server import Reply, stub_server

UNAVAILABLE = Reply(503, {"code": 14, "message": "the server is not reachable", "details": []})
BAD_REQUEST = Reply(
    400,
    {
        "code": 3,
        "message": "symbol: is required",
        "details": [
            {
                "@type": "type.googleapis.com/google.rpc.BadRequest",
                "fieldViolations": [{"field": "symbol", "description": "is required", "reason": ""}],
            },
            {
                "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                "reason": "MISSING_SYMBOL",
                "domain": "mdc",
                "metadata": {},
            },
            {"@type": "type.googleapis.com/some.future.Detail", "anything": 1},
        ],
    },
)
QUOTE = Reply(200, answers.QUOTE)


def fast_client(base_url: str, **options: float) -> mdc.Client:
    settings = {"retries": 3, "backoff": 0.01, "max_backoff": 0.05, "timeout": 5.0, **options}
    return mdc.Client(base_url, "mdc_token", **settings)  # type: ignore[arg-type]


def test_a_503_is_retried_until_it_succeeds() -> None:
    with stub_server(UNAVAILABLE, UNAVAILABLE, QUOTE) as stub, fast_client(stub.base_url) as client:
        got = client.quote("TCS")
    assert got.nse_symbol == "TCS" and got.payload.last_price == 3521.5  # unknown answer fields ignored
    assert len(stub.received) == 3
    assert {r.path for r in stub.received} == {"/v1/developer/quote?symbol=TCS"}
    assert stub.received[0].headers["Authorization"] == "Bearer mdc_token"


def test_past_the_retry_budget_the_last_503_is_raised() -> None:
    with stub_server(UNAVAILABLE) as stub, fast_client(stub.base_url, retries=2) as client:
        with pytest.raises(mdc.Unavailable) as caught:
            client.save_quotes(datetime(2025, 1, 2, 10, 0, tzinfo=UTC), {"TCS": {"status": "SUCCESS", "payload": {"last_price": 1}}})
    assert len(stub.received) == 3
    assert caught.value.http_status == 503 and caught.value.code == "UNAVAILABLE"
    assert caught.value.attempts == 3
    assert caught.value.message == "the server is not reachable"


def test_a_4xx_is_never_retried_and_carries_its_details() -> None:
    with stub_server(BAD_REQUEST, QUOTE) as stub, fast_client(stub.base_url) as client:
        with pytest.raises(mdc.InvalidArgument) as caught:
            client.quote("")
    assert len(stub.received) == 1
    error = caught.value
    assert (error.http_status, error.code, error.message) == (400, "INVALID_ARGUMENT", "symbol: is required")
    assert error.field_violations == (mdc.FieldViolation("symbol", "is required"),)
    assert error.reason == "MISSING_SYMBOL"
    assert str(error) == "400 INVALID_ARGUMENT: symbol: is required"


def test_an_error_without_a_status_body_keeps_the_http_status() -> None:
    with stub_server(Reply(502, "bad gateway")) as stub, fast_client(stub.base_url) as client:
        with pytest.raises(mdc.MdcError) as caught:
            client.quote("TCS")
    assert len(stub.received) == 1  # only 503 is retried
    assert (caught.value.http_status, caught.value.code) == (502, "UNKNOWN")


def test_a_timeout_raises_after_the_retries_with_the_cause_chained() -> None:
    slow = Reply(200, {}, hold=True)
    with stub_server(slow) as stub, fast_client(stub.base_url, timeout=0.2, retries=1) as client:
        started = time.monotonic()
        with pytest.raises(mdc.DeadlineExceeded) as caught:
            client.nifty()
        elapsed = time.monotonic() - started
    assert caught.value.http_status is None and caught.value.code == "DEADLINE_EXCEEDED"
    assert isinstance(caught.value.__cause__, httpx.TimeoutException)
    assert caught.value.attempts == 2 and len(stub.received) == 2
    assert elapsed < 1.5  # each attempt was cut at the timeout



def test_a_refused_connection_is_retried_then_raised() -> None:
    sleeps: list[float] = []
    client = fast_client(f"http://{free_addr()}", retries=3, backoff=0.01, max_backoff=0.02)
    client._transport._sleep = sleeps.append  # record the backoff instead of waiting
    with client, pytest.raises(mdc.MdcError) as caught:
        client.health()
    assert caught.value.code == "UNAVAILABLE" and caught.value.attempts == 4
    assert isinstance(caught.value.__cause__, httpx.ConnectError)
    assert len(sleeps) == 3 and all(0.005 <= s <= 0.02 for s in sleeps)


def test_backoff_grows_exponentially_with_jitter() -> None:
    policy = RetryPolicy(retries=5, initial_backoff=0.1, max_backoff=1.0)
    rng = random.Random(7)
    for retry, cap in enumerate([0.1, 0.2, 0.4, 0.8, 1.0, 1.0]):
        delays = {policy.delay(retry, rng) for _ in range(20)}
        assert all(cap / 2 <= d <= cap for d in delays)
        assert len(delays) > 1  # jittered


def test_the_gateway_503_while_the_server_restarts_is_retried(stack: Stack, developer_token: str) -> None:
    # The patient call runs in another thread while this one restarts the
    # server, once the call has had a 503 and waits to retry (a gate on the
    # client's retry wait, not a sleep).
    answers: list[object] = []
    with mdc.Client(stack.base_url, developer_token, retries=0) as impatient:
        stack.stop_server()
        try:
            with pytest.raises(mdc.MdcError) as caught:
                impatient.nifty()
            assert (caught.value.http_status, caught.value.code) == (503, "UNAVAILABLE")
            with mdc.Client(stack.base_url, developer_token, retries=15, backoff=0.2, max_backoff=1.0) as patient:
                retrying = threading.Event()
                wait_to_retry = patient._transport._sleep

                def note_and_wait(seconds: float) -> None:
                    retrying.set()
                    wait_to_retry(seconds)

                patient._transport._sleep = note_and_wait
                waiting = threading.Thread(target=lambda: answers.append(_health(patient)))
                waiting.start()
                assert retrying.wait(30), "the patient call never waited to retry"
                stack.server.start()
                waiting.join(30)
        finally:
            if not stack.server.running():
                stack.server.start()
            stack.wait_healthy()
    assert len(answers) == 1 and not isinstance(answers[0], Exception), answers
    assert getattr(answers[0], "database") == "ok"


def _health(client: mdc.Client) -> object:
    try:
        return client.health()
    except mdc.MdcError as exc:
        return exc

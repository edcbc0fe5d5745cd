"""Issue 21: whether a call whose answer was lost is sent again is read from
the RPC's ``idempotency_level`` option alone (proto/mdc/v1/options.proto),
never from its service or HTTP verb. Every RPC must declare it; the client's
rule follows it; and against a stub that never answers in time, the RPCs
whose level allows it are sent again while creates and deletes are not."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from google.protobuf import descriptor_pb2

import mdc
from mdc.methods import all_methods, find_method
from stub_server import Reply, stub_server

Options = descriptor_pb2.MethodOptions
RETRYABLE = {Options.NO_SIDE_EFFECTS, Options.IDEMPOTENT}
AT = datetime(2025, 1, 2, 10, 0, tzinfo=UTC)


def test_every_rpc_declares_its_idempotency_level() -> None:
    undeclared = [m.name for m in all_methods() if not m.descriptor.GetOptions().HasField("idempotency_level")]
    assert undeclared == [], "add `option idempotency_level = ...;` to each"


def test_the_retry_rule_is_the_descriptors_idempotency_level() -> None:
    for method in all_methods():
        level = method.descriptor.GetOptions().idempotency_level
        assert method.idempotent == (level in RETRYABLE), method.name


def test_the_rule_where_verb_and_service_would_say_otherwise() -> None:
    # A DELETE and a POST of the dashboard: neither is sent again ...
    for name in ("DashboardService.DeleteRun", "DashboardService.CreateRun", "DashboardService.CreateOrder",
                 "AdminService.CreateDeveloper", "AdminService.RefreshDeveloperKey", "AdminService.DeleteHolidays"):
        assert not find_method(name).idempotent, name
    # ... while POSTs that replace their natural key, a PATCH that sets
    # fields, and the reads are.
    for name in ("CollectorService.SaveQuotes", "CollectorService.SaveShortlist", "DeveloperService.GetQuote",
                 "DashboardService.UpdateRun", "DashboardService.SignIn", "StreamService.ReplayDay"):
        assert find_method(name).idempotent, name


LOST: list[tuple[str, Callable[[mdc.Client], object], bool]] = [
    ("SaveQuotes", lambda c: c.save_quotes(AT, {"TCS": {"status": "SUCCESS", "payload": {"last_price": 1}}}), True),
    ("GetQuote", lambda c: c.quote("TCS"), True),
    ("UpdateRun", lambda c: c.update_run("7", completed=True), True),
    ("CreateRun", lambda c: c.create_run(AT, AT), False),
    ("DeleteRun", lambda c: c.delete_run("7"), False),
    ("CreateOrder", lambda c: c.create_order("7", "TCS", AT, entry_price=1, stop_loss_price=0.5,
                                             take_profit_price=2), False),
]


@pytest.mark.parametrize(("rpc", "call", "sent_again"), LOST, ids=[case[0] for case in LOST])
def test_a_lost_answer_is_sent_again_only_when_the_level_allows(
    rpc: str, call: Callable[[mdc.Client], object], sent_again: bool
) -> None:
    never_in_time = Reply(200, {}, hold=True)
    with stub_server(never_in_time) as stub, mdc.Client(stub.base_url, "mdc_token", timeout=0.15, retries=2,
                                                         backoff=0.01, max_backoff=0.01) as client:
        with pytest.raises(mdc.DeadlineExceeded) as caught:
            call(client)
    attempts = 3 if sent_again else 1
    assert caught.value.attempts == attempts and len(stub.received) == attempts

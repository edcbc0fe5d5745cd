"""Fixtures: one mdc stack for the session, an admin and a developer client.

Tests that need a stack are skipped when MDC_SERVER_BIN, MDC_GATEWAY_BIN or
MDC_TEST_DATABASE_URL is missing, unless MDC_REQUIRE_STACK=1 (run_tests.sh,
and so ctest, set it) makes that a failure.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator

import pytest

import mdc
from mdc_stack import Stack, missing_env, start_stack


@pytest.fixture(scope="session")
def stack() -> Iterator[Stack]:
    missing = missing_env()
    if missing:
        reason = "no mdc stack: set " + ", ".join(missing)
        if os.environ.get("MDC_REQUIRE_STACK") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    running = start_stack()
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="session")
def admin(stack: Stack) -> Iterator[mdc.Client]:
    with mdc.Client(stack.base_url, stack.admin_token) as client:
        yield client


@pytest.fixture(scope="session")
def developer_token(admin: mdc.Client) -> str:
    """A developer created through the admin API."""
    created = admin.create_developer("pytest-" + secrets.token_hex(4))
    assert created.role == "developer" and created.last_seen_time is None
    assert created.token is not None and created.token.startswith("mdc_")
    return created.token


@pytest.fixture
def client(stack: Stack, developer_token: str) -> Iterator[mdc.Client]:
    with mdc.Client(stack.base_url, developer_token, timeout=10.0) as c:
        yield c

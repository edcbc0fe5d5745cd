"""When a failed call is sent again, and after how long: the rules of
:mod:`mdc.transport`, without any I/O, so that the blocking and the asyncio
transports follow the very same ones.

A call is retried, with exponential backoff and jitter, only when retrying
cannot do harm and may help:

- the gateway answered 503: the server is down, draining, or cannot reach
  PostgreSQL (or its statement timed out), and nothing was written;
- the gateway answered 429 with ``Retry-After``: the developer's rate limit
  refused the call before doing anything (reason ``RATE_LIMITED``); a 429
  without it (failed sign-ins) is final;
- no connection could be made (refused, connect timeout): nothing was sent;
- the connection failed after the request was sent (reset, read timeout),
  when the RPC is idempotent by its ``idempotency_level`` option
  (:attr:`mdc.methods.Method.idempotent`): reads, the collector writes (which
  replace the record of their natural key), a run's update. A create or a
  delete whose answer was lost is not sent again: it may have landed.

Any other answer, a 4xx above all, is final: the same request would fail the
same way. A retried answer with ``Retry-After`` (whole seconds) is sent again
no sooner than it says, and one that asks for more than ``MAX_RETRY_AFTER``
seconds is raised at once (``MdcError.retry_after`` tells how long to wait):
the client does not block its caller for minutes on its own.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import httpx

from mdc.errors import (
    error_from_response,
    error_from_transport,
    invalid_argument,
    retry_after_of,
)
from mdc.methods import Method

# The longest Retry-After (seconds) the client waits out by itself.
MAX_RETRY_AFTER = 60.0

# Transport errors that are mistakes of the caller, not of the network:
# sending again cannot help.
_BAD_URL = (httpx.UnsupportedProtocol, httpx.InvalidURL)
# Failures before the request left: it cannot have landed.
_NOT_SENT = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout)


def may_retry_answer(status: int, retry_after: float | None) -> bool:
    """Whether an error answer may be sent again (retries left aside): a 503,
    or a 429 that says when (``Retry-After``), unless it asks to wait longer
    than ``MAX_RETRY_AFTER``."""
    if retry_after is not None and retry_after > MAX_RETRY_AFTER:
        return False
    return status == 503 or (status == 429 and retry_after is not None)


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how patiently a failed call is sent again.

    Attempt ``n`` (0-based) waits a random time between half and all of
    ``min(max_backoff, initial_backoff * 2**n)`` seconds: exponential, with
    jitter so that many collectors cut off together do not return together.
    """

    retries: int = 3
    initial_backoff: float = 0.25
    max_backoff: float = 5.0

    def __post_init__(self) -> None:
        if isinstance(self.retries, bool) or not isinstance(self.retries, int) or self.retries < 0:
            raise invalid_argument("retries", f"must be a whole number >= 0, got {self.retries!r}")
        for name, value in (("backoff", self.initial_backoff), ("max_backoff", self.max_backoff)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
                raise invalid_argument(name, f"must be a number of seconds >= 0, got {value!r}")

    def delay(self, retry: int, rng: random.Random) -> float:
        """Seconds to wait before retry number ``retry`` (0-based)."""
        cap = min(self.max_backoff, self.initial_backoff * 2**retry)
        return rng.uniform(cap / 2, cap)


class Attempts:
    """The retry decisions of one call. Before each attempt :meth:`begin`;
    after a failed one :meth:`answered` or :meth:`failed`, which return the
    seconds to wait before the next attempt, or raise the error that ends the
    call (an :class:`~mdc.MdcError`, the network failure chained)."""

    def __init__(self, method: Method, policy: RetryPolicy, rng: random.Random) -> None:
        self._method = method
        self._policy = policy
        self._rng = rng
        self.count = 0

    def begin(self) -> None:
        self.count += 1

    def _may_retry(self) -> bool:
        return self.count <= self._policy.retries

    def answered(self, response: httpx.Response) -> float:
        """After an error answer (its body read)."""
        retry_after = retry_after_of(response)
        if not self._may_retry() or not may_retry_answer(response.status_code, retry_after):
            raise error_from_response(response, self.count)
        return max(self._policy.delay(self.count - 1, self._rng), retry_after or 0.0)

    def failed(self, exc: httpx.HTTPError | httpx.InvalidURL) -> float:
        """After an attempt that got no answer."""
        if isinstance(exc, _BAD_URL):
            raise invalid_argument("base_url", f"{type(exc).__name__}: {exc}") from exc
        if isinstance(exc, httpx.LocalProtocolError):  # e.g. a header value httpx cannot send
            raise invalid_argument("request", f"{type(exc).__name__}: {exc}") from exc
        retryable = isinstance(exc, httpx.TransportError) and (
            self._method.idempotent or isinstance(exc, _NOT_SENT)
        )
        if not retryable or not self._may_retry():
            raise error_from_transport(exc, self.count) from exc
        return self._policy.delay(self.count - 1, self._rng)

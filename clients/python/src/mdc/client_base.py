"""What :class:`mdc.Client` and :class:`mdc.AsyncClient` share: their
options, the headers every call carries, and the backtest clock."""

from __future__ import annotations

import contextvars
import os
import ssl
import types
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from datetime import datetime

from mdc.errors import invalid_argument
from mdc.retry import RetryPolicy
from mdc.times import WIRE_TIMEZONE, wall_clock


class ClientBase:
    """Options and per-call headers of a client (see :class:`mdc.Client`)."""

    def __init__(
        self,
        *,
        timeout: float,
        retries: int,
        backoff: float,
        max_backoff: float,
        run_id: str | None,
        has_http: bool,
        ca_file: str | os.PathLike[str] | None,
    ) -> None:
        if ca_file is not None and has_http:
            raise invalid_argument("ca_file", "give ca_file or http, not both: set verify on your httpx client")
        if not isinstance(timeout, (int, float)) or not timeout > 0:
            raise invalid_argument("timeout", "must be > 0 seconds")
        self._retry = RetryPolicy(retries=retries, initial_backoff=backoff, max_backoff=max_backoff)
        self._verify: ssl.SSLContext | bool = True
        if ca_file is not None:
            try:
                self._verify = ssl.create_default_context(cafile=os.fspath(ca_file))
            except (OSError, ssl.SSLError) as exc:
                raise invalid_argument("ca_file", f"cannot load {os.fspath(ca_file)!r}: {exc}") from exc
        self._headers = {"X-Run-Id": run_id} if run_id else {}
        # The backtest clock of the calls in this context (thread, task).
        self._clock: contextvars.ContextVar[Mapping[str, str]] = contextvars.ContextVar(
            f"mdc_clock_{id(self)}", default=types.MappingProxyType({})
        )

    @contextmanager
    def backtest_clock(self, now: datetime, *, run_id: str | None = None) -> Iterator[None]:
        """Sets "now" for the calls made inside the ``with`` block.

        Reads then see nothing stamped at or after ``now``, and asking for an
        instant at or after it is refused (:class:`~mdc.PermissionDenied`,
        reason ``FUTURE_READ``). Blocks nest; the clock belongs to the
        current thread or asyncio task (a plain ``with`` in async code too).

        Raises:
            InvalidArgument: ``now`` is naive.
        """
        headers = {"X-Current-Timestamp": wall_clock(now, "X-Current-Timestamp", "now"),
                   "X-Current-Timezone": WIRE_TIMEZONE}
        if run_id:
            headers["X-Run-Id"] = run_id
        token = self._clock.set(headers)
        try:
            yield
        finally:
            self._clock.reset(token)

    def _call_headers(self) -> dict[str, str]:
        return {**self._headers, **self._clock.get()}

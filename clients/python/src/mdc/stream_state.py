"""What a stream has read and what to do when it breaks, without any I/O:
the part of :class:`mdc.EventStream` and :class:`mdc.AsyncEventStream` that
is the same for both.

A watch or a day replay is one HTTP request whose answer grows by one line
of newline-delimited JSON per message: ``{"result": MarketEvents}``, or,
last, ``{"error": google.rpc.Status}`` when the stream fails after it
started (docs/api.md section 10). Each message moves the cursor; its events
(:class:`mdc.MarketEvent` records) wait in :attr:`StreamState.pending` until
read. When the stream breaks in a way that resuming repairs (a server
shutting down or a database outage, 503 ``UNAVAILABLE``; a watcher that fell
behind, 429 ``WATCHER_FELL_BEHIND``; a connection cut, or silent for the idle
timeout) the driver opens it again from the cursor, so the caller misses
nothing and sees nothing twice; any other failure is raised.
"""

from __future__ import annotations

import json
import random
from collections import deque
from typing import Any

from google.protobuf import json_format

from mdc.convert import from_message
from mdc.errors import FailedPrecondition, MdcError, error_class, error_from_stream
from mdc.market import MarketEvent
from mdc.retry import RetryPolicy
from mdc.v1 import stream_pb2

_FELL_BEHIND = "WATCHER_FELL_BEHIND"


def resumable(error: MdcError) -> bool:
    """Whether opening the stream again from the last cursor repairs
    ``error``: nothing was lost, only the connection (cut, or silent: no
    answer at all within the timeout) or the server's queue."""
    return (
        error.code == "UNAVAILABLE"
        or (error.code == "DEADLINE_EXCEEDED" and error.http_status is None)
        or (error.code == "RESOURCE_EXHAUSTED" and error.reason == _FELL_BEHIND)
    )


def stream_error(message: str, *, http_status: int | None = None, code: str = "UNAVAILABLE") -> MdcError:
    return error_class(code)(message, http_status=http_status, code=code)


class StreamState:
    """The cursor, the events read but not yet yielded, and the budget of
    breaks of one stream.

    With ``retry`` (the client's policy; None: never resume), a resumable
    break is repaired by reconnecting after a delay as between retries of a
    call; ``retry.retries`` breaks in a row without progress in between (the
    cursor moving, or a connection that delivered more than its first
    message) end the stream with the error.
    """

    def __init__(self, *, cursor: str | None, ends: bool, retry: RetryPolicy | None,
                 idle_timeout: float | None) -> None:
        self.cursor = cursor
        self.ends = ends  # a replay ends; a watch that ends was cut off
        self.pending: deque[MarketEvent] = deque()
        self.done = False
        self._retry = retry
        self._idle_timeout = idle_timeout
        self._rng = random.Random()
        self._breaks = 0  # resumable failures since the last progress
        self._read_on_connection = 0  # messages read since the last (re)connect

    def check_ends(self) -> None:
        """Refuses to read a watch to its end, which never comes."""
        if not self.ends:
            raise FailedPrecondition(
                "a watch never ends, so it cannot be read into a table: iterate over it",
                http_status=None, code="FAILED_PRECONDITION", attempts=0,
            )

    def connected(self) -> None:
        self._read_on_connection = 0

    def no_first_message(self) -> MdcError:
        return stream_error("the watch ended before its first message", http_status=200)

    def silent(self) -> MdcError:
        """Nothing, not even a heartbeat, for idle_timeout: a connection that
        died silently, resumed like one that was cut."""
        return stream_error(f"no message for {self._idle_timeout} s: the connection is taken for lost")

    def body_ended(self) -> None:
        """The answer's body ended: a replay is done, a watch was cut."""
        if not self.ends:
            raise stream_error("the watch ended without an error: the connection was cut")
        self.done = True

    def take(self, line: str) -> None:
        """Reads one line of the answer."""
        try:
            body: Any = json.loads(line)
        except ValueError as exc:
            raise stream_error(f"not a line of a stream: {line[:200]!r}", http_status=200, code="UNKNOWN") from exc
        if not isinstance(body, dict):
            raise stream_error(f"not a line of a stream: {line[:200]!r}", http_status=200, code="UNKNOWN")
        if "error" in body:
            raise error_from_stream(body["error"])
        message = stream_pb2.MarketEvents()
        try:
            json_format.ParseDict(body.get("result") or {}, message, ignore_unknown_fields=True)
        except json_format.ParseError as exc:
            raise stream_error(f"not a stream message: {exc}", http_status=200, code="UNKNOWN") from exc
        self._read_on_connection += 1
        # Progress resets the budget of breaks: the cursor moved, or this
        # connection carried a message after its first (a heartbeat: it
        # worked for a while before it broke).
        if message.cursor and message.cursor != self.cursor:
            self.cursor = message.cursor
            self._breaks = 0
        elif self._read_on_connection > 1:
            self._breaks = 0
        # A message without events (a watch's first, a heartbeat) only moves
        # the cursor.
        self.pending.extend(from_message(MarketEvent, event) for event in message.events)

    def broke(self, error: MdcError, cause: BaseException | None) -> float:
        """After a break (the connection hung up): the seconds to wait
        before reconnecting, or raises ``error`` (and the stream is done)."""
        self._breaks += 1
        if self._retry is None or not resumable(error) or self._breaks > self._retry.retries:
            self.done = True
            self.pending.clear()
            if cause is not None:
                raise error from cause
            raise error
        return max(self._retry.delay(self._breaks - 1, self._rng), error.retry_after or 0.0)

    def close(self) -> None:
        self.done = True
        self.pending.clear()

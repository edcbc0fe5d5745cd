"""The streams of docs/api.md section 10 as Python iterators.

A watch (``WatchQuotes``, ``WatchNifty``, ``WatchShortlists``) or a day
replay (``ReplayDay``) is one HTTP request whose answer grows by one line of
newline-delimited JSON per message: ``{"result": MarketEvents}``, or, last,
``{"error": google.rpc.Status}`` when the stream fails after it started.
:class:`EventStream` reads those lines as they come and yields the events
one by one (``mdc.v1.stream_pb2.MarketEvent``), remembering the cursor of
the last message read. When the stream breaks in a way that resuming
repairs (a server shutting down or a database outage, 503 ``UNAVAILABLE``;
a watcher that fell behind, 429 ``WATCHER_FELL_BEHIND``; a connection cut)
it opens the stream again from that cursor, so the caller misses nothing and
sees nothing twice; any other failure is raised as :class:`mdc.MdcError`.

A connection can also die silently (a network black hole: no reset, no
error, nothing), which would block a read for ever. The server sends an idle
watch a message without events (a heartbeat, carrying the current cursor) at
least every ``MDC_WATCH_HEARTBEAT`` seconds (default 15), and a replay sends
continuously; so a stream on which nothing arrives for ``idle_timeout``
seconds (default :data:`IDLE_TIMEOUT`, three heartbeats) is taken for a lost
connection: closed, and opened again from the cursor like any other.
Messages without events move the cursor but yield nothing.
"""

from __future__ import annotations

import json
import random
import time
from collections import deque
from collections.abc import Callable, Iterator
from typing import Any

import httpx
from google.protobuf import json_format

from mdc.errors import MdcError, error_from_stream, error_from_transport
from mdc.transport import RetryPolicy
from mdc.v1 import stream_pb2

#: Opens the stream from a cursor (None: from the start) and returns the 200
#: answer with its body unread.
Opener = Callable[[str | None], httpx.Response]

_FELL_BEHIND = "WATCHER_FELL_BEHIND"

#: Seconds without any message after which a stream's connection is taken
#: for lost: three of the server's default heartbeat intervals (15 s).
IDLE_TIMEOUT = 45.0


def resumable(error: MdcError) -> bool:
    """Whether opening the stream again from the last cursor repairs
    ``error``: nothing was lost, only the connection (cut, or silent: no
    answer at all within the timeout) or the server's queue."""
    return (
        error.code == "UNAVAILABLE"
        or (error.code == "DEADLINE_EXCEEDED" and error.http_status is None)
        or (error.code == "RESOURCE_EXHAUSTED" and error.reason == _FELL_BEHIND)
    )


class EventStream(Iterator[stream_pb2.MarketEvent]):
    """The events of one watch or replay, read as they arrive.

    ``cursor`` is the resume point after the last message read (for a
    watch, set by its first message, before any event): pass it as
    ``cursor=`` to a later call to continue from there. A replay's iterator
    ends after the day's last record; a watch's never ends by itself. Use as
    a context manager, or call :meth:`close`, to hang up.

    With ``retry`` (the client's policy; None: never), a stream that breaks
    with a resumable error is opened again from ``cursor``, waiting as
    between retries of a call; ``retry.retries`` breaks in a row without
    progress in between (the cursor moving, or a connection that delivered
    more than its first message) end it with the error. ``idle_timeout`` is
    the caller's (the opener applies it to every read); here it only names
    the error of a silent connection.
    """

    def __init__(self, open_stream: Opener, *, cursor: str | None, ends: bool, retry: RetryPolicy | None,
                 idle_timeout: float | None = None, sleep: Callable[[float], None] = time.sleep) -> None:
        self._open = open_stream
        self._idle_timeout = idle_timeout
        self._ends = ends  # a replay ends; a watch that ends was cut off
        self._retry = retry
        self._sleep = sleep
        self._rng = random.Random()
        self._pending: deque[stream_pb2.MarketEvent] = deque()
        self._response: httpx.Response | None = None
        self._lines: Iterator[str] | None = None
        self._done = False
        self._breaks = 0  # resumable failures since the last progress
        self._read_on_connection = 0  # messages read since the last (re)connect
        self.cursor = cursor
        self._connect()
        if not ends:
            # A watch's first message (no events) comes with the answer's
            # headers and says it is live: from here on every commit counts,
            # and `cursor` is where it stands.
            try:
                first = self._next_line()
                if first is None:
                    raise MdcError("the watch ended before its first message", http_status=200, code="UNAVAILABLE")
                self._take(first)
            except httpx.ReadTimeout as exc:
                self.close()
                raise self._silent() from exc
            except httpx.TransportError as exc:
                self.close()
                raise error_from_transport(exc) from exc
            except MdcError:
                self.close()
                raise

    def __iter__(self) -> EventStream:
        return self

    def __next__(self) -> stream_pb2.MarketEvent:
        while not self._pending:
            if self._done:
                raise StopIteration
            self._read_message()
        return self._pending.popleft()

    def close(self) -> None:
        """Hangs up (the server ends the watch); the iterator ends."""
        self._done = True
        self._pending.clear()
        self._hang_up()

    def __enter__(self) -> EventStream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # Reading ------------------------------------------------------------------

    def _connect(self) -> None:
        self._response = self._open(self.cursor)
        self._lines = self._response.iter_lines()
        self._read_on_connection = 0

    def _hang_up(self) -> None:
        if self._response is not None:
            self._response.close()
        self._response = None
        self._lines = None

    def _read_message(self) -> None:
        """Reads the next line (reconnecting when that is what it takes)."""
        try:
            if self._lines is None:
                self._connect()
            line = self._next_line()
            if line is None:
                if self._ends:
                    self._done = True
                    self._hang_up()
                    return
                raise MdcError("the watch ended without an error: the connection was cut",
                               http_status=None, code="UNAVAILABLE")
            self._take(line)
        except httpx.ReadTimeout as exc:
            self._broke(self._silent(), exc)
        except httpx.TransportError as exc:
            self._broke(error_from_transport(exc), exc)
        except MdcError as error:
            self._broke(error, None)

    def _silent(self) -> MdcError:
        """Nothing, not even a heartbeat, for idle_timeout: a connection that
        died silently, resumed like one that was cut."""
        return MdcError(f"no message for {self._idle_timeout} s: the connection is taken for lost",
                        http_status=None, code="UNAVAILABLE")

    def _next_line(self) -> str | None:
        """The next non-empty line of the answer, None at its end."""
        assert self._lines is not None
        return next((text for text in self._lines if text.strip()), None)

    def _take(self, line: str) -> None:
        try:
            body: Any = json.loads(line)
        except ValueError as exc:
            raise MdcError(f"not a line of a stream: {line[:200]!r}", http_status=200, code="UNKNOWN") from exc
        if not isinstance(body, dict):
            raise MdcError(f"not a line of a stream: {line[:200]!r}", http_status=200, code="UNKNOWN")
        if "error" in body:
            raise error_from_stream(body["error"])
        message = stream_pb2.MarketEvents()
        json_format.ParseDict(body.get("result") or {}, message, ignore_unknown_fields=True)
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
        self._pending.extend(message.events)

    def _broke(self, error: MdcError, cause: Exception | None) -> None:
        """Resumes from the cursor, or raises ``error`` (and ends)."""
        self._hang_up()
        self._breaks += 1
        if self._retry is None or not resumable(error) or self._breaks > self._retry.retries:
            self._done = True
            if cause is not None:
                raise error from cause
            raise error
        self._sleep(max(self._retry.delay(self._breaks - 1, self._rng), error.retry_after or 0.0))

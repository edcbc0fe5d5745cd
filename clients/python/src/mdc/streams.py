"""The streams of docs/api.md section 10 as blocking iterators.

:class:`EventStream` reads the lines of a watch or a day replay as they come
and yields the events one by one (:class:`mdc.MarketEvent` records), resuming
from its cursor when the stream breaks in a way that resuming repairs
(:mod:`mdc.stream_state`). A connection can also die silently (a network
black hole: no reset, no error, nothing), which would block a read for ever.
The server sends an idle watch a message without events (a heartbeat,
carrying the current cursor) at least every ``MDC_WATCH_HEARTBEAT`` seconds
(default 15), and a replay sends continuously; so a stream on which nothing
arrives for ``idle_timeout`` seconds (default :data:`IDLE_TIMEOUT`, three
heartbeats) is taken for a lost connection: closed, and opened again from
the cursor like any other. Messages without events move the cursor but
yield nothing.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from datetime import tzinfo
from typing import TYPE_CHECKING

import httpx

from mdc.errors import MdcError, error_from_transport
from mdc.market import MarketEvent
from mdc.ops import IDLE_TIMEOUT
from mdc.record import Records
from mdc.retry import RetryPolicy
from mdc.stream_state import StreamState, resumable

if TYPE_CHECKING:
    import pandas
    import polars
    import pyarrow

__all__ = ["IDLE_TIMEOUT", "EventStream", "Opener", "resumable"]

#: Opens the stream from a cursor (None: from the start) and returns the 200
#: answer with its body unread.
Opener = Callable[[str | None], httpx.Response]


class EventStream(Iterator[MarketEvent]):
    """The events of one watch or replay, read as they arrive.

    ``cursor`` is the resume point after the last message read (for a
    watch, set by its first message, before any event): pass it as
    ``cursor=`` to a later call to continue from there. A replay's iterator
    ends after the day's last record; a watch's never ends by itself. Use as
    a context manager, or call :meth:`close`, to hang up. :meth:`to_records`,
    :meth:`to_pandas` and :meth:`to_polars` read a replay to its end into a
    table (of every event kind's columns, ``kind`` saying which).

    ``retry``: the client's policy, to resume with (None: never);
    ``idle_timeout`` is the caller's (the opener applies it to every read),
    here it only names the error of a silent connection.
    """

    def __init__(self, open_stream: Opener, *, cursor: str | None, ends: bool, retry: RetryPolicy | None,
                 idle_timeout: float | None = None, sleep: Callable[[float], None] = time.sleep) -> None:
        self._open = open_stream
        self._state = StreamState(cursor=cursor, ends=ends, retry=retry, idle_timeout=idle_timeout)
        self._sleep = sleep
        self._response: httpx.Response | None = None
        self._lines: Iterator[str] | None = None
        self._connect()
        if not ends:
            # A watch's first message (no events) comes with the answer's
            # headers and says it is live: from here on every commit counts,
            # and `cursor` is where it stands.
            try:
                first = self._next_line()
                if first is None:
                    raise self._state.no_first_message()
                self._state.take(first)
            except httpx.ReadTimeout as exc:
                self.close()
                raise self._state.silent() from exc
            except httpx.HTTPError as exc:
                self.close()
                raise error_from_transport(exc) from exc
            except MdcError:
                self.close()
                raise

    @property
    def cursor(self) -> str | None:
        """Where the stream stands: after the last message read."""
        return self._state.cursor

    def __iter__(self) -> EventStream:
        return self

    def __next__(self) -> MarketEvent:
        while not self._state.pending:
            if self._state.done:
                raise StopIteration
            self._read_message()
        return self._state.pending.popleft()

    def to_records(self) -> Records[MarketEvent]:
        """Every event left, once the replay has ended (a watch never ends:
        refused with :class:`~mdc.FailedPrecondition`)."""
        self._state.check_ends()
        return Records(MarketEvent, self)

    def to_arrow(self) -> pyarrow.Table:
        """The table of :meth:`to_records`."""
        return self.to_records().to_arrow()

    def to_pandas(self, *, tz: str | tzinfo | None = None) -> pandas.DataFrame:
        """The DataFrame of :meth:`to_records`, indexed by each record's time."""
        return self.to_records().to_pandas(tz=tz)

    def to_polars(self, *, tz: str | None = None) -> polars.DataFrame:
        """The polars DataFrame of :meth:`to_records`."""
        return self.to_records().to_polars(tz=tz)

    def close(self) -> None:
        """Hangs up (the server ends the watch); the iterator ends."""
        self._state.close()
        self._hang_up()

    def __enter__(self) -> EventStream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _connect(self) -> None:
        self._response = self._open(self._state.cursor)
        self._lines = self._response.iter_lines()
        self._state.connected()

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
                self._state.body_ended()
                self._hang_up()
                return
            self._state.take(line)
        except httpx.ReadTimeout as exc:
            self._broke(self._state.silent(), exc)
        except (httpx.HTTPError, httpx.StreamError) as exc:
            self._broke(error_from_transport(exc), exc)
        except MdcError as error:
            self._broke(error, None)

    def _next_line(self) -> str | None:
        """The next non-empty line of the answer, None at its end."""
        assert self._lines is not None
        return next((text for text in self._lines if text.strip()), None)

    def _broke(self, error: MdcError, cause: BaseException | None) -> None:
        """Resumes from the cursor after a wait, or raises ``error``."""
        self._hang_up()
        self._sleep(self._state.broke(error, cause))

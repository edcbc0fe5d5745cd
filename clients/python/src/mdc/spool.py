"""A collector's spool: the writes mdc has not acknowledged yet, kept on disk.

An observation not written is lost for good (a quote of 10:31 cannot be
collected again at 10:45), so a collector should not drop a write because
mdc answered 503 or could not be reached: during a database failover
(docs/deployment.md), a restart or a network outage. :class:`Spool` wraps a
:class:`~mdc.Client`: each ``save_*`` first stores the write in a file of
its folder (written whole, then renamed, then synced), then delivers what
the folder holds, oldest first. A write leaves the folder once mdc answered
200. When mdc is unavailable the write stays, and is delivered, in order,
by the next ``save_*`` or :meth:`Spool.flush`; a collector process that is
restarted with the same folder delivers what the previous one left. Writes
are idempotent upserts, so one delivered twice (answered 503 after it was
in fact stored) stores the same thing.

Bounded: at most ``max_writes`` writes and ``max_bytes`` bytes are held; a
``save_*`` beyond either raises :class:`~mdc.ResourceExhausted` and spools
nothing (the collector decides what to give up). A write mdc refuses for
good (a 400 or 412: a value the server's rules refuse) would block the
ones after it forever: it is moved to the folder's ``rejected/`` with the
error, counted in :meth:`Spool.state`, and delivery goes on.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from mdc import ops
from mdc.client import Client
from mdc.enums import Scope, ShortlistType
from mdc.errors import MdcError, ResourceExhausted
from mdc.inputs import QuoteDataInput, ShortlistEntryInput
from mdc.methods import find_method

_SUFFIX = ".write"
# Errors after which a write is delivered later, in its turn: mdc (or its
# database) is unavailable, the call timed out, or the rate limit said wait.
# A token refused (revoked, mistyped) is the operator's to fix: the writes
# wait for a collector restarted with a good one.
_LATER = frozenset({"UNAVAILABLE", "DEADLINE_EXCEEDED", "RESOURCE_EXHAUSTED", "ABORTED", "INTERNAL",
                    "UNAUTHENTICATED", "PERMISSION_DENIED"})


@dataclass(frozen=True)
class SpoolState:
    """What a spool holds.

    Attributes:
        writes: writes not acknowledged yet.
        bytes: their size on disk.
        oldest: when the oldest of them was spooled (UTC), or None.
        rejected: writes mdc refused for good, kept in ``rejected/``.
        last_error: the error of the last failed delivery, or None once
            one succeeded.
    """

    writes: int
    bytes: int
    oldest: datetime | None
    rejected: int
    last_error: str | None


class Spool:
    """Collector writes through ``client`` with a spool in ``directory``.

    Args:
        client: the client that delivers (its own retries apply to each
            delivery; a small ``retries`` keeps ``save_*`` quick while mdc is
            down).
        directory: the spool's folder, created if missing; one collector
            process at a time.
        max_writes: most writes held (default 100,000: over an hour of a
            collector writing 20 a second).
        max_bytes: most bytes held (default 256 MiB).

    Thread-safe.
    """

    def __init__(self, client: Client, directory: str | os.PathLike[str], *,
                 max_writes: int = 100_000, max_bytes: int = 256 << 20) -> None:
        if max_writes < 1 or max_bytes < 1:
            raise ValueError("max_writes and max_bytes must be positive")
        self._client = client
        self._dir = Path(directory)
        self._rejected = self._dir / "rejected"
        self._rejected.mkdir(parents=True, exist_ok=True)
        self._max_writes = max_writes
        self._max_bytes = max_bytes
        self._lock = threading.Lock()
        self._last_error: str | None = None
        # Leftovers of a write interrupted before its rename.
        for tmp in self._dir.glob("*.tmp"):
            tmp.unlink()
        held = self._held()
        self._next = int(held[-1].stem) + 1 if held else 1

    # The collector writes of Client, spooled ---------------------------------

    def save_shortlist(self, at: datetime, shortlist_type: ShortlistType, entries: Iterable[ShortlistEntryInput],
                       *, scope: Scope | None = None) -> None:
        """:meth:`Client.save_shortlist`, spooled."""
        self._spool(ops.save_shortlist(at, shortlist_type, entries, scope=scope))

    def save_nifty(self, at: datetime, quote: QuoteDataInput, day_change_perc: float) -> None:
        """:meth:`Client.save_nifty`, spooled."""
        self._spool(ops.save_nifty(at, quote, day_change_perc))

    def save_quotes(self, at: datetime, quotes: Mapping[str, QuoteDataInput]) -> None:
        """:meth:`Client.save_quotes`, spooled."""
        self._spool(ops.save_quotes(at, quotes))

    def flush(self) -> int:
        """Delivers the writes held, oldest first, until one cannot be
        delivered now; returns how many were delivered."""
        delivered = 0
        with self._lock:
            for path in self._held():
                rpc, _, body = path.read_bytes().partition(b"\n")
                method = find_method(rpc.decode())
                request = method.request_class.FromString(body)
                try:
                    self._client.call(method.name, request)
                except MdcError as e:
                    self._last_error = f"{e.code}: {e.message}"
                    if e.code in _LATER:
                        break
                    path.replace(self._rejected / path.name)
                    (self._rejected / (path.stem + ".error")).write_text(self._last_error + "\n")
                    continue
                path.unlink()
                delivered += 1
                self._last_error = None
        return delivered

    def state(self) -> SpoolState:
        """What the spool holds now."""
        with self._lock:
            held = self._held()
            sizes = [p.stat() for p in held]
            return SpoolState(
                writes=len(held),
                bytes=sum(s.st_size for s in sizes),
                oldest=datetime.fromtimestamp(min(s.st_mtime for s in sizes), UTC) if sizes else None,
                rejected=len(list(self._rejected.glob("*" + _SUFFIX))),
                last_error=self._last_error,
            )

    # ----------------------------------------------------------------------------

    def _spool(self, op: ops.Op[None]) -> None:
        # The arguments are checked (and refused) here, before anything is
        # kept: only writes mdc can take are spooled.
        rpc, request = next(op)
        record = rpc.encode() + b"\n" + request.SerializeToString()
        with self._lock:
            held = self._held()
            size = sum(p.stat().st_size for p in held)
            if len(held) + 1 > self._max_writes or size + len(record) > self._max_bytes:
                raise ResourceExhausted(
                    f"the spool is full ({len(held)} writes, {size} bytes; at most {self._max_writes} writes "
                    f"and {self._max_bytes} bytes): mdc has been unavailable for long; nothing was spooled",
                    http_status=None, code="RESOURCE_EXHAUSTED", attempts=0)
            name = f"{self._next:020d}"
            self._next += 1
            tmp = self._dir / (name + ".tmp")
            with open(tmp, "wb") as f:
                f.write(record)
                f.flush()
                os.fsync(f.fileno())
            tmp.replace(self._dir / (name + _SUFFIX))
            _sync_dir(self._dir)
        self.flush()

    def _held(self) -> list[Path]:
        return sorted(self._dir.glob("*" + _SUFFIX))


def _sync_dir(directory: Path) -> None:
    """Makes a rename in ``directory`` survive a crash of the machine."""
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)

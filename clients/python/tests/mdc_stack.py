"""A running mdc for the tests: its own database, mdc-server and mdc-gateway.

Started and stopped by ``scripts/stack.sh``, the one launcher every suite
uses (docs/architecture.md, "Test stacks"): a database ``mdc_pytest_<random>``
created through the superuser URL in ``MDC_TEST_DATABASE_URL``, the binaries
named by ``MDC_SERVER_BIN`` and ``MDC_GATEWAY_BIN`` on free 127.0.0.1 ports,
the first admin bootstrapped through ``MDC_ADMIN_TOKEN``, and logs in the
stack's folder. Everything is stopped and dropped by :meth:`Stack.stop`, or
by the script when pytest dies (``--owner-pid``).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

#: Seconds between the heartbeats the server sends an idle watch
#: (MDC_WATCH_HEARTBEAT): short, so that the stream tests see heartbeats and
#: can use a short idle timeout.
WATCH_HEARTBEAT = 1
ENV_VARS = ("MDC_SERVER_BIN", "MDC_GATEWAY_BIN", "MDC_TEST_DATABASE_URL")
STACK_SH = Path(__file__).resolve().parents[3] / "scripts" / "stack.sh"


def missing_env() -> list[str]:
    """The environment variables a stack needs that are not set."""
    return [name for name in ENV_VARS if not os.environ.get(name)]


def free_addr() -> str:
    """A 127.0.0.1 address with a port nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        host, port = s.getsockname()
        return f"{host}:{port}"


def stack_sh(*args: str) -> str:
    """Runs scripts/stack.sh with args; its stdout, or RuntimeError with its stderr."""
    result = subprocess.run(["bash", str(STACK_SH), *args], capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        raise RuntimeError(f"stack.sh {' '.join(args[:2])}: {result.stderr.strip()}")
    return result.stdout


@dataclass
class Process:
    """One binary of a stack (name: "server" or "gateway"), run by stack.sh."""

    handle: str
    name: str
    log_path: Path

    def pid(self) -> int | None:
        try:
            return int((Path(self.handle) / f"{self.name}.pid").read_text())
        except (OSError, ValueError):
            return None

    def running(self) -> bool:
        pid = self.pid()
        if pid is None:
            return False
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            return False
        return state not in ("Z", "X")

    def start(self) -> None:
        """Starts it again with the same settings; returns once the stack is healthy."""
        stack_sh("resume", self.handle, self.name)

    def stop(self) -> None:
        """SIGTERM (the server drains), then SIGKILL after the grace period."""
        stack_sh("stop", self.handle, self.name)

    def kill(self) -> None:
        """SIGKILL: no drain, no clean end of its calls."""
        stack_sh("kill", self.handle, self.name)

    def log_tail(self, lines: int = 40) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])


@dataclass
class Stack:
    """One running mdc. Start with :func:`start_stack`."""

    handle: str
    admin_token: str
    http_addr: str
    grpc_addr: str
    db_name: str
    db_url: str
    log_dir: Path
    server: Process
    gateway: Process
    _stopped: bool = field(default=False)

    @property
    def base_url(self) -> str:
        return f"http://{self.http_addr}"

    def stop_server(self) -> None:
        """Stops mdc-server and leaves the gateway running (it answers 503)."""
        self.server.stop()

    def kill_server(self) -> None:
        """Kills mdc-server (SIGKILL) and leaves the gateway running."""
        self.server.kill()

    def start_server(self) -> None:
        """Starts mdc-server again on the same address and database and waits
        until /health answers 200 through the gateway."""
        self.server.start()

    def wait_healthy(self) -> None:
        """Returns once both processes run and /health answered 200 (the
        script waited for it when it started the last of them)."""
        for process in (self.server, self.gateway):
            if not process.running():
                raise RuntimeError(f"mdc-{process.name} is not running\n{self.logs()}")

    def logs(self) -> str:
        return "\n".join(
            f"--- mdc-{p.name} ({p.log_path}):\n{p.log_tail()}" for p in (self.server, self.gateway)
        )

    def stop(self, keep_logs: bool = False) -> None:
        """Stops the gateway, then the server, then drops the database."""
        if self._stopped:
            return
        self._stopped = True
        stack_sh("stop", self.handle, *(["--keep"] if keep_logs else []))


def start_stack() -> Stack:
    """Creates a database and starts mdc-server and mdc-gateway on it."""
    started = json.loads(stack_sh(
        "start", "--db-prefix", "mdc_pytest_", "--owner-pid", str(os.getpid()),
        "--server-env", f"MDC_WATCH_HEARTBEAT={WATCH_HEARTBEAT}",
    ))
    handle = started["handle"]
    return Stack(
        handle=handle,
        admin_token=started["admin_token"],
        http_addr=started["http_addr"],
        grpc_addr=started["grpc_addr"],
        db_name=started["database"],
        db_url=started["database_url"],
        log_dir=Path(started["dir"]),
        server=Process(handle, "server", Path(started["logs"]["server"])),
        gateway=Process(handle, "gateway", Path(started["logs"]["gateway"])),
    )


def psql(db_url: str, sql: str) -> str:
    """Runs one SQL command with psql and returns its unaligned output."""
    binary = shutil.which("psql") or "/usr/lib/postgresql/15/bin/psql"
    result = subprocess.run(
        [binary, "--no-psqlrc", "--quiet", "--tuples-only", "--no-align",
         "--set=ON_ERROR_STOP=1", f"--dbname={db_url}", f"--command={sql}"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    if result.returncode != 0:
        raise RuntimeError(f"psql {sql!r}: {result.stderr.strip()}")
    return result.stdout.strip()

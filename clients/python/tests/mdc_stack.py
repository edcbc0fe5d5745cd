"""A running mdc for the tests: its own database, mdc-server and mdc-gateway.

Mirrors the Go e2e harness (tests/e2e/stack_test.go): a database
``mdc_pytest_<random>`` created through the superuser URL in
``MDC_TEST_DATABASE_URL`` (with psql), the binaries named by
``MDC_SERVER_BIN`` and ``MDC_GATEWAY_BIN`` on free 127.0.0.1 ports, the first
admin bootstrapped through ``MDC_ADMIN_TOKEN``, and logs in a temporary
folder. Everything is stopped and dropped by :meth:`Stack.stop`.
"""

from __future__ import annotations

import base64
import ctypes
import os
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import httpx

HEALTH_TIMEOUT = 30.0
STOP_GRACE = 20.0
#: Seconds between the heartbeats the server sends an idle watch
#: (MDC_WATCH_HEARTBEAT): short, so that the stream tests see heartbeats and
#: can use a short idle timeout.
WATCH_HEARTBEAT = 1
ENV_VARS = ("MDC_SERVER_BIN", "MDC_GATEWAY_BIN", "MDC_TEST_DATABASE_URL")


def missing_env() -> list[str]:
    """The environment variables a stack needs that are not set."""
    return [name for name in ENV_VARS if not os.environ.get(name)]


def free_addr() -> str:
    """A 127.0.0.1 address with a port nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        host, port = s.getsockname()
        return f"{host}:{port}"


def random_token() -> str:
    """A token shaped like the service's: "mdc_" and 256 random bits."""
    return "mdc_" + base64.urlsafe_b64encode(secrets.token_bytes(32)).rstrip(b"=").decode()


def _die_with_parent() -> None:
    """In the child before exec: the kernel kills it when pytest dies, so no
    server outlives a crashed test run (Linux prctl PR_SET_PDEATHSIG)."""
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)
    except OSError:
        pass


@dataclass
class Process:
    """One child binary with its output appended to a log file."""

    name: str
    binary: str
    env: dict[str, str]
    log_path: Path
    popen: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        if self.running():
            raise RuntimeError(f"{self.name} is already running")
        with open(self.log_path, "ab") as log:
            log.write(f"==== pytest: starting {self.binary}\n".encode())
            self.popen = subprocess.Popen(
                [self.binary],
                env={**os.environ, **self.env},
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                preexec_fn=_die_with_parent,
            )

    def running(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def exited(self) -> str:
        """How the process ended, or "" while it runs (or never started)."""
        if self.popen is None or self.popen.poll() is None:
            return ""
        return f"{self.name} exited with status {self.popen.returncode}"

    def stop(self) -> None:
        """SIGTERM (the server drains), then SIGKILL after the grace period."""
        if self.popen is None or not self.running():
            return
        self.popen.send_signal(signal.SIGTERM)
        try:
            self.popen.wait(STOP_GRACE)
        except subprocess.TimeoutExpired as err:
            self.popen.kill()
            self.popen.wait()
            raise RuntimeError(f"{self.name} did not exit within {STOP_GRACE}s of SIGTERM") from err

    def kill(self) -> None:
        """SIGKILL: no drain, no clean end of its calls."""
        if self.popen is None or not self.running():
            raise RuntimeError(f"{self.name} is not running; nothing to kill")
        self.popen.kill()
        self.popen.wait(STOP_GRACE)

    def log_tail(self, lines: int = 40) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])


@dataclass
class Stack:
    """One running mdc. Start with :func:`start_stack`."""

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
        self.wait_healthy()

    def wait_healthy(self) -> None:
        deadline = time.monotonic() + HEALTH_TIMEOUT
        last = "no answer yet"
        with httpx.Client(timeout=2.0) as http:
            while True:
                for process in (self.server, self.gateway):
                    if ended := process.exited():
                        raise RuntimeError(f"{ended}\n{process.log_tail()}")
                try:
                    response = http.get(self.base_url + "/health")
                    if response.status_code == 200:
                        return
                    last = f"status {response.status_code}"
                except httpx.TransportError as exc:
                    last = str(exc)
                if time.monotonic() > deadline:
                    raise RuntimeError(
                        f"GET {self.base_url}/health did not answer 200 within {HEALTH_TIMEOUT}s "
                        f"(last: {last})\n{self.logs()}"
                    )
                time.sleep(0.1)

    def logs(self) -> str:
        return "\n".join(
            f"--- {p.name} ({p.log_path}):\n{p.log_tail()}" for p in (self.server, self.gateway)
        )

    def stop(self, keep_logs: bool = False) -> None:
        """Stops the gateway, then the server, then drops the database."""
        if self._stopped:
            return
        self._stopped = True
        problems = []
        for process in (self.gateway, self.server):
            try:
                process.stop()
            except RuntimeError as exc:
                problems.append(str(exc))
        try:
            psql(os.environ["MDC_TEST_DATABASE_URL"], f"DROP DATABASE IF EXISTS {self.db_name} WITH (FORCE)")
        except RuntimeError as exc:
            problems.append(str(exc))
        if not keep_logs and not problems:
            shutil.rmtree(self.log_dir, ignore_errors=True)
        if problems:
            raise RuntimeError("; ".join(problems) + f" (logs in {self.log_dir})")


def start_stack() -> Stack:
    """Creates a database and starts mdc-server and mdc-gateway on it."""
    super_url = os.environ["MDC_TEST_DATABASE_URL"]
    db_name = "mdc_pytest_" + secrets.token_hex(6)
    psql(super_url, f"CREATE DATABASE {db_name}")
    parts = urlsplit(super_url)
    db_url = urlunsplit(parts._replace(path="/" + db_name))
    log_dir = Path(tempfile.mkdtemp(prefix="mdc-pytest-"))
    admin_token = random_token()
    grpc_addr, http_addr = free_addr(), free_addr()
    server = Process(
        "mdc-server",
        os.environ["MDC_SERVER_BIN"],
        {
            "DATABASE_URL": db_url,
            "MDC_GRPC_ADDR": grpc_addr,
            "MDC_ADMIN_TOKEN": admin_token,
            "MDC_METRICS_ADDR": "",  # no metrics listener: ports stay free
            "MDC_DB_POOL_SIZE": "4",  # several stacks share one test cluster
            "MDC_SECRET_KEY": "",
            "MDC_BROKER_TOKEN_URL": "",
            "MDC_WATCH_HEARTBEAT": str(WATCH_HEARTBEAT),
        },
        log_dir / "server.log",
    )
    gateway = Process(
        "mdc-gateway",
        os.environ["MDC_GATEWAY_BIN"],
        {"MDC_HTTP_ADDR": http_addr, "MDC_GRPC_ADDR": grpc_addr},
        log_dir / "gateway.log",
    )
    stack = Stack(admin_token, http_addr, grpc_addr, db_name, db_url, log_dir, server, gateway)
    try:
        server.start()
        gateway.start()
        stack.wait_healthy()
    except BaseException:
        stack.stop(keep_logs=True)
        raise
    return stack


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

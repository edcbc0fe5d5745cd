"""A scripted local HTTP server for the transport tests: it answers each
request with the next reply of a script and records what it received."""

from __future__ import annotations

import json
import ssl
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass(frozen=True)
class Reply:
    status: int = 200
    body: object = field(default_factory=dict)
    # Answer only once the stub closes: a server that never answers in time
    # (a gate, not a delay: the client's timeout is what ends the wait).
    hold: bool = False
    headers: dict[str, str] = field(default_factory=dict)  # sent besides Content-Type/-Length


@dataclass
class Received:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Stub:
    base_url: str
    received: list[Received]


@contextmanager
def stub_server(*script: Reply, tls: ssl.SSLContext | None = None) -> Iterator[Stub]:
    """Serves ``script`` in order on 127.0.0.1; the last reply repeats. With
    ``tls`` (a server context holding a certificate), over HTTPS."""
    received: list[Received] = []
    lock = threading.Lock()
    closing = threading.Event()

    class Handler(BaseHTTPRequestHandler):
        def _answer(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            with lock:
                received.append(Received(self.command, self.path, dict(self.headers), body))
                reply = script[min(len(received), len(script)) - 1]
            if reply.hold:
                closing.wait()
            payload = json.dumps(reply.body).encode()
            try:
                self.send_response(reply.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(payload)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (timeout tests)

        do_GET = do_POST = do_PATCH = do_DELETE = do_PUT = _answer

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    if tls is not None:
        server.socket = tls.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        scheme = "https" if tls is not None else "http"
        yield Stub(f"{scheme}://127.0.0.1:{server.server_port}", received)
    finally:
        closing.set()
        server.shutdown()
        server.server_close()

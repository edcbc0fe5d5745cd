"""A TCP proxy for the tests that can make the connections it carries die
silently, as a network black hole does: no reset, no FIN, no error, just
nothing more. Connections accepted afterwards are forwarded normally.
"""

from __future__ import annotations

import socket
import threading


class BlackHoleProxy:
    """Listens on a free 127.0.0.1 port (``addr``) and forwards every
    connection to ``upstream`` ("host:port"). Close it when done."""

    def __init__(self, upstream: str) -> None:
        host, port = upstream.rsplit(":", 1)
        self._upstream = (host, int(port))
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.addr = f"127.0.0.1:{self._listener.getsockname()[1]}"
        self._lock = threading.Lock()
        self._sockets: list[socket.socket] = []
        self._holes: list[threading.Event] = []
        self._accepted = 0
        self._closed = False
        threading.Thread(target=self._accept_loop, daemon=True).start()

    @property
    def accepted(self) -> int:
        """Connections accepted so far."""
        with self._lock:
            return self._accepted

    def black_hole(self) -> None:
        """Every connection open now stops forwarding in both directions;
        its sockets stay open and what arrives on them is dropped."""
        with self._lock:
            for hole in self._holes:
                hole.set()

    def close(self) -> None:
        """Closes the listener and every connection (a blocked reader wakes)."""
        with self._lock:
            self._closed = True
            sockets, self._sockets = self._sockets, []
        self._listener.close()
        for sock in sockets:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            sock.close()

    def __enter__(self) -> BlackHoleProxy:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _accept_loop(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return  # closed
            try:
                upstream = socket.create_connection(self._upstream)
            except OSError:
                client.close()
                continue
            hole = threading.Event()
            with self._lock:
                if self._closed:
                    client.close()
                    upstream.close()
                    return
                self._accepted += 1
                self._sockets += [client, upstream]
                self._holes.append(hole)
            for src, dst in ((client, upstream), (upstream, client)):
                threading.Thread(target=_pipe, args=(src, dst, hole), daemon=True).start()


def _pipe(src: socket.socket, dst: socket.socket, hole: threading.Event) -> None:
    """Copies src to dst until src ends; once ``hole`` is set, drops
    everything and closes nothing."""
    while True:
        try:
            data = src.recv(65536)
        except OSError:
            return
        if hole.is_set():
            if not data:
                return  # the peer hung up: keep our side open regardless
            continue
        if not data:
            try:
                dst.shutdown(socket.SHUT_WR)
            except OSError:
                pass
            return
        try:
            dst.sendall(data)
        except OSError:
            return

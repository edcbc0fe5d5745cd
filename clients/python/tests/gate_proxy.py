"""A TCP proxy for the cut-download tests: it holds an answer after its
first bytes until the test releases it, so the test can kill mdc-server
while a download is surely under way (a gate, not a sleep), and it passes
on how the answer ended: a reset as a reset, a close as a close.
"""

from __future__ import annotations

import socket
import struct
import threading


class GateProxy:
    """Listens on a free 127.0.0.1 port (``addr``) and forwards each
    connection to ``upstream`` ("host:port"). ``first_bytes`` is set when
    the first bytes of an answer have been passed on; the answer then waits
    for ``release``. Close it when done."""

    def __init__(self, upstream: str) -> None:
        host, port = upstream.rsplit(":", 1)
        self._upstream = (host, int(port))
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.addr = f"127.0.0.1:{self._listener.getsockname()[1]}"
        self.first_bytes = threading.Event()
        self.release = threading.Event()
        self._lock = threading.Lock()
        self._sockets: list[socket.socket] = []
        threading.Thread(target=self._accept_loop, daemon=True).start()

    def close(self) -> None:
        self.release.set()
        self._listener.close()
        with self._lock:
            sockets, self._sockets = self._sockets, []
        for sock in sockets:
            sock.close()

    def __enter__(self) -> GateProxy:
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
            with self._lock:
                self._sockets += [client, upstream]
            threading.Thread(target=self._pipe, args=(client, upstream, False), daemon=True).start()
            threading.Thread(target=self._pipe, args=(upstream, client, True), daemon=True).start()

    def _pipe(self, src: socket.socket, dst: socket.socket, answer: bool) -> None:
        while True:
            try:
                data = src.recv(65536)
            except OSError:
                _reset(dst)  # src was reset: so is dst
                return
            if not data:
                try:
                    dst.shutdown(socket.SHUT_WR)
                except OSError:
                    pass
                return
            try:
                dst.sendall(data)
            except OSError:
                _reset(src)
                return
            if answer and not self.first_bytes.is_set():
                self.first_bytes.set()
                self.release.wait()


def _reset(sock: socket.socket) -> None:
    """Closes sock with a TCP reset (linger 0), not a FIN. The other pipe
    thread may be blocked reading sock, which keeps the socket alive past
    close(); shutting its reading side wakes that thread, and the reset
    goes out when the last reference is gone."""
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.shutdown(socket.SHUT_RD)
    except OSError:
        pass
    sock.close()

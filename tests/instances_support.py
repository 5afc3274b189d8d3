"""Several `courtside server --http` processes over one PostgreSQL and one Mosquitto, and a live page's
stream as a phone's browser holds it (EventSource: it sends its last event id back when it reconnects)."""

from __future__ import annotations

import json
import os
import signal
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

from tests.ports import free_port

ROOT = Path(__file__).resolve().parent.parent
# Until Caddy's front answers over TLS with its own certificate. Usually a second; but Caddy (certmagic) cleans
# its storage as it starts and, on a busy machine, can delete the certificate it is writing at that moment
# ("saving assets: ... no such file or directory"): it then tries again 60 s later. Seen once in four loaded runs.
CADDY_READY_S = 150.0


class Instance:
    """One `courtside server` process with its pages; stopped, or killed, by its pid."""

    def __init__(self, tournament: Path, db: str, broker: str, log: Path, *extra: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = log
        out = log.open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "courtside", "server", "--tournament", str(tournament), "--broker", broker,
             "--db", db, "--http", f"127.0.0.1:{self.port}", *extra], stdout=out, stderr=out, cwd=ROOT)
        out.close()

    def ready(self, timeout: float = 40.0) -> Instance:
        deadline = time.monotonic() + timeout
        while b"event=server_ready" not in self.log_path.read_bytes():
            assert self.process.poll() is None, self.log_path.read_text()
            assert time.monotonic() < deadline, "the server did not get ready"
            time.sleep(0.05)
        return self

    def kill(self) -> None:
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()


class Page:
    """What a live page holds of its regions, fed by its stream; ``last_id`` as EventSource keeps it."""

    def __init__(self, regions: list[str]) -> None:
        self.regions = regions
        self.html: dict[str, str] = {}
        self.last_id = ""
        self.received: list[str] = []  # the regions each event of the last connection carried, in order

    def query(self) -> str:
        return "&".join(f"r={quote(r, safe='/')}" for r in self.regions)

    def follow(self, base: str, until: Callable[[Page], bool] | None, timeout: float = 20.0, quiet: float = 2.0,
               resume: bool = True) -> None:
        """Connect to ``base``'s stream (with the last event id when ``resume``, as EventSource does) and take
        its events until ``until(self)`` holds after one, or after ``quiet`` s without one; with no ``until``,
        all it sends until it is quiet for ``quiet`` s."""
        scheme, _, address = base.partition("://")
        host, port = address.split(":")
        resumed = f"Last-Event-ID: {self.last_id}\r\n" if resume and self.last_id else ""
        self.received = []
        deadline = time.monotonic() + timeout
        with _connect(scheme, host, int(port)) as sock:
            sock.sendall(f"GET /live?{self.query()} HTTP/1.1\r\nHost: {host}\r\n{resumed}\r\n".encode())
            sock.settimeout(quiet)
            raw, head = b"", b""
            while True:
                assert time.monotonic() < deadline, f"not seen in {timeout} s; got {self.received}"
                try:
                    chunk = sock.recv(65536)
                except TimeoutError:
                    if until is None or until(self):
                        return
                    continue
                assert chunk, "the stream closed"
                raw += chunk
                if not head:
                    if b"\r\n\r\n" not in raw:
                        continue
                    head, _, raw = raw.partition(b"\r\n\r\n")
                    assert head.startswith(b"HTTP/1.1 200"), head
                raw, text = _unchunk(raw)
                for event in text.split("\n\n")[:-1] if text else ():
                    self._take(event)
                    if until is not None and until(self):
                        return
                raw = _leftover(text) + raw

    def _take(self, event: str) -> None:
        fields = dict(line.partition(": ")[::2] for line in event.split("\n") if line)
        if fields.get("event") == "region":
            data = json.loads(fields["data"])
            self.html[data["id"]] = data["html"]
            self.received.append(data["id"])
            self.last_id = fields.get("id", self.last_id)


def _connect(scheme: str, host: str, port: int) -> socket.socket:
    """A connection to ``host`` (a name in /etc/hosts or not: always loopback), over TLS for https, where
    the certificate is the front's own (tests/test_web_front.py checks it as a device that trusts it)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    if scheme != "https":
        return sock
    context = ssl.create_default_context()
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
    return context.wrap_socket(sock, server_hostname=host)


def _unchunk(raw: bytes) -> tuple[bytes, str]:
    """The whole chunks of a chunked body as text, and the bytes after them."""
    out = b""
    while True:
        size_line, sep, rest = raw.partition(b"\r\n")
        if not sep:
            return raw, out.decode()
        size = int(size_line, 16)
        if len(rest) < size + 2:
            return raw, out.decode()
        out, raw = out + rest[:size], rest[size + 2:]


def _leftover(text: str) -> bytes:
    """An event split over two chunks: its first part, chunked again to be read with the next ones."""
    tail = text.rpartition("\n\n")[2].encode()
    return f"{len(tail):x}\r\n".encode() + tail + b"\r\n" if tail else b""

"""`courtside server` under systemd: ready even while the broker is unreachable, and it keeps trying.

A real process with a real NOTIFY_SOCKET (a unix datagram socket the test reads, as systemd's) and a
broker port with nothing on it; the Mosquitto that is started there later is found without a restart.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tests.service_support import HOCKEY

ROOT = Path(__file__).resolve().parent.parent


def notes(sock: socket.socket, until: str, seen: list[str], deadline: float) -> list[str]:
    """The notify messages received until one containing ``until`` (or the deadline)."""
    while not any(until in n for n in seen) and time.monotonic() < deadline:
        try:
            seen.extend(sock.recv(4096).decode().split("\n"))
        except TimeoutError:
            continue
    return seen


def test_ready_for_systemd_with_no_broker_then_connects_when_it_comes(mosquitto: Any, tmp_path: Path) -> None:
    broker = mosquitto(run=False)  # its port is chosen; nothing listens there yet
    sock_path = tmp_path / "notify.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(sock_path))
    sock.settimeout(0.5)
    log = tmp_path / "server.log"
    env = {**os.environ, "NOTIFY_SOCKET": str(sock_path)}
    with log.open("wb") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "courtside", "server", "--tournament", str(HOCKEY), "--broker", broker.url,
             "--db", str(tmp_path / "cup.db")], stdout=out, stderr=out, cwd=ROOT, env=env)
    try:
        seen: list[str] = []
        notes(sock, "STATUS=waiting for the broker", seen, time.monotonic() + 60)
        assert "READY=1" in seen, (seen, log.read_text())
        assert f"STATUS=waiting for the broker at 127.0.0.1:{broker.port}" in seen
        deadline = time.monotonic() + 30
        while b"event=broker_unreachable" not in log.read_bytes() and time.monotonic() < deadline:
            time.sleep(0.05)
        text = log.read_text()
        assert "event=broker_unreachable" in text and "retrying=true" in text, text
        assert server.poll() is None, "the server must keep running without its broker"
        assert "event=server_ready" not in text  # not subscribed to anything yet

        broker.start()
        notes(sock, "STATUS=serving", seen, time.monotonic() + 30)
        assert "STATUS=serving indoor-hockey" in seen, (seen, log.read_text())
        deadline = time.monotonic() + 30
        while b"event=server_ready" not in log.read_bytes() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert "event=server_ready" in log.read_text()
        assert seen.count("READY=1") == 1
    finally:
        if server.poll() is None:
            os.kill(server.pid, signal.SIGTERM)
            server.wait(15)
        sock.close()

"""sd_notify over a real unix datagram socket, as systemd listens for it."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from firmware.notify import sd_notify, watchdog_interval


def test_ready_and_watchdog_reach_the_socket(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "notify"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(str(path))
        monkeypatch.setenv("NOTIFY_SOCKET", str(path))
        assert sd_notify("READY=1")
        assert sd_notify("WATCHDOG=1")
        assert server.recv(64) == b"READY=1"
        assert server.recv(64) == b"WATCHDOG=1"


def test_without_systemd_nothing_is_sent(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    monkeypatch.delenv("WATCHDOG_USEC", raising=False)
    assert not sd_notify("READY=1")
    assert watchdog_interval() is None
    monkeypatch.setenv("WATCHDOG_USEC", "20000000")
    assert watchdog_interval() == 10.0

"""Slow and greedy clients against the served pages (real service, real uvicorn): half-sent requests are
closed, connections and live streams are capped per address, and other visitors are still served;
no page but the stream overlay may be framed.

Regression tests for issue 21: 1,050 half-sent requests used up the file descriptors and were never
closed, every page then timed out; there was no limit on /live streams; any site could frame the desk.
"""

from __future__ import annotations

import contextlib
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from server.web.limits import CONNECTIONS_PER_ADDRESS, STREAMS_PER_ADDRESS
from server.web.serve import WebServer, start_web
from tests.ports import free_port
from tests.service_support import running_service


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, WebServer]]:
    from tests.conftest import PLAIN_CONF, Broker

    tmp = tmp_path_factory.mktemp("limits")
    broker = Broker(PLAIN_CONF, tmp)
    broker.start()
    db = f"sqlite:///{tmp / 'courtside.db'}"
    port = free_port()
    try:
        with running_service(db, broker.url) as service:
            web = start_web(service, f"127.0.0.1:{port}", db, request_timeout=1.0)
            try:
                yield f"http://127.0.0.1:{port}", web
            finally:
                web.stop()
    finally:
        broker.stop()


def _port(url: str) -> int:
    return int(url.rsplit(":", 1)[1])


def test_a_half_sent_request_is_closed_and_others_are_served_meanwhile(served: tuple[str, WebServer]) -> None:
    url, web = served
    before = web.protocol.closed_slow
    slow = []
    for _ in range(20):
        s = socket.create_connection(("127.0.0.1", _port(url)))
        s.sendall(b"GET / HTTP/1.1\r\nHost: venue\r\nX-Slow: ")  # and then a byte now and then
        slow.append(s)
    assert httpx.get(url + "/", timeout=5).status_code == 200
    for s in slow:
        s.sendall(b"a")
    for s in slow:
        s.settimeout(5)
        with contextlib.suppress(ConnectionResetError):  # aborted: as closed
            assert s.recv(1024) == b""  # closed by the server, no answer
        s.close()
    assert web.protocol.closed_slow - before == 20


def test_an_idle_connection_after_an_answer_is_closed_too(served: tuple[str, WebServer]) -> None:
    url, _ = served
    with socket.create_connection(("127.0.0.1", _port(url))) as s:
        s.sendall(b"GET /api/v1/tournament HTTP/1.1\r\nHost: venue\r\n\r\n")
        s.settimeout(5)
        answer = b""
        while b"\r\n\r\n" not in answer:
            answer += s.recv(65536)
        head, body = answer.split(b"\r\n\r\n", 1)
        assert head.startswith(b"HTTP/1.1 200")
        length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
        while len(body) < length:
            body += s.recv(65536)
        s.sendall(b"GET / HTTP/1.1\r\n")  # the next request, never finished
        with contextlib.suppress(ConnectionResetError):  # aborted: as closed
            assert s.recv(65536) == b""  # closed, with no answer (a timeout here: it stayed open)


def test_connections_are_capped_per_address(served: tuple[str, WebServer]) -> None:
    url, web = served
    before = web.protocol.refused
    held = [socket.create_connection(("127.0.0.1", _port(url))) for _ in range(CONNECTIONS_PER_ADDRESS)]
    try:
        _open_from_here(web, CONNECTIONS_PER_ADDRESS)  # every one accepted by the server's loop
        extra = socket.create_connection(("127.0.0.1", _port(url)))
        extra.settimeout(5)
        with contextlib.suppress(ConnectionResetError):
            assert extra.recv(1024) == b""
        extra.close()
        assert web.protocol.refused - before == 1
    finally:
        for s in held:
            s.close()
    _open_from_here(web, 0)  # the server has seen them close (a loaded machine takes a while)
    assert httpx.get(url + "/", timeout=5).status_code == 200  # given back when they close


def _open_from_here(web: WebServer, count: int) -> None:
    """Wait until the server counts ``count`` connections open from this address (the thing itself, not a
    sleep that a loaded machine outlasts)."""
    deadline = time.monotonic() + 30
    while web.protocol.open_by_address.get("127.0.0.1", 0) != count:
        assert time.monotonic() < deadline, f"{web.protocol.open_by_address} open, waiting for {count}"
        time.sleep(0.02)


def test_live_streams_are_capped_per_address(served: tuple[str, WebServer]) -> None:
    url, _ = served
    streams: list[Any] = []
    with httpx.Client(base_url=url, timeout=10, limits=httpx.Limits(max_connections=100)) as client:
        try:
            for _ in range(STREAMS_PER_ADDRESS):
                r = client.stream("GET", "/live", params={"r": "courts"})
                streams.append(r)
                assert r.__enter__().status_code == 200
            assert client.get("/live", params={"r": "courts"}).status_code == 429
        finally:
            for r in streams:
                r.__exit__(None, None, None)
        deadline = time.monotonic() + 10
        while True:
            with client.stream("GET", "/live", params={"r": "bracket"}) as again:
                if again.status_code == 200:
                    break
            assert time.monotonic() < deadline, "the closed streams' places were not given back"
            time.sleep(0.2)


def test_no_page_may_be_framed_but_the_overlay(served: tuple[str, WebServer]) -> None:
    url, _ = served
    for path in ("/", "/desk/login", "/court/Hall%201", "/api/v1/tournament", "/team/nobody"):
        r = httpx.get(url + path, timeout=5)
        assert r.headers["x-frame-options"] == "DENY", path
        assert "frame-ancestors 'none'" in r.headers["content-security-policy"], path
    overlay = httpx.get(url + "/court/Hall%201/overlay", timeout=5)
    assert overlay.status_code == 200
    assert "x-frame-options" not in overlay.headers
    assert "frame-ancestors *" in overlay.headers["content-security-policy"]


def test_the_unit_leaves_room_for_the_connections() -> None:
    unit = (Path(__file__).resolve().parent.parent / "systemd" / "courtside-server.service").read_text()
    from server.web.limits import CONNECTIONS

    limit = int(unit.split("LimitNOFILE=", 1)[1].split()[0])
    assert limit > CONNECTIONS + 1000

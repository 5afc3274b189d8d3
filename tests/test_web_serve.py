"""--http: the pages served from the service's own process, on the address given, and stopped with it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from rules.errors import CourtsideError
from server.web.serve import parse_http, start_web
from tests.ports import free_port
from tests.service_support import running_service


def test_start_and_stop(mosquitto: Any, tmp_path: Path) -> None:
    broker = mosquitto()
    db = f"sqlite:///{tmp_path / 'courtside.db'}"
    port = free_port()
    with running_service(db, broker.url) as service:
        web = start_web(service, f"127.0.0.1:{port}", db)
        try:
            body = httpx.get(f"http://127.0.0.1:{port}/api/v1/tournament", timeout=10).json()
            assert body["name"] == service.plan.cup.classes[0].tournament.name
        finally:
            web.stop()
        with pytest.raises(httpx.ConnectError):
            httpx.get(f"http://127.0.0.1:{port}/", timeout=2)


@pytest.mark.parametrize("bad", ["localhost", "host:0", "host:http", "host:70000"])
def test_a_bad_address_is_refused(bad: str) -> None:
    with pytest.raises(CourtsideError, match="HOST:PORT"):
        parse_http(bad)


def test_addresses() -> None:
    assert parse_http("0.0.0.0:8080") == ("0.0.0.0", 8080)
    assert parse_http("[::1]:8080") == ("::1", 8080)
    assert parse_http(":8080") == parse_http("8080") == ("127.0.0.1", 8080)

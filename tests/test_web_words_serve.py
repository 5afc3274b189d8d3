"""`courtside server --http`: the pages take the tournament file's language (here the Slovak indoor cup)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from standings.plan import load_plan
from standings.web.serve import start_web
from tests.service_support import running_service
from tests.web_support import free_port

SLOVAK = Path(__file__).resolve().parents[1] / "rules" / "examples" / "indoor-football.toml"


def test_the_served_pages_speak_the_tournaments_language(mosquitto: Any, tmp_path: Path) -> None:
    broker = mosquitto()
    db = f"sqlite:///{tmp_path / 'courtside.db'}"
    port = free_port()
    with running_service(db, broker.url, load_plan(str(SLOVAK))) as service:
        web = start_web(service, f"127.0.0.1:{port}", db)
        try:
            home = httpx.get(f"http://127.0.0.1:{port}/", timeout=10).text
            pool = httpx.get(f"http://127.0.0.1:{port}/pool/A", timeout=10).text
        finally:
            web.stop()
    assert '<html lang="sk">' in home and "Na ihriskách" in home and "On the courts" not in home
    assert "Skupina A" in pool and ">SG<" in pool and "Pool A" not in pool

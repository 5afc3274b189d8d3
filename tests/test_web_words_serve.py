"""`courtside server --http`: the pages take the tournament file's language (here the Slovak indoor cup)."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path
from typing import Any

import httpx

from server.plan import load_plan
from server.web.serve import start_web
from tests.ports import free_port
from tests.service_support import TableClient, played, running_service

SLOVAK = Path(__file__).resolve().parents[1] / "rules" / "examples" / "indoor-football.toml"


def test_the_served_pages_speak_the_tournaments_language(mosquitto: Any, tmp_path: Path) -> None:
    broker = mosquitto()
    db = f"sqlite:///{tmp_path / 'courtside.db'}"
    port = free_port()
    with running_service(db, broker.url, load_plan(str(SLOVAK))) as service:
        web = start_web(service, f"127.0.0.1:{port}", db)
        table = TableClient(broker.url, service.plan.id, "hall-1")
        try:
            home = httpx.get(f"http://127.0.0.1:{port}/", timeout=10).text
            table.play("1", *played(service.plan.rulesets[""], 2, 0))  # a result: the places get their reasons
            table.wait_for("table", lambda m: m.payload["pool"] == "A" and m.payload["played"] == 1)
            pool = httpx.get(f"http://127.0.0.1:{port}/pool/A", timeout=10).text
        finally:
            table.close()
            web.stop()
    assert '<html lang="sk">' in home and "Na ihriskách" in home and "On the courts" not in home
    assert "Skupina A" in pool and ">SG<" in pool and "Pool A" not in pool
    # Each place's reason in Slovak too, from the phrases of the table the service ranked.
    reasons = " ".join(unescape(r) for r in re.findall(r'<span class="why">([^<]*)</span>', pool))
    assert "pred na body" in reasons and "ahead on" not in reasons and "level with" not in reasons

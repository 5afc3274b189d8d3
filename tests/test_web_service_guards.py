"""Every desk route and API write, from the app's own route table, refuses a visitor and a form without
its CSRF token when the app runs over the real service (a SQLite store and a real broker): nothing reaches
the service's loop, its change log, its results, its schedule or the rulings."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from server import queries
from server.plan import load_plan
from server.rulings import Rulings
from server.web import create_app
from server.web.service_backend import ServiceBackend
from tests.service_support import running_service
from tests.web_support import PASSWORD, concrete_path, desk_client, guarded_routes

YOUTH = Path(__file__).resolve().parent.parent / "rules" / "examples" / "youth-football.toml"


def test_over_the_service_every_desk_route_and_api_write_refuses_a_visitor_and_a_missing_token(
        mosquitto: Any, tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    broker = mosquitto()
    db = f"sqlite:///{tmp_path / 'courtside.db'}"
    with running_service(db, broker.url, plan=load_plan(YOUTH)) as service:
        app = create_app(ServiceBackend(service), accounts_url=db, lang="en", secure_cookies=False)
        app.state.site.accounts.add("anna", PASSWORD)
        guarded = guarded_routes(app)
        assert {"/desk/sanction", "/api/v1/desk/decisions"} <= {path for _, path in guarded}
        schedule = queries.schedule(service.store)
        # Bodies that would each change something, were they let through.
        fields = {"why": "x", "home_goals": "1", "away_goals": "0", "kind": "walkover", "settle": "tie",
                  "court": "Plan 2", "start": "2026-05-16T18:00", "pool": "A", "method": "lots", "keep": "held",
                  "number": "1", "team": "AIK P14", "player": "7", "matches": "2"}
        with TestClient(app, base_url="http://127.0.0.1") as visitor:
            for method, path in guarded:
                answer = visitor.request(method, concrete_path(path), data=fields, follow_redirects=False)
                if method == "GET":
                    assert answer.status_code == 303 and answer.headers["location"].startswith("/desk/login")
                else:
                    assert answer.status_code == 403, (path, answer.text)
        with desk_client(app) as (organiser, _token):
            for method, path in guarded:
                if method != "POST":
                    continue
                for bad in ({}, {"csrf": "forged"}):
                    answer = organiser.post(concrete_path(path), data={**fields, **bad},
                                            headers={"x-csrf-token": bad.get("csrf", "")}, follow_redirects=False)
                    assert answer.status_code == 403, (path, bad, answer.text)
            assert organiser.get("/desk").status_code == 200  # still logged in: only the writes were refused
        assert queries.change_log(service.store) == []
        assert queries.results(service.store) == []
        assert queries.schedule(service.store) == schedule
        assert Rulings(service.store.engine).all() == []

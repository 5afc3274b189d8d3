"""The pages' backend over the service's store, on SQLite and PostgreSQL: a desk result goes through
the service's loop and its audit; the protest window (youth football: one hour) runs on the stored
instant; a refusal changes nothing."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from rules.standings import MatchResult
from standings.plan import load_plan
from standings.web import create_app
from standings.web.errors import DeskRefused
from standings.web.inputs import CorrectResult, MoveMatch
from standings.web.service_backend import ServiceBackend
from standings.web.view import View
from tests.service_support import running_service

YOUTH = Path(__file__).resolve().parent.parent / "rules" / "examples" / "youth-football.toml"


def test_a_desk_result_is_stored_audited_and_provisional(mosquitto: Any, db_url: str) -> None:
    broker = mosquitto()
    with running_service(db_url, broker.url, plan=load_plan(YOUTH)) as service:
        backend = ServiceBackend(service)
        first = View(backend.data()).by_number[1]
        result = MatchResult(pool=first.stage, home=first.home, away=first.away, home_goals=2, away_goals=2)
        backend.submit(CorrectResult(who="anna", why="scoresheet", number=1, result=result))
        view = View(backend.data())
        row = view.by_number[1]
        assert row.recorded is not None and row.recorded.result.home_goals == 2 and row.recorded.by == "organiser"
        assert row.locked_at is not None and abs(row.locked_at - (datetime.now() + timedelta(hours=1))) < timedelta(
            minutes=5)
        assert not row.locked(view.data.now) and row.locked(view.data.now + timedelta(hours=2))
        assert view.data.audit[-1].who == "anna" and view.data.audit[-1].why == "scoresheet"
        before = backend.data()
        with pytest.raises(DeskRefused, match="not one of the courts"):
            backend.submit(MoveMatch(who="anna", why="x", number=1, court="Centre Court", start=row.start))
        assert backend.data() is before
        with TestClient(create_app(backend, accounts_url=db_url, lang="en", secure_cookies=False)) as client:
            page = client.get(f"/pool/{first.stage}")
        assert page.status_code == 200 and "provisional until" in page.text

"""The JSON API and the CSV exports carry what the pages show."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from starlette.routing import Route
from starlette.testclient import TestClient

from courtside.demo.progress import results_csv_for_show
from server.web import create_app
from server.web.api import spreadsheet_text
from server.web.view import View
from tests.web_day import EXAMPLE, sample_day


@pytest.fixture(scope="module")
def client() -> Iterator[tuple[TestClient, View]]:
    with sample_day() as day, TestClient(create_app(day.backend, secure_cookies=False)) as c:
        yield c, day.view()


def test_pool(client: tuple[TestClient, View]) -> None:
    c, view = client
    body = c.get("/api/v1/pools/C").json()
    table = view.table("C")
    assert table is not None
    assert [(r["team"], r["points"], r["reason"]) for r in body["table"]] == [
        (r.team, r.points, r.reason) for r in table.rows]
    assert body["unresolved"] and "lots" in body["unresolved"][0]["needs"]
    assert body["played"] == 4 and body["expected"] == 6
    assert c.get("/api/v1/pools/Z").status_code == 404


def test_matches_courts_teams_ranking(client: tuple[TestClient, View]) -> None:
    c, view = client
    matches = c.get("/api/v1/matches").json()["matches"]
    assert len(matches) == len(view.matches)
    first = c.get("/api/v1/matches/1").json()["match"]
    locked_at = view.by_number[1].locked_at  # an hour after the table's result was stored (seed 003)
    assert locked_at is not None
    assert first["result"]["home_goals"] == 2 and first["provisional_until"] == f"{locked_at:%Y-%m-%dT%H:%M:%S}"
    assert first["locked"] is False
    live = [m for m in matches if m["live"]]
    court = c.get(f"/api/v1/courts/{live[0]['court']}").json()
    assert court["now"]["number"] == live[0]["number"] and court["live"]["home_goals"] == 2
    team = c.get(f"/api/v1/teams/{view.by_number[1].home}").json()
    assert {m["number"] for m in team["matches"]} >= {1}
    assert len(c.get("/api/v1/ranking").json()["ranking"]) == 12


def test_csv_exports(client: tuple[TestClient, View]) -> None:
    c, view = client
    results = list(csv.DictReader(io.StringIO(c.get("/api/v1/results.csv").text)))
    assert len(results) == len(view.data.results)
    assert results[0]["home"] == view.by_number[int(results[0]["number"])].home
    standings = list(csv.DictReader(io.StringIO(c.get("/api/v1/standings.csv").text)))
    assert {row["pool"] for row in standings} == {"A", "B", "C"} and len(standings) == 12


def test_a_name_a_spreadsheet_would_run_is_exported_as_text(tmp_path: Path) -> None:
    """Issue 31: a team named like a formula was written as one; a spreadsheet opening results.csv ran it."""
    text = EXAMPLE.read_text(encoding="utf-8")
    text = text.replace('"IFK Göteborg P14"', """'=HYPERLINK("http://x","IFK")'""").replace(
        '"Hammarby IF P14"', '"+Hammarby IF P14"').replace('"Malmö FF P14"', '"@Malmö FF P14"')
    example = tmp_path / "formulas.toml"
    example.write_text(text, encoding="utf-8")
    with sample_day(12, example=example) as day, TestClient(create_app(day.backend, secure_cookies=False)) as c:
        for path in ("/api/v1/results.csv", "/api/v1/standings.csv"):
            cells = [cell for row in csv.reader(io.StringIO(c.get(path).text)) for cell in row]
            teams = [cell for cell in cells if "Hammarby" in cell or "HYPERLINK" in cell or "Malmö" in cell]
            assert teams and all(cell[0] == "'" for cell in teams), path
            assert not any(cell[:1] in ("=", "+", "@") for cell in cells), path
        shown = results_csv_for_show(c.get("/api/v1/results.csv").text)  # tournament show reads the names back
        assert '"+Hammarby IF P14"' in shown or "+Hammarby IF P14" in shown
    assert spreadsheet_text("-3") == "'-3" and spreadsheet_text("Djurgården") == "Djurgården"


def _spec() -> dict[str, Any]:
    spec: dict[str, Any] = yaml.safe_load((Path(__file__).parent.parent / "docs" / "openapi.yaml").read_text())
    return spec


def test_every_api_route_is_described_and_nothing_else(client: tuple[TestClient, View]) -> None:
    app: Any = client[0].app
    served = {
        (m, re.sub(r":\w+\}", "}", r.path.removeprefix("/api/v1")))
        for r in app.routes if isinstance(r, Route) and r.path.startswith("/api/v1")
        for m in (r.methods or ()) if m != "HEAD"
    }
    described = {(m.upper(), path) for path, ops in _spec()["paths"].items() for m in ops}
    assert served == described


@pytest.mark.parametrize(("path", "schema"), [("/pools/C", "Pool"), ("/tournament", "Tournament"),
                                              ("/courts/Plan 2", "Court")])
def test_answers_fit_the_description(client: tuple[TestClient, View], path: str, schema: str) -> None:
    c, _ = client
    spec = _spec()
    validator = jsonschema.Draft202012Validator(
        {"$ref": f"#/components/schemas/{schema}", "components": spec["components"]})
    validator.validate(c.get(f"/api/v1{path}").json())

"""The public pages, the JSON API and the CSV exports over the real service (a SQLite store, Mosquitto, a
table playing a semi-final): every JSON answer fits docs/openapi.yaml, the exports hold what is stored, the
printable pool page, the bracket, the ranking, a team's page and the courts' now and next. These were proven
on the in-memory backend only."""

from __future__ import annotations

import csv
import html
import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import jsonschema
import pytest
import yaml
from starlette.testclient import TestClient

from rules.ruleset import load_ruleset
from rules.standings import MatchResult
from server import queries
from server.desk_commands import CorrectResult
from server.service import Service
from server.web import create_app
from server.web.service_backend import ServiceBackend
from server.web.view import View
from tests.service_support import TableClient, played, running_service

RULES = load_ruleset("indoor-hockey")
SPEC: dict[str, Any] = yaml.safe_load((Path(__file__).parent.parent / "docs" / "openapi.yaml").read_text())


@pytest.fixture(scope="module")
def day(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Service, TestClient, View]]:
    """Pools A and B played (each pool's first-listed team best, no ties), SF1 played through Hall 1's table."""
    from tests.conftest import PLAIN_CONF, Broker

    tmp = tmp_path_factory.mktemp("served")
    broker = Broker(PLAIN_CONF, tmp)
    broker.start()
    db = f"sqlite:///{tmp / 'courtside.db'}"
    try:
        with running_service(db, broker.url) as service:
            backend = ServiceBackend(service)
            view = View(backend.data())
            teams = service.plan.entry_teams  # each pool's teams as the file lists them
            for m in view.matches:
                if m.stage in ("A", "B"):
                    order = list(teams[m.stage])
                    home_better = order.index(m.home) < order.index(m.away)
                    result = MatchResult(pool=m.stage, home=m.home, away=m.away, home_goals=3 if home_better else 0,
                                         away_goals=0 if home_better else 3)
                    backend.submit(CorrectResult(who="anna", why="score sheet", number=m.number, result=result))
            sf1 = next(m for m in View(backend.data()).matches if m.stage == "SF1")
            court = next(cid for cid, name in service.plan.courts.items() if name == sf1.court)
            table = TableClient(broker.url, service.plan.id, court)
            try:
                events, sent = played(RULES, 1, 2, kind="knockout", round="semi_final")
                table.play(str(sf1.number), events, sent)
                table.wait_for("ack", lambda m: m.payload["of"] == "result")
            finally:
                table.close()
            with TestClient(create_app(backend, accounts_url=db, lang="en", secure_cookies=False)) as client:
                yield service, client, View(backend.data())
    finally:
        broker.stop()


def _rows(service: Service, pool: str) -> list[Any]:
    table = queries.pool_tables(service.store)[pool].table
    assert table is not None
    return list(table.rows)


def _json_reads() -> list[str]:
    return [path for path, ops in SPEC["paths"].items()
            if "get" in ops and "application/json" in ops["get"]["responses"]["200"].get("content", {})]


@pytest.mark.parametrize("path", _json_reads())
def test_every_json_answer_fits_its_description(day: Any, path: str) -> None:
    _, client, view = day
    sf1 = next(m for m in view.matches if m.stage == "SF1")
    concrete = (path.replace("{pool}", "A").replace("{number}", str(sf1.number)).replace("{court}", quote("Hall 1"))
                .replace("{team}", quote(sf1.away)))
    answer = client.get(f"/api/v1{concrete}")
    assert answer.status_code == 200, answer.text
    schema = SPEC["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    jsonschema.Draft202012Validator({**schema, "components": SPEC["components"]}).validate(answer.json())


def test_the_api_carries_what_the_service_holds(day: Any) -> None:
    service, client, view = day
    sf1 = next(m for m in view.matches if m.stage == "SF1")
    match = client.get(f"/api/v1/matches/{sf1.number}").json()["match"]
    assert (match["home"], match["away"], match["teams_known"]) == (sf1.home, sf1.away, True)
    assert match["result"]["home_goals"] == 1 and match["result"]["winner"] == sf1.away
    assert match["result"]["by"] == "table"
    pool = client.get("/api/v1/pools/A").json()
    assert [r["team"] for r in pool["table"]] == [r.team for r in _rows(service, "A")]
    assert pool["played"] == pool["expected"] == 6 and pool["unresolved"] == []


def test_the_csv_exports_hold_the_stored_results_and_tables(day: Any) -> None:
    service, client, _ = day
    answer = client.get("/api/v1/results.csv")
    assert answer.headers["content-type"].startswith("text/csv")
    results = list(csv.DictReader(io.StringIO(answer.text)))
    stored = {r.match_id: r for r in queries.results(service.store)}
    assert {r["number"] for r in results} == set(stored) and len(results) == 13
    for row in results:
        r = stored[row["number"]]
        assert (row["home"], row["away"], int(row["home_goals"]), int(row["away_goals"])) == (
            r.home, r.away, r.home_goals, r.away_goals)
        assert row["recorded_by"] == ("table" if r.source == "table" else "anna")  # the account, as the audit
    standings = list(csv.DictReader(io.StringIO(client.get("/api/v1/standings.csv").text)))
    tables = queries.pool_tables(service.store)
    expected = [(name, str(row.rank), row.team, str(row.points), row.reason)
                for name in ("A", "B", "C") if tables[name].table is not None for row in _rows(service, name)]
    assert [(r["pool"], r["rank"], r["team"], r["points"], r["reason"]) for r in standings] == expected


def test_the_printable_pool_page_is_the_table_without_the_live_parts(day: Any) -> None:
    service, client, _ = day
    page = html.unescape(client.get("/pool/A/print").text)
    teams = [t for t in re.findall(r'<th scope="row"><a href="[^"]+">([^<]+)</a>', page)]
    assert teams == [r.team for r in _rows(service, "A")]
    assert "<script" not in page and "data-region" not in page and "As of" in page
    assert page.count("3–0") + page.count("0–3") == 6  # every match of the pool with its score


def test_pool_c_lists_the_results_it_carries_forward_so_its_table_adds_up(day: Any) -> None:
    """Issue 19's fourth fault: each team of pool C showed 1 played with no match listed."""
    service, client, _ = day
    page = html.unescape(client.get("/pool/C").text)
    assert "Carried forward from the first pools" in page
    carried = page[page.index("Carried forward from the first pools"):]
    rows = _rows(service, "C")
    assert rows and all(r.played == 1 for r in rows)  # the meeting from their first pool, before pool C plays
    listed = re.findall(r'<td class="pair">(.*?)</td>', carried, re.S)
    assert len(listed) == 2  # 3A v 4A and 3B v 4B, as played in pools A and B
    for r in rows:  # every played match the table counts is on the page
        assert sum(r.team in pair for pair in listed) == r.played, (r.team, listed)


def test_the_bracket_ranking_team_and_courts_follow_the_results(day: Any) -> None:
    _, client, view = day
    sf1 = next(m for m in view.matches if m.stage == "SF1")
    bracket = html.unescape(client.get("/bracket").text)
    tie = bracket[bracket.index("<b>SF1</b>"):]
    tie = tie[:tie.index("</article>")]
    assert f'<p class="side won"><a href="/team/{quote(sf1.away)}">{sf1.away}</a>' in tie and "1–2" in tie
    final = next(m for m in view.matches if m.stage == "F")
    assert final.home == sf1.away and final.away == "winner SF2"  # the winner goes on, SF2 still to play
    ranking = html.unescape(client.get("/ranking").text)
    assert ranking.count("waiting for") == 8  # no place is known before the final and pool C
    team = html.unescape(client.get(f"/team/{quote(sf1.away)}").text)
    assert "Next match" in team and f"<b>{final.start:%H:%M}</b> · <b>{final.court}</b>" in team
    assert "1–2" in team  # the semi-final it won, among its past matches
    courts = html.unescape(client.get("/").text)
    for court in view.courts:
        now, following = view.now_and_next(court)
        assert now is not None and following is not None
        card = courts[courts.index(f">{court}</a>"):]
        card = card[:card.index("</section>")]
        assert f"{now.start:%H:%M}" in card and f"{following.start:%H:%M}" in card

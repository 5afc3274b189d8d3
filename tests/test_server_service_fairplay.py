"""server/fairplay.py through the service, against a real Mosquitto and database: a pool ranked by
fair play counts the cards in the match logs the courts sent, and a result without a log leaves its
teams' disciplinary points unknown, so a tie that needs them stays unresolved."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rules.ruleset import load_ruleset, preset_text
from server import desk, queries
from server.plan import load_plan
from tests.service_support import TableClient, played, running_service

EXAMPLES = Path(__file__).resolve().parent.parent / "rules" / "examples"


def fair_play_cup(tmp_path: Path) -> Path:
    """Seed 003's example cup, its ranking going from goals scored to fair play (UEFA's points)."""
    rules = preset_text("youth-football").replace(
        'criteria = ["points", "goal_difference", "goals_for", "head_to_head", "lots"]',
        'criteria = ["points", "goal_difference", "goals_for", "fair_play", "lots"]',
    ) + '\n[ranking.fair_play]\ncards = { yellow = 1, second_yellow = 3, red = 3, yellow_then_red = 4 }\n'
    (tmp_path / "fair-play.toml").write_text(rules, encoding="utf-8")
    cup = (EXAMPLES / "youth-football.toml").read_text(encoding="utf-8")
    assert 'ruleset = "youth-football"' in cup
    path = tmp_path / "cup.toml"
    path.write_text(cup.replace('ruleset = "youth-football"', 'ruleset = "fair-play.toml"'), encoding="utf-8")
    return path


def test_the_cards_in_the_match_logs_decide_a_tie_on_fair_play(mosquitto: Any, db_url: str,
                                                                tmp_path: Path) -> None:
    broker = mosquitto()
    plan = load_plan(fair_play_cup(tmp_path))
    rules = load_ruleset(tmp_path / "fair-play.toml")
    with running_service(db_url, broker.url, plan=plan) as service:
        first = queries.fixture(service.store, "1")
        assert first is not None and first.stage == "A"
        table_client = TableClient(broker.url, service.plan.id, first.court)
        # 1-1, and two yellows for the home side's number 5 (a red: 3 points) and one for the away side's 9
        events, result = played(rules, 1, 1, cards=[("home", "yellow", "5"), ("home", "yellow", "5"),
                                                    ("away", "yellow", "9")])
        table_client.play("1", events, result)
        table_client.wait_for("ack", lambda m: m.payload["of"] == "result")
        table = queries.pool_tables(service.store)["A"].table
        assert table is not None
        home, away = first.home, first.away
        assert [r.team for r in table.rows][:2] == [away, home]
        assert next(r for r in table.rows if r.team == away).reason.endswith("ahead on disciplinary points 1 vs 3")
        assert not any(home in u.teams for u in table.unresolved)
        # A result entered at the desk has no log: its teams' points are not known, never taken as clean.
        second = next(f for f in queries.court_schedule(service.store, first.court) + queries.court_schedule(
            service.store, "plan-2") if f.stage == "A" and f.number != 1 and {f.home, f.away}.isdisjoint({home, away}))
        desk.record_result(service.store, second.match_id, {"home_goals": 2, "away_goals": 2, "outcome": "regular",
                                                             "winner": None}, who="ann", why="score sheet")
        table = queries.pool_tables(service.store)["A"].table
        assert table is not None
        assert second.home is not None and second.away is not None
        assert [u.teams for u in table.unresolved] == [tuple(sorted((second.home, second.away)))]
        # The scorers page's fair-play table: pool A's known points, fewest first; the desk's result's teams
        # are not listed (their points are not known).
        from starlette.testclient import TestClient

        from server.web import create_app
        from server.web.service_backend import ServiceBackend

        with TestClient(create_app(ServiceBackend(service), lang="en")) as client:
            page = " ".join(client.get("/scorers").text.split())
        fair = page[page.index('id="fair-play"'):]
        pool_a = fair[:fair.index("</table>")]
        assert home is not None and away is not None
        assert pool_a.index(away) < pool_a.index(home) and ">1</td>" in pool_a and ">3</td>" in pool_a
        assert second.home not in pool_a and second.away not in pool_a
        assert [r.team for r in table.rows][2:] == [away, home]  # their points are known: still settled
        assert "disciplinary (fair-play) points" in table.unresolved[0].needs
        table_client.close()

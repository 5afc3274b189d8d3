"""A desk correction after later matches were played (issue 19's second fault): the desk says what it changes
and asks to confirm; once stored, the pool C result its teams no longer reach is set aside for the organiser,
never dropped, and the service keeps serving, ingesting and starting on that database.

Indoor hockey (seed 000): Amsterdam H&BC beat Three Rock Rovers 2-0 in pool A, so Three Rock Rovers were 3rd
and played pool C against Pembroke Wanderers. Corrected to 0-5, Three Rock Rovers are 2nd (semi-final 1) and
Amsterdam H&BC 3rd: the pool C result names a team that no longer plays there.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from sqlalchemy import select

from rules.result import read_result
from server import desk
from server.corrections import consequences
from server.db.models import ResultRow
from server.plan import load_plan
from server.store import Store, teams_of
from tests.service_support import running_service
from tests.test_web_service_desk import served_desk

HOCKEY = Path(__file__).resolve().parent.parent / "rules" / "examples" / "indoor-hockey.toml"
# Pools A and B of rules/examples/indoor-hockey-results.csv, and pool C's first round.
PLAYED = [
    ("A", "Rot-Weiss Köln", "Slavia Praha", 5, 0), ("A", "Amsterdam H&BC", "Three Rock Rovers", 2, 0),
    ("B", "Club an der Alster", "Minsk Dinamo", 3, 0), ("B", "HC Bloemendaal", "Pembroke Wanderers", 3, 0),
    ("A", "Three Rock Rovers", "Rot-Weiss Köln", 1, 4), ("A", "Slavia Praha", "Amsterdam H&BC", 1, 3),
    ("B", "Pembroke Wanderers", "Club an der Alster", 0, 2), ("B", "Minsk Dinamo", "HC Bloemendaal", 0, 4),
    ("A", "Rot-Weiss Köln", "Amsterdam H&BC", 3, 2), ("A", "Three Rock Rovers", "Slavia Praha", 2, 2),
    ("B", "Club an der Alster", "HC Bloemendaal", 1, 2), ("B", "Pembroke Wanderers", "Minsk Dinamo", 1, 3),
    ("C", "Three Rock Rovers", "Pembroke Wanderers", 2, 1), ("C", "Slavia Praha", "Minsk Dinamo", 1, 0),
]
CORRECTED = {"home_goals": 0, "away_goals": 5, "outcome": "regular", "winner": "away"}


def score(home: int, away: int) -> dict[str, Any]:
    return {"home_goals": home, "away_goals": away, "outcome": "regular",
            "winner": "home" if home > away else "away" if away > home else None}


def play_pools(store: Store) -> dict[tuple[str, str], str]:
    """Enter PLAYED at the desk (as an organiser entering the score sheets); (home, away) -> match id."""
    ids: dict[tuple[str, str], str] = {}
    with store.session() as s:
        fixtures = store.fixtures(s)
    for stage, home, away, hg, ag in PLAYED:
        with store.session() as s:
            teams = {f.match_id: teams_of(store, s, f.match_id) for f in fixtures.values()
                     if f.stage == stage and _known(store, s, f.match_id)}
        match_id = next(m for m, pair in teams.items() if pair == (home, away))
        desk.record_result(store, match_id, score(hg, ag), who="anna", why="score sheet")
        ids[(home, away)] = match_id
    return ids


def _known(store: Store, s: Any, match_id: str) -> bool:
    try:
        teams_of(store, s, match_id)
    except LookupError:
        return False
    return True


def test_a_correction_says_what_it_changes_and_sets_the_stranded_result_aside(tmp_path: Path) -> None:
    store = Store.open(f"sqlite:///{tmp_path / 'day.db'}", load_plan(HOCKEY))
    try:
        ids = play_pools(store)
        match_id = ids[("Amsterdam H&BC", "Three Rock Rovers")]
        with store.session() as s:
            found = consequences(store, s, match_id, read_result(CORRECTED))
        assert any(line.startswith("match ") and "Three Rock Rovers 2-1 Pembroke Wanderers" in line
                   and "no longer count" in line for line in found.set_aside), found  # named by its number
        assert any("Three Rock Rovers v HC Bloemendaal instead of Amsterdam H&BC v HC Bloemendaal" in line
                   for line in found.matches), found
        with store.session() as s:  # asking stored nothing
            assert s.get(ResultRow, match_id).home_goals == 2  # type: ignore[union-attr]

        desk.record_result(store, match_id, CORRECTED, who="anna", why="protest upheld")
        p = store.progress()
        assert [(a.stage, a.result.home, a.result.away) for a in p.set_aside] == [
            ("C", "Three Rock Rovers", "Pembroke Wanderers")]
        assert "does not play in pool C" in p.set_aside[0].reason
        assert [s.team for s in p.pools["C"].teams] == ["Amsterdam H&BC", "Slavia Praha", "Minsk Dinamo",
                                                        "Pembroke Wanderers"]
        assert p.pools["C"].played == 1  # Slavia Praha v Minsk Dinamo still counts
        with store.session() as s:  # never dropped
            assert len(list(s.scalars(select(ResultRow).where(ResultRow.stage == "C")))) == 2
    finally:
        store.close()


def test_the_service_starts_and_ingests_on_a_database_holding_a_set_aside_result(mosquitto: Any,
                                                                                 tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'day.db'}"
    store = Store.open(db, load_plan(HOCKEY))
    ids = play_pools(store)
    desk.record_result(store, ids[("Amsterdam H&BC", "Three Rock Rovers")], CORRECTED, who="anna", why="protest")
    store.close()
    broker = mosquitto()
    with running_service(db, broker.url, plan=load_plan(HOCKEY)) as service:
        assert service.ready.is_set()
        p = service.store.progress()
        assert len(p.set_aside) == 1
        assert p.matches["SF1"].home.team == "Three Rock Rovers"


def test_the_desk_asks_to_confirm_then_stores_and_keeps_serving(mosquitto: Any, tmp_path: Path) -> None:
    with served_desk(mosquitto, tmp_path, "indoor-hockey") as d:
        for stage, home, away, hg, ag in PLAYED:  # the score sheets, entered at the desk's form
            row = next(r for r in d.view().matches if (r.stage, r.home, r.away) == (stage, home, away))
            entered = d.post(f"/desk/match/{row.number}/result", home_goals=str(hg), away_goals=str(ag),
                             outcome="regular", why="score sheet")
            assert entered.status_code == 303, entered.text
        number = next(r.number for r in d.view().matches if (r.home, r.away) == ("Amsterdam H&BC",
                                                                                  "Three Rock Rovers"))
        form = {"home_goals": "0", "away_goals": "5", "outcome": "regular", "why": "protest upheld"}
        asked = d.post(f"/desk/match/{number}/result", **form)
        assert asked.status_code == 409
        page = html.unescape(asked.text)
        assert "This changes what follows" in page and "Three Rock Rovers 2-1 Pembroke Wanderers" in page
        recorded = d.view().by_number[number].recorded
        assert recorded is not None and recorded.result.home_goals == 2  # nothing stored yet

        done = d.post(f"/desk/match/{number}/result", **form, confirm="1")
        assert done.status_code == 303, done.text
        recorded = d.view().by_number[number].recorded
        assert recorded is not None and recorded.result.away_goals == 5
        overview = html.unescape(d.client.get("/desk").text)
        assert "Results that no longer count" in overview and "does not play in pool C" in overview
        assert d.client.get("/pool/C").status_code == 200
        # Issue 31: the pages showed the stranded 2-1 as the result of the match under its new teams. It is no
        # result of that match anywhere: the match waits, "to be played again", its 2-1 on the desk only.
        (stranded,) = [r for r in d.view().matches if r.set_aside is not None]
        assert stranded.stage == "C" and stranded.recorded is None and not d.view().finished
        assert "Amsterdam H&BC" in (stranded.home, stranded.away)  # its teams now
        assert d.client.get(f"/api/v1/matches/{stranded.number}").json()["match"]["result"] is None
        schedule = html.unescape(d.client.get("/schedule").text)
        line = next(x for x in schedule.split("<tr") if f">{stranded.start:%H:%M}</b>" in x and "Amsterdam" in x)
        assert "to be played again" in line and "2–1" not in line
        results = d.client.get("/api/v1/results.csv").text
        assert "Pembroke Wanderers,2,1" not in results.replace('"', "")
        desk_page = html.unescape(d.client.get(f"/desk/match/{stranded.number}").text)
        assert "no longer counts" in desk_page and "Three Rock Rovers 2–1 Pembroke Wanderers" in desk_page
        api = d.client.post(f"/api/v1/desk/matches/{number}/result", headers={"X-CSRF-Token": d.csrf},
                            json={"home_goals": 2, "away_goals": 0, "why": "back again"})
        assert api.status_code == 409 and api.json()["consequences"]

"""The text and JSON views organisers and machines read."""

from __future__ import annotations

import json
from pathlib import Path

from courtside.render import draw_json, draw_text, progress_json, progress_text, schedule_json, schedule_text
from rules.ruleset import load_ruleset
from rules.standings import parse_results_csv
from rules.tournament import Progress, Tournament, build_schedule, make_draw, parse_tournament, pool_teams, progress
from tests.test_tournament_exchange import LIONS_A_TO_G7, ice, lions_meet_in_g5, run

ROOT = Path(__file__).resolve().parent.parent
HOCKEY = ROOT / "rules" / "examples" / "indoor-hockey.toml"
RESULTS = ROOT / "tests" / "data" / "indoor-hockey-results.csv"


def hockey_progress(stages: set[str] | None = None) -> tuple[Tournament, Progress]:
    t = parse_tournament(HOCKEY.read_text(encoding="utf-8"), str(HOCKEY))
    results = parse_results_csv(RESULTS.read_text(encoding="utf-8"), str(RESULTS))
    if stages is not None:
        results = [r for r in results if r.pool in stages]
    return t, progress(t, load_ruleset("indoor-hockey"), pool_teams(t, str(HOCKEY)), results)


def test_text_shows_tables_carried_results_matches_and_the_final_ranking() -> None:
    t, state = hockey_progress()
    text = progress_text(t, state)
    assert "Pool C (complete)" in text
    assert "carried forward: Three Rock Rovers 2-2 Slavia Praha" in text
    assert "F (final): winner SF1 HC Bloemendaal v winner SF2 Rot-Weiss Köln" in text
    assert "(2-3 in the shoot-out), Rot-Weiss Köln wins" in text
    assert "Nothing is open" in text
    assert "   1. Rot-Weiss Köln" in text and "   8. Pembroke Wanderers" in text


def test_text_says_what_is_still_open() -> None:
    t, state = hockey_progress({"A"})
    text = progress_text(t, state)
    assert "Still open" in text
    assert "  1A: Rot-Weiss Köln\n" in text.split("Resolved", 1)[1]
    assert "1B: needs pool B to finish (0 of 6 matches played)" in text
    assert "waits for 3B: pool B to finish" in text


def test_json_gives_the_final_ranking_with_nulls_for_undecided_places() -> None:
    t, state = hockey_progress({"A", "B", "C", "SF1", "SF2", "P34"})
    data = json.loads(json.dumps(progress_json(t, state)))
    assert data["final_ranking"] == [
        None, None, "Amsterdam H&BC", "Club an der Alster",
        "Slavia Praha", "Minsk Dinamo", "Three Rock Rovers", "Pembroke Wanderers",
    ]
    assert data["placeholders"]["winner SF1"] == {"team": "HC Bloemendaal", "needs": None}
    assert {"slot": "winner F", "team": None, "needs": "the result of F"} in data["open"]
    pool_c = next(p for p in data["pools"] if p["name"] == "C")
    assert pool_c["complete"] and len(pool_c["carried"]) == 2 and pool_c["table"][0]["team"] == "Slavia Praha"
    sf1 = next(m for m in data["matches"] if m["name"] == "SF1")
    assert sf1["result"]["outcome"] == "overtime" and sf1["winner"] == "HC Bloemendaal"


def test_draw_views_record_the_seed() -> None:
    path = ROOT / "rules" / "examples" / "water-polo.toml"
    t = parse_tournament(path.read_text(encoding="utf-8"), str(path))
    draw = make_draw(t, 99)
    text = draw_text(t, draw)
    assert "seed 99" in text and "[draw]\nseed = 99" in text and "(pot 1)" in text
    assert draw_json(t, draw)["seed"] == 99


def test_schedule_views_list_every_match_with_court_and_time() -> None:
    path = ROOT / "rules" / "examples" / "ice-hockey.toml"
    t = parse_tournament(path.read_text(encoding="utf-8"), str(path))
    s = build_schedule(t, load_ruleset("ice-hockey"), pool_teams(t, str(path)))
    text = schedule_text(t.name, s)
    assert "then resurfacing" in text and "G1 (final)" in text and "24 matches" in text
    data = schedule_json(t.name, s)
    assert len(data["matches"]) == 24 and data["matches"][0]["start"] == "2026-04-11T07:00"
    assert len(data["resurfacings"]) == 12


def test_every_pool_place_says_why_in_text_and_json() -> None:
    t, state = hockey_progress({"A", "B"})
    text = progress_text(t, state)
    data = progress_json(t, state)
    for name in ("A", "B"):
        table = state.pools[name].table
        assert table is not None
        rows = next(p for p in data["pools"] if p["name"] == name)["table"]
        for row, shown in zip(table.rows, rows, strict=True):
            assert row.reason and shown["reason"] == row.reason
            line = next(x for x in text.splitlines() if f"  {row.team} " in x and x.rstrip().endswith(row.reason))
            assert line.lstrip().startswith(str(row.rank))
    # Three Rock Rovers and Slavia both have 3 points and no wins: goal difference (-5 v -7) is the seed's next step.
    third = next(x for x in text.splitlines() if "Three Rock Rovers" in x and "goal difference" in x)
    assert "-5" in third


def test_same_club_final_placement_games_are_shown_with_what_may_follow() -> None:
    t = ice()
    state = run(t, lions_meet_in_g5())
    assert "Same-club final placement games\n  G5: Lions AA and Lions A are both Lions" in progress_text(t, state)
    assert progress_json(t, state)["same_club_games"] == list(state.clashes)
    t = ice(LIONS_A_TO_G7)
    state = run(t, lions_meet_in_g5())
    assert "  exchanged: Lions A plays G7 instead of G5; Eagles A takes its place" in progress_text(t, state)
    assert progress_json(t, state)["exchanges"] == ["Lions A plays G7 instead of G5; Eagles A takes its place"]


def test_cross_pool_rankings_are_shown_with_why_including_best_thirds() -> None:
    path = ROOT / "rules" / "examples" / "youth-football.toml"
    results_path = ROOT / "tests" / "data" / "youth-football-results.csv"
    t = parse_tournament(path.read_text(encoding="utf-8"), str(path))
    results = parse_results_csv(results_path.read_text(encoding="utf-8"), str(results_path))
    state = progress(t, load_ruleset("youth-football"), pool_teams(t, str(path)), results)
    data = progress_json(t, state)
    thirds = next(r for r in data["rankings"] if r["name"] == "best 3rd")
    assert [row["reason"] for row in thirds["rows"]] == list(state.rankings["best 3rd"].reasons)
    assert thirds["rows"][0]["reason"].startswith("level on points; ahead on goal difference")
    text = progress_text(t, state)
    assert "Ranking best 3rd" in text
    assert "needs an organiser's decision" in text.split("Ranking QFL", 1)[1].split("\n\n", 1)[0]

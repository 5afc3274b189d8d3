"""The walk behind progress(): a stage is walked when its caller asks, in the order the stages wait for each other,
and a place is read from what has been walked."""

from __future__ import annotations

from pathlib import Path

from rules.ruleset import load_ruleset
from rules.standings import MatchResult, parse_results_csv
from rules.tournament import Tournament, parse_tournament
from rules.tournament.walker import Walker

ROOT = Path(__file__).resolve().parent.parent
HOCKEY = ROOT / "rules" / "examples" / "indoor-hockey.toml"
RESULTS = ROOT / "tests" / "data" / "indoor-hockey-results.csv"


def walker(results: list[MatchResult]) -> tuple[Tournament, Walker]:
    t = parse_tournament(HOCKEY.read_text(encoding="utf-8"), str(HOCKEY))
    entry = {p.name: tuple(p.teams or ()) for p in t.entry_pools}
    return t, Walker(t, load_ruleset("indoor-hockey"), entry, results, [], "r.csv", str(HOCKEY))


def test_a_place_is_read_from_its_walked_pool_and_a_match_waits_for_its_result() -> None:
    results = parse_results_csv(RESULTS.read_text(encoding="utf-8"), str(RESULTS))
    t, w = walker([r for r in results if r.pool == "A"])
    for name in ("A", "B"):
        pool = t.pool(name)
        assert pool is not None
        w.pool(pool)
    assert w.pools["A"].complete and w.slot("1A").team == "Rot-Weiss Köln"
    assert not w.pools["B"].complete and w.slot("1B").team is None
    assert w.slot("1B").needs == "pool B to finish (0 of 6 matches played)"
    w.match("SF2")  # 1A v 2B: its home side known, its away side waiting on pool B
    sf2 = w.matches["SF2"]
    assert (sf2.home.team, sf2.away.team, sf2.result) == ("Rot-Weiss Köln", None, None)


def test_a_result_for_a_stage_the_tournament_lacks_is_set_aside_when_not_strict() -> None:
    stray = MatchResult(pool="Z", home="Rot-Weiss Köln", away="Slavia Praha", home_goals=1, away_goals=0)
    t = parse_tournament(HOCKEY.read_text(encoding="utf-8"), str(HOCKEY))
    entry = {p.name: tuple(p.teams or ()) for p in t.entry_pools}
    w = Walker(t, load_ruleset("indoor-hockey"), entry, [stray], [], "r.csv", str(HOCKEY), strict=False)
    assert [(s.stage, s.result) for s in w.set_aside] == [("Z", stray)]
    assert "neither a pool nor a match" in w.set_aside[0].reason

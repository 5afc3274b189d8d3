"""rules/tournament/slot_filling.py: a placeholder's team from what the walk has found, or the words of what it still
needs: a pool's place once the pool is complete and outside an unbroken tie, a knock-out's winner once it has a
result."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

from rules.ruleset import load_ruleset
from rules.standings import MatchResult, parse_results_csv, rank_pool
from rules.tournament import parse_tournament
from rules.tournament.slot_filling import place_in_table
from rules.tournament.walker import Walker

ROOT = Path(__file__).resolve().parent.parent
HOCKEY = ROOT / "rules" / "examples" / "indoor-hockey.toml"
RESULTS = ROOT / "tests" / "data" / "indoor-hockey-results.csv"
RULES = load_ruleset("indoor-hockey")


def walked(results: list[MatchResult]) -> Walker:
    """Both pools walked on ``results``."""
    t = parse_tournament(HOCKEY.read_text(encoding="utf-8"), str(HOCKEY))
    w = Walker(t, RULES, {p.name: tuple(p.teams or ()) for p in t.entry_pools}, results, [], "r.csv", str(HOCKEY))
    for pool in t.entry_pools:
        w.pool(pool)
    return w


def pools_played() -> list[MatchResult]:
    return [r for r in parse_results_csv(RESULTS.read_text(encoding="utf-8"), str(RESULTS)) if r.pool in "AB"]


def test_a_knock_out_s_winner_waits_for_its_result_then_is_its_winner() -> None:
    played = pools_played()
    w = walked(played)
    w.match("SF1")
    waiting = w.slot("winner SF1")
    assert waiting.team is None and waiting.needs == "the result of SF1"
    sf1 = w.matches["SF1"]
    assert sf1.home.team is not None and sf1.away.team is not None
    again = walked([*played, MatchResult(pool="SF1", home=sf1.home.team, away=sf1.away.team, home_goals=1,
                                         away_goals=3)])
    again.match("SF1")
    assert again.slot("winner SF1").team == sf1.away.team and again.slot("loser SF1").team == sf1.home.team


def test_a_place_inside_a_tie_the_results_cannot_break_needs_it_broken_and_names_the_teams() -> None:
    teams = parse_tournament(HOCKEY.read_text(encoding="utf-8"), str(HOCKEY)).pool("A").teams  # type: ignore[union-attr]
    assert teams is not None
    level = [MatchResult(pool="A", home=h, away=a, home_goals=1, away_goals=1) for h, a in combinations(teams, 2)]
    w = walked([*level, *(r for r in pools_played() if r.pool == "B")])
    assert w.pools["A"].complete
    second = w.slot("2A")
    assert second.team is None and second.needs is not None
    assert second.needs.endswith("in pool A") and all(team in second.needs for team in teams)
    assert w.slot("1B").team is not None  # pool B's results break its ties


def test_a_place_past_the_pool_s_size_says_how_many_teams_it_has() -> None:
    own = [r for r in pools_played() if r.pool == "A"]
    table = rank_pool(RULES, "A", own)
    assert place_in_table(table, 1)[0] == table.rows[0].team
    assert place_in_table(table, 5) == (None, "place 5 of pool A, which has 4 teams")

"""Pool tables for the screen between matches: every team of every first-round pool, ranked by the rules."""

from __future__ import annotations

from pathlib import Path

from display.between import pool_tables
from rules.standings.results import MatchResult
from rules.tournament.loading import load_tournament_ruleset, read_tournament_file

EXAMPLE = Path(__file__).resolve().parents[1] / "rules" / "examples" / "indoor-hockey.toml"


def test_tables_before_and_after_a_result() -> None:
    t = read_tournament_file(EXAMPLE)
    ruleset = load_tournament_ruleset(t, str(EXAMPLE))
    empty = pool_tables(t, ruleset, [], str(EXAMPLE))
    assert [table.pool for table in empty] == [p.name for p in t.entry_pools]
    assert all(row.played == 0 for table in empty for row in table.rows)
    first = empty[0]
    home, away = first.rows[0].team, first.rows[1].team
    after = pool_tables(t, ruleset, [MatchResult(pool=first.pool, home=home, away=away, home_goals=4,
                                                 away_goals=1, outcome="regular", winner=home)], str(EXAMPLE))
    top = after[0].rows[0]
    assert (top.team, top.played, top.won, top.goals_for, top.points) == (home, 1, 1, 4, ruleset.points.win)
    assert len(after[0].rows) == len(first.rows)  # the teams yet to play keep their rows

"""tests/display_scenes.py: the scenes docs/screens draws. Between matches they show pool tables, which must add up
as a spectator reads them (issue 19: a committed screen showed 0 wins, 0 draws, 2 losses and 1 point)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.ruleset import PRESETS, Ruleset
from rules.standings import MatchResult, parse_results_csv
from tests.display_scenes import scene

EXAMPLES = Path(__file__).resolve().parent.parent / "rules" / "examples"


@pytest.mark.parametrize("sport", PRESETS)
def test_every_table_between_matches_adds_up_from_the_results_it_stands_for(sport: str) -> None:
    view = scene(sport, "between").view
    assert view.between is not None and view.between.tables
    path = EXAMPLES / f"{sport}-results.csv"
    results = parse_results_csv(path.read_text(encoding="utf-8"), str(path))
    for table in view.between.tables:
        played = [r for r in results if r.pool == table.pool]
        assert sum(r.goals_for for r in table.rows) == sum(r.goals_against for r in table.rows)
        for row in table.rows:
            own = [r for r in played if row.team in (r.home, r.away)]
            assert row.played == len(own) == row.won + row.drawn + row.lost, row
            assert row.goal_difference == row.goals_for - row.goals_against
            assert row.goals_for == sum(goals_of(view.ruleset, r, row.team)[0] for r in own)
            assert row.points == sum(points_of(view.ruleset, r, row.team) for r in own), row


def goals_of(ruleset: Ruleset, r: MatchResult, team: str) -> tuple[int, int]:
    """(for, against) of ``team``; a walk-over entered 0-0 counts as the ruleset's walk-over score (3-0)."""
    if r.outcome == "walkover" and (r.home_goals, r.away_goals) == (0, 0):
        win, lose = ruleset.points.walkover_score
        return (win, lose) if r.winner == team else (lose, win)
    return (r.home_goals, r.away_goals) if r.home == team else (r.away_goals, r.home_goals)


def points_of(ruleset: Ruleset, r: MatchResult, team: str) -> int:
    """Points of a result, worked out here from the ruleset's table of points."""
    assert r.outcome in ("regular", "walkover"), r
    p = ruleset.points
    if r.outcome == "walkover":
        return p.win if r.winner == team else p.walkover_loser_points
    mine, theirs = goals_of(ruleset, r, team)
    return p.win if mine > theirs else p.draw if mine == theirs else p.for_loss(theirs - mine)

"""Ranking teams across pools by their pool records."""

from __future__ import annotations

from rules.standings import Decision
from rules.tournament.ranking import CrossRow, rank_across


def row(team: str, points: int, diff: int, goals: int) -> CrossRow:
    return CrossRow(team=team, pool="A", points=points, goal_difference=diff, goals_for=goals)


def test_points_then_goal_difference_then_goals() -> None:
    rows = [row("x", 3, -2, 4), row("y", 4, -5, 1), row("z", 3, -2, 6), row("w", 3, 0, 0)]
    ranked = rank_across("best 3rd", rows, [])
    assert [r.team for _, r in ranked.rows] == ["y", "w", "z", "x"]
    assert [ranked.place(n) for n in (1, 4)] == [("y", None), ("x", None)]


def test_an_exact_tie_stays_open_until_the_organiser_decides() -> None:
    rows = [row("x", 3, 0, 2), row("y", 3, 0, 2), row("z", 6, 1, 1)]
    open_tie = rank_across("QFL", rows, [])
    assert open_tie.place(1) == ("z", None)
    team, needs = open_tie.place(2)
    assert team is None and needs is not None and "x, y" in needs
    assert open_tie.ties == (("x", "y"),)
    decided = rank_across("QFL", rows, [Decision(pool="QFL", method="lots", order=("y", "x"))])
    assert [decided.place(n)[0] for n in (1, 2, 3)] == ["z", "y", "x"]


def test_a_decision_for_another_ranking_or_other_teams_does_not_apply() -> None:
    rows = [row("x", 3, 0, 2), row("y", 3, 0, 2), row("z", 3, 0, 2)]
    stale = [
        Decision(pool="QFL", method="lots", order=("y", "x")),
        Decision(pool="best 3rd", method="lots", order=("x", "y", "z")),
    ]
    assert rank_across("QFL", rows, stale).place(1)[0] is None


def test_waiting_rankings_say_what_they_wait_for() -> None:
    ranked = rank_across("QFL", [], [], waiting=("loser QF2 (the result of QF2)",))
    team, needs = ranked.place(1)
    assert team is None and needs is not None and "the result of QF2" in needs

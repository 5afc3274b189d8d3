"""Ranking teams across pools by their pool records."""

from __future__ import annotations

import pytest

from rules.errors import TournamentError
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


def test_each_place_says_which_step_decided_it() -> None:
    rows = [row("x", 3, -2, 4), row("y", 4, -5, 1), row("z", 3, -2, 6), row("w", 3, 0, 0)]
    ranked = rank_across("best 3rd", rows, [])
    why = dict(zip((r.team for _, r in ranked.rows), ranked.reasons, strict=True))
    assert why["y"] == "ahead on points 4 vs 3"
    assert why["w"] == "level on points; ahead on goal difference 0 vs -2"
    assert why["z"] == "level on points; level on goal difference; ahead on goals 6 vs 4"
    assert why["x"] == "level on points; level on goal difference; behind on goals 4 vs 6"


def test_a_tie_says_whether_it_is_still_open_or_placed_by_the_decision() -> None:
    rows = [row("x", 3, 0, 2), row("y", 3, 0, 2), row("z", 6, 1, 1)]
    open_tie = rank_across("QFL", rows, [])
    assert all("needs an organiser's decision" in w for w in open_tie.reasons[1:])
    decided = rank_across("QFL", rows, [Decision(pool="QFL", method="lots", order=("y", "x"))])
    assert decided.reasons[1:] == (
        "level on points, goal difference and goals with x; placed by lots",
        "level on points, goal difference and goals with y; placed by lots",
    )


def placed(team: str, pool: str, place: int | None, points: int = 3) -> CrossRow:
    return CrossRow(team=team, pool=pool, points=points, goal_difference=0, goals_for=2, place=place)


def test_teams_of_one_pool_level_on_their_records_keep_the_order_their_pool_gave_them() -> None:
    # places 5-8 from the quarter-final losers: 3A and 4A have the same record, but pool A
    # placed them (on head-to-head, say): no lots between them
    rows = [placed("4A team", "A", 4), placed("3A team", "A", 3), placed("2B team", "B", 2, points=6)]
    ranked = rank_across("QFL", rows, [])
    assert [ranked.place(n) for n in (1, 2, 3)] == [("2B team", None), ("3A team", None), ("4A team", None)]
    assert ranked.ties == ()
    assert ranked.reasons[1] == "level on points, goal difference and goals with 4A team; placed by pool A's table"


def test_lots_only_between_teams_of_different_pools() -> None:
    rows = [placed("3A team", "A", 3), placed("4A team", "A", 4), placed("3B team", "B", 3)]
    open_tie = rank_across("QFL", rows, [])
    assert open_tie.ties == (("3A team", "3B team", "4A team"),)
    decision = Decision(pool="QFL", method="lots", order=("3A team", "3B team", "4A team"))
    assert [r.team for _, r in rank_across("QFL", rows, [decision]).rows] == ["3A team", "3B team", "4A team"]


def test_a_decision_that_undoes_a_pool_order_is_refused() -> None:
    rows = [placed("3A team", "A", 3), placed("4A team", "A", 4), placed("3B team", "B", 3)]
    decision = Decision(pool="QFL", method="lots", order=("4A team", "3B team", "3A team"))
    with pytest.raises(TournamentError, match="pool A placed them 3rd and 4th"):
        rank_across("QFL", rows, [decision])


def test_teams_whose_pool_places_are_themselves_undecided_still_need_a_decision() -> None:
    rows = [placed("x", "A", None), placed("y", "A", None)]
    assert rank_across("QFL", rows, []).ties == (("x", "y"),)

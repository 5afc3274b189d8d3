"""Each ranking criterion on a hand-made table where it alone does the separating."""

from __future__ import annotations

from rules.ruleset import load_ruleset
from rules.standings.criteria import (
    Question,
    goal_difference,
    goals_for,
    head_to_head,
    head_to_head_goal_difference,
    head_to_head_goals_for,
    head_to_head_table,
    outside_in_turn,
    points,
    versus_best_outside,
    wins,
)
from rules.standings.scoring import PoolData
from tests.standings_support import played

YOUTH = load_ruleset("youth-football")  # 3/1/0
HOCKEY = load_ruleset("indoor-hockey")  # 5/2/1/0


def ask(data: PoolData, part: str, among: str | None = None, placing: list[str] | None = None) -> Question:
    return Question(
        data=data,
        part=tuple(part),
        among=frozenset(among or part),
        placing=tuple(tuple(block) for block in (placing or [part])),
    )


def pool(ruleset_name: str, *lines: str) -> PoolData:
    results = played("P", *lines)
    teams = sorted({t for r in results for t in r.teams})
    return PoolData.build(load_ruleset(ruleset_name), "P", results, teams)


def test_points_goal_difference_and_goals_scored_over_all_matches() -> None:
    data = pool("youth-football", "A 3-0 D", "B 1-0 D", "C 2-1 D", "A 0-1 B", "B 0-0 C", "A 2-2 C")
    # A: L B, D C, W D = 4; B: W A, D C, W D = 7; C: D A, D B, W D = 5; D: 0
    assert points(ask(data, "ABCD")).parts == [("B",), ("C",), ("A",), ("D",)]
    # goal difference: A +3-1+0 = +2, C 0+0+1 = +1, B +1+0+1 = +2
    assert goal_difference(ask(data, "ABC")).parts == [("A", "B"), ("C",)]
    # goals scored: A 3+0+2 = 5, B 1+1+0 = 2, C 2+0+2 = 4
    assert goals_for(ask(data, "ABC")).parts == [("A",), ("C",), ("B",)]


def test_wins_counts_matches_won_whatever_the_points() -> None:
    # indoor hockey: X wins, loses by one and loses by three (5+1+0); Y draws three times (2+2+2)
    data = pool("indoor-hockey", "X 1-0 Z", "X 0-1 W", "X 2-5 V", "Y 1-1 Z", "Y 0-0 W", "Y 2-2 V")
    assert data.overall["X"].points == data.overall["Y"].points == 6
    split = wins(ask(data, "XY"))
    assert split.parts == [("X",), ("Y",)]
    assert split.steps[0].values["X"][0].level == "1 win"


def test_head_to_head_counts_only_the_games_among_the_tied_teams() -> None:
    # B has the better overall record, but A beat B
    data = pool("youth-football", "A 1-0 B", "B 9-0 C", "C 1-0 A")
    assert head_to_head(ask(data, "AB")).parts == [("A",), ("B",)]
    # among all three the results are circular: three points each, nobody separated
    assert head_to_head(ask(data, "ABC")).parts == [("A", "B", "C")]


def test_head_to_head_goal_difference_and_goals_among_a_given_set() -> None:
    data = pool("youth-football", "A 3-3 B", "A 2-1 C", "B 1-0 C", "A 0-5 D", "B 0-5 D", "C 5-0 D")
    # among A, B, C: A +1 (goals 5), B +1 (goals 4), C -2
    assert head_to_head_goal_difference(ask(data, "AB", among="ABC")).parts == [("A", "B")]
    assert head_to_head_goals_for(ask(data, "AB", among="ABC")).parts == [("A",), ("B",)]
    # among just A and B the draw leaves them level on goals too
    assert head_to_head_goals_for(ask(data, "AB")).parts == [("A", "B")]


def test_head_to_head_table_is_re_applied_to_the_teams_still_level() -> None:
    # B, C, D and E all have 4 points; their mini-table: C 4 pts GD 0 goals 3,
    # D and E 4 pts GD 0 goals 2, B 4 pts GD 0 goals 1. D and E are still level,
    # so the mini-table of their own game decides: D beat E 1-0.
    data = pool(
        "youth-football",
        "A 2-1 B", "A 1-0 C", "A 2-1 D", "A 2-1 E",
        "B 0-1 C", "B 1-0 D", "B 0-0 E", "C 1-1 D", "C 1-2 E", "D 1-0 E",
    )
    split = head_to_head_table(ask(data, "BCDE"))
    assert split.parts == [("C",), ("D",), ("E",), ("B",)]
    assert [step.teams for step in split.steps] == [("B", "C", "D", "E"), ("D", "E")]


def test_versus_best_outside_compares_against_the_best_placed_other_team_first() -> None:
    # A, B, C are level among themselves (circular 1-0s). Against E, placed first,
    # A lost 0-1, B and C 0-3: A is separated, B and C are left level.
    data = pool(
        "youth-football",
        "A 1-0 B", "B 1-0 C", "C 1-0 A",
        "E 1-0 A", "E 3-0 B", "E 3-0 C", "A 1-0 D", "B 4-0 D", "C 4-0 D", "E 1-0 D",
    )
    split = versus_best_outside(ask(data, "ABC", placing=["E", "ABC", "D"]))
    assert split.parts == [("A",), ("B", "C")]
    # one number at a time: level on points against E (all lost), then goal difference separates
    assert [s.values["A"][0].label for s in split.steps] == ["points", "goal difference"]
    assert split.steps[-1].values["A"][0].shown == "-1"


def test_versus_best_outside_goes_on_to_the_next_team_when_the_best_does_not_separate() -> None:
    data = pool("youth-football", "A 0-1 E", "B 0-1 E", "A 1-0 D", "B 2-0 D", "A 1-1 B")
    split = versus_best_outside(ask(data, "AB", placing=["E", "AB", "D"]))
    assert split.parts == [("B",), ("A",)]
    # points, goal difference and goals against E are level; against D, points too, then goal difference
    assert [s.values["B"][0].scope for s in split.steps] == [" against E"] * 3 + [" against D"] * 2


def test_teams_outside_that_are_still_level_count_together() -> None:
    assert outside_in_turn(("A", "B"), [("A", "B"), ("C", "D"), ("E",)]) == [("C", "D"), ("E",)]
    assert outside_in_turn(("B",), [("A", "B"), ("C",)]) == [("A",), ("C",)]


def test_a_circular_tie_leaves_every_team_level_rather_than_in_some_arbitrary_order() -> None:
    data = pool("youth-football", "A 1-0 B", "B 1-0 C", "C 1-0 A")
    for criterion in (points, goal_difference, goals_for, head_to_head, head_to_head_table):
        assert criterion(ask(data, "ABC")).parts == [("A", "B", "C")]

"""Tie modes and decisions: how a partly broken tie is re-examined, and what results cannot decide."""

from __future__ import annotations

from rules.standings import Decision, rank_pool
from tests.standings_support import order, played, row, with_ranking

LIST = ["points", "head_to_head", "goal_difference", "goals_for", "lots"]

# Five teams, every one on 6 points (3/1/0):
#   A: beat B 2-0, C 2-0; lost to D 0-2, E 0-1       GD +1, goals 4
#   B: lost to A; beat C 1-0, D 3-0; lost to E 1-2   GD +1, goals 5
#   C: lost to A, B; beat D 3-0, E 3-2               GD +1, goals 6
#   D: beat A; lost to B, C; beat E 2-1              GD -3
#   E: beat A, B; lost to C, D                       GD  0
# Among all five the head-to-head points are the points: nobody is separated.
# Goal difference splits {A, B, C} (+1), E (0), D (-3).
FIVE = played(
    "P",
    "A 2-0 B", "A 2-0 C", "A 0-2 D", "A 0-1 E", "B 1-0 C",
    "B 3-0 D", "B 1-2 E", "C 3-0 D", "C 3-2 E", "D 2-1 E",
)


def test_uefa_mode_finishes_the_list_before_looking_again() -> None:
    # the list goes on to goals scored for A, B, C: C 6, B 5, A 4
    table = rank_pool(with_ranking("youth-football", LIST, "uefa"), "P", FIVE)
    assert order(table) == ["C", "B", "A", "E", "D"]
    assert row(table, "C")["reason"] == (
        "level on 6 points; 6 head-to-head points among A, B, C, D and E; goal difference +1;"
        " ahead on goals scored 6 vs 5"
    )


def test_restart_mode_starts_again_as_soon_as_the_group_splits() -> None:
    # {A, B, C} starts again: head-to-head among the three, A 6, B 3, C 0
    table = rank_pool(with_ranking("youth-football", LIST, "restart"), "P", FIVE)
    assert order(table) == ["A", "B", "C", "E", "D"]
    assert "ahead on head-to-head points among A, B and C 6 vs 3" in str(row(table, "A")["reason"])


def test_top_team_mode_fixes_one_team_and_starts_again_with_all_the_rest() -> None:
    # A is top (as in restart). Then B, C, D, E start again: among them B 6, C 6,
    # D 3, E 3; B beat C. Then C, D, E: C 6. Then D beat E. So D ends above E,
    # although E has the better goal difference.
    table = rank_pool(with_ranking("youth-football", LIST, "top_team"), "P", FIVE)
    assert order(table) == ["A", "B", "C", "D", "E"]
    assert "ahead on head-to-head points 3 vs 0" in str(row(table, "D")["reason"])


# A, B, C level on 7 points and goal difference +1. Among them A took 6 points,
# B and C drew 1-1; goal difference among the three: B -1, C -3.
CONCERNED = played(
    "P",
    "A 1-0 B", "A 3-0 C", "B 1-1 C", "D 3-0 A", "A 1-1 E",
    "B 1-0 D", "B 1-0 E", "C 2-0 D", "C 2-0 E", "D 0-0 E",
)
H2H_AFTER_GD = ["points", "goal_difference", "head_to_head", "head_to_head_goal_difference", "lots"]


def test_uefa_mode_counts_consecutive_head_to_head_criteria_among_the_teams_concerned() -> None:
    table = rank_pool(with_ranking("youth-football", H2H_AFTER_GD, "uefa"), "P", CONCERNED)
    assert order(table) == ["A", "B", "C", "D", "E"]
    assert table.unresolved == ()
    assert "ahead on head-to-head goal difference among A, B and C -1 vs -3" in str(row(table, "B")["reason"])


def test_restart_mode_counts_head_to_head_among_the_teams_left() -> None:
    # B and C start again: between them a 1-1 draw, nothing separates them
    table = rank_pool(with_ranking("youth-football", H2H_AFTER_GD, "restart"), "P", CONCERNED)
    assert [(r.rank, r.team) for r in table.rows][:3] == [(1, "A"), (2, "B"), (2, "C")]
    assert [u.teams for u in table.unresolved] == [("B", "C")]


# A beat B, B beat C, C beat A, all 1-0; each beat D.
def circle(a_vs_d: str, b_vs_d: str, c_vs_d: str) -> list:  # type: ignore[type-arg]
    return played("P", "A 1-0 B", "B 1-0 C", "C 1-0 A", f"A {a_vs_d} D", f"B {b_vs_d} D", f"C {c_vs_d} D")


def test_a_circular_tie_is_broken_by_the_next_criterion_that_separates() -> None:
    for mode in ("uefa", "restart", "top_team"):
        table = rank_pool(with_ranking("youth-football", LIST, mode), "P", circle("3-0", "2-0", "1-0"))
        assert order(table) == ["A", "B", "C", "D"], mode


def test_a_circular_tie_nothing_breaks_waits_for_the_drawing_of_lots() -> None:
    results = circle("1-0", "1-0", "1-0")
    ruleset = with_ranking("youth-football", LIST)
    table = rank_pool(ruleset, "P", results)
    assert [(r.rank, r.team) for r in table.rows] == [(1, "A"), (1, "B"), (1, "C"), (4, "D")]
    assert [(u.pool, u.teams) for u in table.unresolved] == [("P", ("A", "B", "C"))]
    assert "drawing of lots" in table.unresolved[0].needs
    assert str(row(table, "B")["reason"]).startswith("level with A and C on 6 points")

    decided = rank_pool(ruleset, "P", results, decisions=[Decision(pool="P", method="lots", order=("C", "A", "B"))])
    assert order(decided) == ["C", "A", "B", "D"]
    assert [r.rank for r in decided.rows] == [1, 2, 3, 4]
    assert "ahead on drawing of lots (organiser's decision) 1st vs 2nd" in str(row(decided, "C")["reason"])


def test_a_decision_applies_only_to_exactly_the_tied_teams_in_that_pool_by_a_listed_method() -> None:
    results = circle("1-0", "1-0", "1-0")
    ruleset = with_ranking("youth-football", LIST)
    for stale in (
        Decision(pool="P", method="lots", order=("C", "A")),  # only two of the three
        Decision(pool="Q", method="lots", order=("C", "A", "B")),  # another pool
        Decision(pool="P", method="penalty_competition", order=("C", "A", "B")),  # not in this ruleset
    ):
        table = rank_pool(ruleset, "P", results, decisions=[stale])
        assert [u.teams for u in table.unresolved] == [("A", "B", "C")], stale


def test_a_partly_broken_tie_falls_back_to_the_game_between_the_two_left() -> None:
    # goal difference: A +3, B +1, C +1; B and C are then compared among themselves: B beat C
    for mode in ("uefa", "restart", "top_team"):
        table = rank_pool(with_ranking("youth-football", LIST, mode), "P", circle("3-0", "1-0", "1-0"))
        assert order(table) == ["A", "B", "C", "D"], mode
        assert "ahead on head-to-head points 3 vs 0" in str(row(table, "B")["reason"]), mode


def test_a_partly_broken_tie_reports_only_the_teams_still_level() -> None:
    # 1-1 draws among A, B, C (5 points each); goal difference A +3, B +1, C +1;
    # B and C drew and scored alike: nothing but lots can separate them
    results = played("P", "A 1-1 B", "B 1-1 C", "C 1-1 A", "A 3-0 D", "B 1-0 D", "C 1-0 D")
    for mode in ("uefa", "restart", "top_team"):
        table = rank_pool(with_ranking("youth-football", LIST, mode), "P", results)
        assert [(r.rank, r.team) for r in table.rows] == [(1, "A"), (2, "B"), (2, "C"), (4, "D")], mode
        assert [u.teams for u in table.unresolved] == [("B", "C")], mode


def test_without_a_decision_criterion_the_tie_says_the_ruleset_has_none() -> None:
    table = rank_pool(with_ranking("youth-football", ["points", "goal_difference"]), "P", circle("1-0", "1-0", "1-0"))
    assert "lists no 'lots'" in table.unresolved[0].needs


def test_iihf_restart_falls_back_to_the_game_between_the_two_left() -> None:
    # A, B, C circular 1-0s, level among themselves. Against E (placed first) A lost
    # 0-1, B and C 0-3: A is separated; B and C start again, and B beat C.
    results = played(
        "P",
        "A 1-0 B", "B 1-0 C", "C 1-0 A",
        "E 1-0 A", "E 3-0 B", "E 3-0 C", "A 1-0 D", "B 4-0 D", "C 4-0 D", "E 1-0 D",
    )
    iihf = with_ranking(
        "youth-football",
        ["points", "head_to_head", "head_to_head_goal_difference", "head_to_head_goals_for", "versus_best_outside",
         "lots"],
        "restart",
    )
    table = rank_pool(iihf, "P", results)
    assert order(table) == ["E", "A", "B", "C", "D"]
    assert "ahead on goal difference against E -1 vs -3" in str(row(table, "A")["reason"])
    assert "ahead on head-to-head points 3 vs 0" in str(row(table, "B")["reason"])


# A, B and C level on 6 points (each beat D); their games
# among them went round in a circle (1 win each) but by different margins.
MUTUAL = played(
    "P", "A 3-0 B", "B 1-0 C", "C 1-0 A", "A 2-0 D", "B 2-0 D", "C 1-0 D",
)


def test_mutual_matches_count_points_only_or_goals_too_as_the_ruleset_says() -> None:
    criteria = ["points", "head_to_head", "lots"]
    points_only = rank_pool(with_ranking("youth-football", criteria), "P", MUTUAL)
    assert [u.teams for u in points_only.unresolved] == [("A", "B", "C")]  # 3 points each among them
    ruleset = with_ranking("youth-football", criteria)
    counted = ruleset.replace(ranking=ruleset.ranking.replace(mutual="points_goal_difference_goals"))
    table = rank_pool(counted, "P", MUTUAL)
    assert order(table)[:3] == ["A", "C", "B"] and table.unresolved == ()  # goal difference among them: +2, 0, -2
    assert str(row(table, "A")["reason"]).endswith("ahead on head-to-head goal difference among A, B and C +2 vs 0")

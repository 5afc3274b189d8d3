"""Every place says why it is there, written from the step that decided it."""

from __future__ import annotations

from importlib import resources

from rules.ruleset import load_ruleset
from rules.standings import parse_results_csv, rank_pool, rank_pools
from rules.standings.criteria import Component, Step, count
from rules.standings.reasons import compare, level_clauses
from tests.standings_support import played, row, with_ranking


def example() -> str:
    return resources.files("rules.examples").joinpath("indoor-hockey-pools.csv").read_text(encoding="utf-8")


def test_the_shipped_example_explains_each_place() -> None:
    standings = rank_pools(load_ruleset("indoor-hockey"), parse_results_csv(example(), "example"))
    a = {r.team: r.reason for r in standings.pools["A"].rows}
    assert a["HC Bloemendaal"] == "level on 12 points and 2 wins; ahead on goal difference +6 vs +5"
    assert a["Rot-Weiss Köln"] == "ahead on points 12 vs 6"
    assert a["Royal Léopold Club"] == "last; behind on points 1 vs 6"
    b = {r.team: r.reason for r in standings.pools["B"].rows}
    assert b["HC Rotterdam"] == "level on 5 points; ahead on wins 1 vs 0"
    assert b["Club an der Alster"] == "last; level on 5 points; behind on wins 0 vs 1"


def step(criterion: str, **numbers: int) -> Step:
    values = {t: (count(criterion, n),) for t, n in numbers.items()}
    return Step(criterion=criterion, teams=tuple(numbers), values=values)


def test_the_last_step_that_separated_two_teams_is_the_one_that_counts() -> None:
    # an early split set aside (top_team starts again with the rest) does not explain the final order
    steps = [step("points", X=4, Y=4), step("goals", X=1, Y=3), step("wins", X=2, Y=2), step("tries", X=5, Y=2)]
    c = compare(steps, "X", "Y")
    assert (c.upper, c.lower) == (count("tries", 5), count("tries", 2))
    assert c.level == (("4 points", ""), ("2 wins", ""))


def test_a_step_that_never_compared_both_teams_says_nothing_about_them() -> None:
    steps = [step("points", X=4, Y=4, Z=1), step("goals", X=1, Z=0)]
    assert compare(steps, "X", "Y").upper is None
    assert compare(steps, "X", "Y").level == (("4 points", ""),)


def test_level_numbers_of_one_scope_are_named_together() -> None:
    among = " among A, B and C"
    level = [("6 points", ""), ("2 wins", ""), ("1 point", among), ("goal difference 0", among)]
    assert level_clauses(level) == "6 points and 2 wins; 1 point and goal difference 0 among A, B and C"


def test_an_early_split_set_aside_by_top_team_mode_is_not_the_reason() -> None:
    # goal difference first put E (0) above D (-3); top_team then placed D above E by
    # their game, and the reason names that game, not goal difference
    five = played(
        "P", "A 2-0 B", "A 2-0 C", "A 0-2 D", "A 0-1 E", "B 1-0 C",
        "B 3-0 D", "B 1-2 E", "C 3-0 D", "C 3-2 E", "D 2-1 E",
    )
    ruleset = with_ranking("youth-football", ["points", "head_to_head", "goal_difference", "lots"], "top_team")
    reason = str(row(rank_pool(ruleset, "P", five), "D")["reason"])
    assert reason.endswith("ahead on head-to-head points 3 vs 0")
    assert "goal difference" not in reason


def test_unresolved_teams_say_who_they_are_level_with_and_what_is_needed() -> None:
    table = rank_pool(load_ruleset("indoor-hockey"), "A", played("A", "X 2-2 Y"))
    assert row(table, "X")["reason"] == (
        "level with Y on 2 points, 0 wins, goal difference 0, 2 goals scored and 2 head-to-head points; "
        "needs a penalty competition held after the round (give the order as a decision with method "
        "'penalty_competition')"
    )


def test_a_pool_of_one_team() -> None:
    table = rank_pool(load_ruleset("youth-football"), "A", [], teams=["Solo"])
    assert row(table, "Solo")["reason"] == "only team in the pool"


def test_components_carry_singular_and_signed_wording() -> None:
    assert count("points", 1).level == "1 point"
    assert count("goals scored", 3).level == "3 goals scored"
    assert isinstance(count("wins", 0), Component)

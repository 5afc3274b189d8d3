"""Results a ruleset cannot produce are refused with the reason (rules.standings.possible)."""

from __future__ import annotations

from pathlib import Path

import pytest

from courtside.cli import main
from rules.errors import ResultsError
from rules.ruleset import load_ruleset
from rules.standings import MatchResult, parse_results_csv
from rules.standings.possible import impossible

DOCS = Path(__file__).resolve().parent.parent / "docs" / "rulesets"
INDOOR_HOCKEY = load_ruleset("indoor-hockey")  # pools may end level; golden goal, then strokes, in classification
ICE_HOCKEY = load_ruleset("ice-hockey")  # pools may end level; placement games go straight to shots (no overtime)
WATER_POLO = load_ruleset("water-polo")  # no extra time: a level play-off goes straight to penalty shots
IIHF = load_ruleset(DOCS / "iihf.toml")  # no game ends level: overtime, then shots, in every game


def result(home_goals: int, away_goals: int, outcome: str = "regular", shots: tuple[int, int] | None = None
           ) -> MatchResult:
    return MatchResult(
        pool="A", home="H", away="V", home_goals=home_goals, away_goals=away_goals,
        outcome=outcome,  # type: ignore[arg-type]
        home_shootout=shots[0] if shots else None, away_shootout=shots[1] if shots else None,
    )


def test_a_pool_match_that_may_end_level_has_no_overtime_and_no_shootout() -> None:
    assert impossible(INDOOR_HOCKEY.match, result(2, 2), "round_robin") is None
    assert "may end level" in str(impossible(INDOOR_HOCKEY.match, result(3, 2, "overtime"), "round_robin"))
    assert "no shoot-out" in str(impossible(ICE_HOCKEY.match, result(2, 2, "shootout", (3, 2)), "round_robin"))


def test_overtime_in_a_match_that_has_no_extra_time() -> None:
    # water polo: "play-off draws go straight to penalty shots, no extra time"
    problem = impossible(WATER_POLO.match, result(9, 8, "overtime"), "knockout")
    assert problem == "this ruleset has no overtime (match.overtime); a level match goes to its shoot-out"
    assert impossible(ICE_HOCKEY.match, result(3, 2, "overtime"), "knockout") is not None


def test_a_level_knockout_without_its_shootout() -> None:
    problem = impossible(WATER_POLO.match, result(8, 8), "knockout")
    assert problem is not None and "cannot end level" in problem and "outcome shootout" in problem
    problem = impossible(INDOOR_HOCKEY.match, result(2, 2), "knockout")
    assert problem is not None and "outcome overtime or shootout" in problem


def test_iihf_pool_games_cannot_end_level_and_may_go_to_overtime_and_shots() -> None:
    assert impossible(IIHF.match, result(2, 2), "round_robin") is not None
    assert impossible(IIHF.match, result(3, 2, "overtime"), "round_robin") is None
    assert impossible(IIHF.match, result(2, 2, "shootout", (1, 0)), "round_robin") is None


def test_golden_goal_overtime_is_won_by_one_goal() -> None:
    # indoor hockey: "GOLDEN GOAL extra time": the first goal ends it
    assert impossible(INDOOR_HOCKEY.match, result(3, 2, "overtime"), "knockout") is None
    problem = impossible(INDOOR_HOCKEY.match, result(4, 2, "overtime"), "knockout")
    assert problem == "golden-goal overtime ends at the first goal, so it is won by one goal, but the score is 4-2"


@pytest.mark.parametrize(("shots", "possible"), [
    ((1, 0), True),   # 1 of 3 against 0 of 3
    ((2, 0), True),   # 2 of 2 against 0 of 2: the third pair cannot change it
    ((3, 0), False),  # decided at 2-0 already
    ((3, 2), True),
    ((4, 3), True),   # sudden death
    ((5, 3), False),  # sudden death is won by one
    ((7, 6), True),
])
def test_a_shootout_ends_as_soon_as_one_side_cannot_catch_up(shots: tuple[int, int], possible: bool) -> None:
    # ice hockey preset: three shooters each, then one each until decided
    problem = impossible(ICE_HOCKEY.match, result(2, 2, "shootout", shots), "knockout")
    assert (problem is None) == possible, problem
    mirrored = impossible(ICE_HOCKEY.match, result(2, 2, "shootout", shots[::-1]), "knockout")
    assert (mirrored is None) == possible


def test_five_kicks_each_can_end_3_0_but_not_5_0() -> None:
    youth = load_ruleset("youth-football")
    assert youth.match.shootout is not None and youth.match.shootout.rounds == [5]
    assert impossible(youth.match, result(1, 1, "shootout", (3, 0)), "knockout") is None
    assert "cannot end 5-0" in str(impossible(youth.match, result(1, 1, "shootout", (5, 0)), "knockout"))


def test_the_results_reader_refuses_them_at_their_line() -> None:
    text = "pool,home,away,home_goals,away_goals,outcome\nA,H,V,1,1,\nA,H,W,3,2,overtime\n"
    with pytest.raises(ResultsError) as caught:
        parse_results_csv(text, "r.csv", check=lambda r: impossible(INDOOR_HOCKEY.match, r, "round_robin"))
    assert caught.value.line == 3
    assert "may end level under this ruleset" in caught.value.message


def test_the_standings_command_refuses_a_shootout_in_a_pool_that_may_end_level(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "results.csv"
    path.write_text(
        "pool,home,away,home_goals,away_goals,outcome,home_shootout,away_shootout\n"
        "A,Lions,Bears,2,2,shootout,3,2\n"
    )
    assert main(["standings", "--rules", "ice-hockey", "--results", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}, line 2: a pool match may end level under this ruleset" in err

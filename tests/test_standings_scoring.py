"""What a result is worth: points by the ruleset, goals that count, the won/drawn/lost columns."""

from __future__ import annotations

import pytest

from rules.errors import ResultsError
from rules.ruleset import load_ruleset
from rules.standings import MatchResult, winner_of
from rules.standings.scoring import PoolData, score

HOCKEY = load_ruleset("indoor-hockey")
WATER_POLO = load_ruleset("water-polo")
YOUTH = load_ruleset("youth-football")
ICE = load_ruleset("ice-hockey")
IIHF = load_ruleset("docs/rulesets/iihf.toml")


def match(home_goals: int, away_goals: int, **kw: object) -> MatchResult:
    return MatchResult(pool="A", home="Home", away="Away", home_goals=home_goals, away_goals=away_goals, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("home_goals", "away_goals", "points"),
    [
        (3, 1, (5, 1)),  # seed 000: "Loss with goal difference of no more than 2: 1 point"
        (4, 3, (5, 1)),
        (4, 1, (5, 0)),  # "Loss with more than 2 goals between the teams: 0 points"
        (2, 2, (2, 2)),  # "Draw: 2 points"
        (0, 7, (0, 5)),
    ],
)
def test_indoor_hockey_margin_bands(home_goals: int, away_goals: int, points: tuple[int, int]) -> None:
    scored = score(HOCKEY, match(home_goals, away_goals))
    assert (scored.home_points, scored.away_points) == points


@pytest.mark.parametrize(
    ("result", "points"),
    [
        # a golden goal in extra time: a loss by one goal, inside "no more than 2: 1 point"
        (match(3, 2, outcome="overtime"), (5, 1)),
        # full extra time can end with a wider margin: outside the band, 0 points
        (match(6, 2, outcome="overtime"), (5, 0)),
        # level after play, lost on penalty strokes: the narrowest loss there is
        (match(1, 1, outcome="shootout", home_shootout=2, away_shootout=3), (1, 5)),
    ],
)
def test_overtime_and_shootout_without_own_points_score_like_a_regular_result(
    result: MatchResult, points: tuple[int, int]
) -> None:
    # indoor hockey sets no overtime or shoot-out points, so its loss band applies:
    # seed 000, "Loss with goal difference of no more than 2: 1 point"
    scored = score(HOCKEY, result)
    assert (scored.home_points, scored.away_points) == points
    assert scored.winner == ("Home" if points[0] > points[1] else "Away")


def test_overtime_and_shootout_without_own_points_or_bands_give_the_loser_loss() -> None:
    overtime = score(YOUTH, match(3, 2, outcome="overtime"))
    shootout = score(YOUTH, match(1, 1, outcome="shootout", home_shootout=2, away_shootout=3))
    assert (overtime.home_points, overtime.away_points) == (YOUTH.points.win, YOUTH.points.loss)
    assert (shootout.home_points, shootout.away_points) == (YOUTH.points.loss, YOUTH.points.win)


def test_iihf_three_two_one_zero() -> None:
    regular = score(IIHF, match(4, 2))
    overtime = score(IIHF, match(2, 3, outcome="overtime"))
    shots = score(IIHF, match(1, 1, outcome="shootout", home_shootout=3, away_shootout=2))
    assert (regular.home_points, regular.away_points) == (3, 0)
    assert (overtime.home_points, overtime.away_points) == (1, 2)
    assert (shots.home_points, shots.away_points) == (2, 1)


def test_shootout_goals_never_count_in_goal_totals() -> None:
    result = match(3, 3, outcome="shootout", home_shootout=5, away_shootout=4)
    data = PoolData.build(WATER_POLO, "A", [result], ["Home", "Away"])
    home, away = data.overall["Home"], data.overall["Away"]
    assert (home.goals_for, home.goals_against, home.won, home.points) == (3, 3, 1, 2)
    assert (away.goals_for, away.goals_against, away.lost, away.points) == (3, 3, 1, 0)
    assert (home.drawn, away.drawn) == (0, 0)


def test_a_walkover_without_a_score_takes_the_rulesets_score_for_its_winner() -> None:
    # seed 003: "Walk-over (WO) ger tre poäng samt 3-0 som slutresultat"
    scored = score(YOUTH, match(0, 0, outcome="walkover", winner="Away"))
    assert (scored.home_goals, scored.away_goals) == (0, 3)
    assert (scored.home_points, scored.away_points) == (0, 3)


def test_a_forfeit_scores_zero_five_and_the_loser_points_the_ruleset_gives() -> None:
    # seed 004: the forfeiting team "officially loses the placement game(s) 0-5"
    scored = score(ICE, match(0, 0, outcome="forfeit", winner="Home"))
    assert (scored.home_goals, scored.away_goals, scored.home_points, scored.away_points) == (5, 0, 2, 0)
    kind = ICE.replace(points=ICE.points.replace(forfeit_loser_points=1))
    assert score(kind, match(0, 0, outcome="forfeit", winner="Home")).away_points == 1


def test_an_awarded_match_keeps_a_score_that_was_entered() -> None:
    scored = score(YOUTH, match(0, 6, outcome="forfeit", winner="Away"))
    assert (scored.home_goals, scored.away_goals) == (0, 6)


def test_winner_of() -> None:
    assert winner_of(YOUTH, match(2, 1)) == "Home"
    assert winner_of(YOUTH, match(1, 1)) is None
    assert winner_of(YOUTH, match(2, 2, outcome="shootout", home_shootout=4, away_shootout=5)) == "Away"
    assert winner_of(YOUTH, match(0, 0, outcome="walkover", winner="Home")) == "Home"
    with pytest.raises(ResultsError, match="needs the winner column"):
        winner_of(YOUTH, match(0, 0, outcome="walkover"))


def test_records_count_only_the_chosen_opponents() -> None:
    results = [
        MatchResult(pool="A", home="X", away="Y", home_goals=2, away_goals=0),
        MatchResult(pool="A", home="Z", away="X", home_goals=1, away_goals=1),
    ]
    data = PoolData.build(YOUTH, "A", results, ["X", "Y", "Z", "W"])
    x = data.overall["X"]
    assert (x.played, x.won, x.drawn, x.lost, x.goals_for, x.goals_against, x.points) == (2, 1, 1, 0, 3, 1, 4)
    versus_z = data.against("X", frozenset({"Z"}))
    assert (versus_z.played, versus_z.points, versus_z.goal_difference) == (1, 1, 0)
    assert data.overall["W"].played == 0

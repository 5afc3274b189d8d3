"""How a match ends, and the standings' form of it."""

from __future__ import annotations

import pytest

from rules.errors import IllegalCommand
from rules.match import (
    ClockStarted,
    Forfeit,
    Goal,
    Match,
    MatchAbandoned,
    MatchOutcome,
    PenaltyAwarded,
    ShootoutAttempt,
    Walkover,
)
from rules.result import standings_result
from rules.ruleset import load_ruleset

S = 1000
MIN = 60 * S


def test_walkover_gives_the_ruleset_score() -> None:
    m = Match(load_ruleset("youth-football"))
    m.apply(Walkover(at=0, team="home"))  # "Walk-over (WO) ger tre poäng samt 3-0"
    assert m.result() == MatchOutcome(home_goals=0, away_goals=3, outcome="walkover", winner="away")
    started = Match(load_ruleset("youth-football"))
    started.apply(ClockStarted(at=0))
    with pytest.raises(IllegalCommand, match="before the match starts"):
        started.apply(Walkover(at=S, team="home"))


def test_forfeit_is_a_zero_five_loss_in_ice_hockey() -> None:
    m = Match(load_ruleset("ice-hockey"), stage="knockout")
    m.apply(ClockStarted(at=0))
    m.apply(Goal(at=MIN, team="away"))
    m.apply(Forfeit(at=2 * MIN, team="away"))  # "officially loses the placement game(s) 0-5"
    result = m.result()
    assert result is not None
    assert (result.home_goals, result.away_goals, result.winner, result.outcome) == (5, 0, "home", "forfeit")
    with pytest.raises(IllegalCommand, match="the match is over"):
        m.apply(Goal(at=3 * MIN, team="home"))


def test_abandoned_match_keeps_the_score_and_names_no_winner() -> None:
    m = Match(load_ruleset("ice-hockey"))
    m.apply(ClockStarted(at=0))
    m.apply(Goal(at=MIN, team="home"))
    m.apply(MatchAbandoned(at=5 * MIN, reason="power cut"))
    result = m.result()
    assert result is not None
    assert (result.home_goals, result.away_goals, result.winner, result.outcome) == (1, 0, None, "abandoned")


def test_regular_win_and_sanctions_in_the_result() -> None:
    m = Match(load_ruleset("youth-football"))
    m.apply(ClockStarted(at=0))
    m.apply(Goal(at=MIN, team="away"))
    m.apply(PenaltyAwarded(at=2 * MIN, team="home", kind="red", player="4"))
    m.apply(PenaltyAwarded(at=3 * MIN, team="home", kind="yellow", player="5"))
    m.apply(ClockStarted(at=25 * MIN))
    result = m.result(45 * MIN)
    assert result is not None
    assert (result.outcome, result.winner, result.away_goals) == ("regular", "away", 1)
    assert [(c.player, c.kind, c.suspended_next_matches) for c in result.sanctions] == [("4", "red", 1)]


def test_result_in_the_standings_form() -> None:
    from rules import standings
    m = Match(load_ruleset("indoor-hockey"), stage="knockout")
    m.apply(ClockStarted(at=0))
    m.apply(ClockStarted(at=25 * MIN))
    m.apply(ClockStarted(at=47 * MIN))
    m.apply(Goal(at=48 * MIN, team="home"))
    result = m.result()
    assert result is not None
    row = standings_result(result, pool="SF", home="Rot-Weiss", away="Uhlenhorst")
    assert isinstance(row, standings.MatchResult)
    assert (row.home_goals, row.away_goals, row.outcome, row.winner) == (1, 0, "overtime", "Rot-Weiss")


def test_every_kind_of_ending_is_a_result_the_standings_accept() -> None:
    from rules.standings.results import result_problem

    def row(m: Match) -> object:
        result = m.result()
        assert result is not None
        return standings_result(result, pool="A", home="Kosice", away="Presov")

    shootout = Match(load_ruleset("indoor-football"), stage="knockout")
    shootout.apply(ClockStarted(at=0))
    shootout.apply(ClockStarted(at=11 * MIN))
    for i, team in enumerate(("home", "away") * 2):
        shootout.apply(ShootoutAttempt(at=22 * MIN + i * S, team=team, scored=team == "away"))  # type: ignore[arg-type]
    walkover = Match(load_ruleset("youth-football"))
    walkover.apply(Walkover(at=0, team="home"))
    forfeit = Match(load_ruleset("ice-hockey"))
    forfeit.apply(ClockStarted(at=0))
    forfeit.apply(Forfeit(at=MIN, team="away"))
    draw = Match(load_ruleset("indoor-football"))
    draw.apply(ClockStarted(at=0))
    draw.apply(ClockStarted(at=11 * MIN))
    draw.apply(ClockStarted(at=21 * MIN + 2 * S))  # a late press after the horn changes nothing
    for m in (shootout, walkover, forfeit, draw):
        assert result_problem(row(m)) is None  # type: ignore[arg-type]

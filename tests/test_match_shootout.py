"""Shoot-outs: stages, sudden death, ending as soon as one side cannot be caught."""

from __future__ import annotations

import pytest

from rules.errors import IllegalCommand
from rules.match import ClockStarted, Goal, Match, ShootoutAttempt, Side
from rules.match.shootout import Attempt, tally
from rules.ruleset import Shootout, load_ruleset
from rules.words.state import period_name

S = 1000
MIN = 60 * S


def shots(*seq: tuple[Side, bool]) -> tuple[Attempt, ...]:
    return tuple(Attempt(seq=i, team=t, scored=g) for i, (t, g) in enumerate(seq, start=1))


def alternate(home: str, away: str, first: Side = "home") -> tuple[Attempt, ...]:
    """Shots from two strings of 'x' (scored) and '.' (missed), taken in turn."""
    order: list[tuple[Side, bool]] = []
    second: Side = "away" if first == "home" else "home"
    mine = {"home": home, "away": away}
    for i in range(max(len(home), len(away))):
        for team in (first, second):
            if i < len(mine[team]):
                order.append((team, mine[team][i] == "x"))
    return shots(*order)


THREE = Shootout(rounds=[3], sudden_death=True)
WATER_POLO = Shootout(rounds=[3, 5], sudden_death=True)


def test_ends_as_soon_as_one_side_cannot_be_caught() -> None:
    # 2-0 after two each: the away side has one shot left and cannot reach 2.
    t = tally(THREE, alternate("xx", ".."))
    assert (t.decided, t.winner) == (True, "home")
    t = tally(THREE, alternate("..", "xx"))  # 0-2 after two each: home's last shot cannot make it level
    assert (t.decided, t.winner) == (True, "away")
    t = tally(THREE, alternate("..", "x"))  # 0-1, home has one shot left and can still draw level
    assert (t.decided, t.next_team) == (False, "away")


def test_not_decided_while_the_trailing_side_can_still_draw_level() -> None:
    t = tally(THREE, alternate("xx", "x."))  # 2-1 after two each: away can still make 2-2
    assert (t.decided, t.next_team, t.limit) == (False, "home", 3)
    t = tally(THREE, alternate("x", ""))  # home shot first and scored
    assert (t.decided, t.next_team) == (False, "away")


def test_first_shooter_counts_in_the_remaining_shots() -> None:
    # Home leads 2-0 after home's 3rd shot with away on 2 shots taken: away has 1 left, cannot catch up.
    t = tally(THREE, alternate("x.x", "..", first="home"))
    assert t.winner == "home"
    # Same count but away shoots first and has taken 2 of 3 after home's 2nd: home 2-0 after home 2: away 1 left.
    t = tally(THREE, alternate("xx", "..", first="away"))
    assert t.winner == "home"
    # 1-0 after home's first (home first): away still has three.
    assert not tally(THREE, alternate("x", "")).decided


def test_sudden_death_after_the_initial_rounds() -> None:
    t = tally(THREE, alternate("x..", "x.."))
    assert (t.decided, t.limit) == (False, 4)
    assert tally(THREE, alternate("x..x", "x..")).decided is False  # away still to shoot in round 4
    assert tally(THREE, alternate("x..x", "x...")).winner == "home"
    assert tally(THREE, alternate("x...", "x..x")).winner == "away"


def test_water_polo_three_then_five_then_sudden_death() -> None:
    level3 = alternate("x.x", "xx.")
    assert tally(WATER_POLO, level3).limit == 5  # "if both teams are still tied": on to five shots
    assert tally(WATER_POLO, alternate("x.xxx", "xx...")).winner == "home"  # 4-2 with one away shot left
    t = tally(WATER_POLO, alternate("x.xx.", "xx.x."))
    assert (t.decided, t.limit) == (False, 6)  # "after five shots, sudden death"
    assert tally(WATER_POLO, alternate("x.xx.x", "xx.x..")).winner == "home"


def test_no_sudden_death_ends_level() -> None:
    t = tally(Shootout(rounds=[2], sudden_death=False), alternate("x.", ".x"))
    assert (t.decided, t.winner) == (True, None)


def test_match_goes_to_the_shootout_and_takes_turns() -> None:
    m = Match(load_ruleset("indoor-football"), stage="knockout")
    m.apply(ClockStarted(at=0))
    m.apply(ClockStarted(at=11 * MIN))
    state = m.state_at(21 * MIN + S)
    assert (state.phase, state.period_kind, period_name(state, m.ruleset)) == ("shootout", "shootout", "penalties")
    m.apply(ShootoutAttempt(at=22 * MIN, team="away", scored=True, player="9"))
    # Once shots are taken the level score is settled: no goal of the match can be added.
    with pytest.raises(IllegalCommand, match="shots of the penalties have been taken"):
        m.apply(Goal(at=22 * MIN + S, team="home"))
    with pytest.raises(IllegalCommand, match="it is HOME's turn to shoot"):
        m.apply(ShootoutAttempt(at=22 * MIN + S, team="away", scored=True))
    for i, (team, scored) in enumerate([("home", False), ("away", True), ("home", False)]):
        m.apply(ShootoutAttempt(at=23 * MIN + i * S, team=team, scored=scored))  # type: ignore[arg-type]
    # 2-0 with one home shot against one away shot left: home cannot draw level.
    result = m.result()
    assert result is not None
    assert (result.outcome, result.winner, result.home_shootout, result.away_shootout) == ("shootout", "away", 0, 2)
    assert (result.home_goals, result.away_goals) == (0, 0)
    with pytest.raises(IllegalCommand, match="no shoot-out is being played"):
        m.apply(ShootoutAttempt(at=24 * MIN, team="home", scored=True))

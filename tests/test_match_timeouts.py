"""Time-outs: indoor hockey one per half, a new one in extra time; water polo only in semis and final."""

from __future__ import annotations

import pytest

from rules.errors import IllegalCommand
from rules.match import (
    ClockStarted,
    Match,
    SetPieceEnded,
    SetPieceStarted,
    TimeoutEnded,
    TimeoutStarted,
)
from rules.match.timeouts import segment
from rules.ruleset import load_ruleset

S = 1000
MIN = 60 * S


def test_segments_follow_the_ruleset() -> None:
    hockey, polo = load_ruleset("indoor-hockey"), load_ruleset("water-polo")
    assert [segment(hockey, p) for p in (1, 2, 3, 4)] == ["half 1", "half 2", "overtime", "overtime"]
    assert [segment(polo, p) for p in (1, 4, 5)] == ["match", "match", "overtime"]


def test_one_per_half_and_the_clock_stops_for_it() -> None:
    m = Match(load_ruleset("indoor-hockey"))
    m.apply(ClockStarted(at=0))
    m.apply(TimeoutStarted(at=5 * MIN, team="home"))
    state = m.state_at(5 * MIN + 10 * S)
    assert state.running is False and state.clock_ms == 15 * MIN
    assert state.timeout is not None and (state.timeout.team, state.timeout.remaining_ms) == ("home", 50 * S)
    assert (state.home_timeouts_left, state.away_timeouts_left) == (0, 1)
    # It ends by itself after its minute, with a horn.
    assert m.state_at(6 * MIN).timeout is None
    assert [(h.at, h.reason) for h in m.horns_between(5 * MIN, 7 * MIN)] == [(6 * MIN, "timeout_end")]
    m.apply(ClockStarted(at=6 * MIN + 5 * S))
    with pytest.raises(IllegalCommand, match="no time-out left for HOME in this half"):
        m.apply(TimeoutStarted(at=10 * MIN, team="home"))


def test_unused_time_outs_lapse_and_the_second_half_has_its_own() -> None:
    m = Match(load_ruleset("indoor-hockey"))
    m.apply(ClockStarted(at=0))
    state = m.state_at(21 * MIN)  # half-time: both teams see the second half's one
    assert (state.home_timeouts_left, state.away_timeouts_left) == (1, 1)
    m.apply(ClockStarted(at=25 * MIN))
    m.apply(TimeoutStarted(at=30 * MIN, team="away"))
    m.apply(TimeoutEnded(at=30 * MIN + 20 * S))
    assert m.state_at(30 * MIN + 20 * S).timeout is None
    m.apply(ClockStarted(at=31 * MIN))
    with pytest.raises(IllegalCommand, match="no time-out left for AWAY"):
        m.apply(TimeoutStarted(at=32 * MIN, team="away"))


def test_a_new_time_out_in_extra_time() -> None:
    m = Match(load_ruleset("indoor-hockey"), stage="knockout")
    m.apply(ClockStarted(at=0))
    m.apply(TimeoutStarted(at=MIN, team="home"))
    m.apply(ClockStarted(at=2 * MIN))
    m.apply(ClockStarted(at=27 * MIN))
    # 0-0 at the end of the second half (47:00): extra time after a 2-minute break.
    state = m.state_at(49 * MIN + S)
    assert (state.phase, state.period_kind, state.home_timeouts_left) == ("play", "extra_time", 1)
    m.apply(ClockStarted(at=50 * MIN))
    m.apply(TimeoutStarted(at=51 * MIN, team="home"))
    m.apply(ClockStarted(at=52 * MIN))
    with pytest.raises(IllegalCommand, match="no time-out left for HOME in extra time"):
        m.apply(TimeoutStarted(at=53 * MIN, team="home"))


def test_no_time_out_while_a_penalty_corner_is_being_awarded() -> None:
    m = Match(load_ruleset("indoor-hockey"))
    m.apply(ClockStarted(at=0))
    m.apply(SetPieceStarted(at=MIN, name="penalty_corner"))
    with pytest.raises(IllegalCommand, match="no time-out while a penalty corner is being awarded"):
        m.apply(TimeoutStarted(at=MIN + S, team="away"))
    m.apply(SetPieceEnded(at=MIN + 30 * S))
    m.apply(TimeoutStarted(at=MIN + 31 * S, team="away"))
    with pytest.raises(IllegalCommand, match="not a set piece"):
        m.apply(SetPieceStarted(at=MIN + 32 * S, name="free_hit"))


def test_water_polo_time_outs_only_in_semi_finals_and_final() -> None:
    polo = load_ruleset("water-polo")
    for round_name in (None, "quarter_final"):
        m = Match(polo, stage="knockout", round=round_name)
        m.apply(ClockStarted(at=0))
        assert m.state_at(S).home_timeouts_left == 0
        with pytest.raises(IllegalCommand, match=r"no time-outs in .*only in semi final, final"):
            m.apply(TimeoutStarted(at=S, team="home"))
    semi = Match(polo, stage="knockout", round="semi_final")
    semi.apply(ClockStarted(at=0))
    semi.apply(TimeoutStarted(at=S, team="home"))
    semi.apply(ClockStarted(at=MIN + S))
    with pytest.raises(IllegalCommand, match="no time-out left for HOME in this match"):
        semi.apply(TimeoutStarted(at=2 * MIN, team="home"))


def test_sports_without_time_outs_refuse_them() -> None:
    m = Match(load_ruleset("ice-hockey"))
    m.apply(ClockStarted(at=0))
    with pytest.raises(IllegalCommand, match="the ice-hockey rules allow no time-outs"):
        m.apply(TimeoutStarted(at=S, team="away"))

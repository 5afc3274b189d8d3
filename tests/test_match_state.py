"""The snapshot: clock text and tenths, wall-clock cap, strength, JSON form."""

from __future__ import annotations

import dataclasses
import json

import pytest

from rules.errors import StateDataError
from rules.match import ClockStarted, ClockStopped, Match, MatchState, PenaltyAwarded
from rules.ruleset import load_ruleset
from rules.words.state import clock_text, strength_text

S = 1000
MIN = 60 * S


def test_tenths_are_shown_in_the_last_minute() -> None:
    m = Match(load_ruleset("indoor-football"))
    m.apply(ClockStarted(at=0))
    assert (clock_text(m.state_at(8 * MIN + 59_050)), m.state_at(8 * MIN + 59_050).tenths) == ("1:01", False)
    state = m.state_at(9 * MIN + 250)
    assert (clock_text(state), state.tenths) == ("59.8", True)
    assert clock_text(m.state_at(10 * MIN - 40)) == "0.1"  # counts down rounding up: 0.0 only at the horn


def test_wall_clock_cap_says_what_remains_and_whether_a_full_period_fits() -> None:
    m = Match(load_ruleset("ice-hockey"))
    m.apply(ClockStarted(at=10 * S))
    m.apply(ClockStopped(at=10 * MIN))  # a long delay: the ice needs repair
    early = m.state_at(20 * MIN)
    assert (early.wall_clock_remaining_ms, early.full_period_fits) == (25 * MIN + 10 * S, True)
    late = m.state_at(31 * MIN)
    assert (late.wall_clock_remaining_ms, late.full_period_fits) == (14 * MIN + 10 * S, False)
    assert m.state_at(60 * MIN).wall_clock_remaining_ms == 0


def test_no_wall_clock_figures_without_a_cap() -> None:
    m = Match(load_ruleset("indoor-hockey"))
    m.apply(ClockStarted(at=0))
    state = m.state_at(MIN)
    assert (state.wall_clock_remaining_ms, state.full_period_fits) == (None, None)


def test_strength_is_shown_only_when_the_number_on_the_field_is_known() -> None:
    # Indoor football's ruleset says four a side ("Four players per team on pitch");
    # an explicit on_field overrides it (a tournament playing five a side).
    for on_field, expected in ((None, "3 v 4"), (5, "4 v 5")):
        m = Match(load_ruleset("indoor-football"), on_field=on_field)
        assert m.on_field == (on_field or 4)
        m.apply(ClockStarted(at=0))
        m.apply(PenaltyAwarded(at=S, team="home", kind="sin_bin", player="2"))
        state = m.state_at(2 * S)
        assert (state.home_short, strength_text(state)) == (1, expected)


def test_strength_is_blank_when_the_ruleset_leaves_the_number_open() -> None:
    # Youth football's rules do not say how many play a side (it depends on the age group).
    m = Match(load_ruleset("youth-football"))
    m.apply(ClockStarted(at=0))
    m.apply(PenaltyAwarded(at=S, team="home", kind="red", player="2"))
    state = m.state_at(2 * S)
    assert (state.home_short, strength_text(state)) == (1, None)
    assert strength_text(Match(load_ruleset("youth-football"), on_field=7).state_at(0)) == "7 v 7"
    with pytest.raises(ValueError, match="on_field"):
        Match(load_ruleset("youth-football"), on_field=0)


def test_state_turns_into_json() -> None:
    m = Match(load_ruleset("indoor-hockey"))
    m.apply(ClockStarted(at=0))
    m.apply(PenaltyAwarded(at=S, team="home", kind="green", player="2"))
    data = json.loads(json.dumps(m.state_at(10 * S).to_dict()))
    assert (data["clock_ms"], data["clock_down"]) == (19 * MIN + 50 * S, True)
    assert MatchState.from_dict(data) == m.state_at(10 * S)
    assert data["penalties"][0]["player"] == "2"
    assert data["penalties"][0]["remaining_ms"] == 51 * S
    assert data["phase"] == "play" and data["result"] is None


def test_a_state_read_back_names_its_first_wrong_key() -> None:
    m = Match(load_ruleset("indoor-hockey"))
    m.apply(PenaltyAwarded(at=S, team="home", kind="green", player="2"))
    data = json.loads(json.dumps(m.state_at(S).to_dict()))
    for change, where in (({"penalties": [{**data["penalties"][0], "team": "hme"}]}, "state.penalties[0].team"),
                          ({"home_goals": True}, "state.home_goals"), ({"score": 1}, "state.score")):
        with pytest.raises(StateDataError) as err:
            MatchState.from_dict({**data, **change})
        assert err.value.where == where
    with pytest.raises(StateDataError, match=r"^state: "):
        MatchState.from_dict([])


def test_before_the_match_the_clock_shows_the_full_period() -> None:
    state = Match(load_ruleset("water-polo")).state_at(0)
    assert (state.phase, clock_text(state), state.running, state.possession_ms) == ("pre_match", "7:00", False, None)


def test_the_state_built_for_speed_equals_the_plainly_built_one() -> None:
    # state_at assembles MatchState and running PenaltyViews without their __init__ (a frame's
    # main cost): the result must be the same value, field for field, and still frozen.
    m = Match(load_ruleset("ice-hockey"), on_field=5)
    m.apply(ClockStarted(at=0))
    m.apply(ClockStopped(at=MIN))
    m.apply(PenaltyAwarded(at=MIN, team="home", kind="minor", player="4"))
    m.apply(ClockStarted(at=MIN + S))
    for at in (MIN + 2 * S, MIN + 3 * S, 4 * MIN):
        state = m.state_at(at)
        plain = MatchState(**{f.name: getattr(state, f.name) for f in dataclasses.fields(MatchState)})
        assert state == plain and vars(state) == vars(plain)
        for view in state.penalties:
            assert view == type(view)(**{f.name: getattr(view, f.name) for f in dataclasses.fields(view)})
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.at = 0  # type: ignore[misc]
    assert m.state_at(MIN + 2 * S).penalties[0].remaining_ms == MIN + 59 * S

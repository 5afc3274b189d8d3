"""What time does by itself: periods run out, intervals end, extra time and shoot-outs follow, horns."""

from __future__ import annotations

from rules.match import ClockStarted, ClockStopped, Goal, GoalDisallowed, Match, PossessionReset
from rules.ruleset import load_ruleset
from rules.words.state import period_name

S = 1000
MIN = 60 * S


def test_water_polo_four_periods_of_playing_time_with_their_breaks() -> None:
    m = Match(load_ruleset("water-polo"))
    at = 0
    ends = []
    for period in range(1, 5):
        m.apply(ClockStarted(at=at))
        m.apply(ClockStopped(at=at + 3 * MIN))  # a whistle: the clock stops, actual playing time
        m.apply(ClockStarted(at=at + 4 * MIN))
        at += 8 * MIN
        ends.append(at)
        state = m.state_at(at)
        assert (state.period, state.clock_ms) == (period, 0)
        breaks = {1: MIN, 2: 2 * MIN, 3: MIN}
        if period < 4:
            assert state.interval_remaining_ms == breaks[period]
            at += breaks[period]
    assert [h.at for h in m.horns_between(0, at) if h.reason == "period_end"] == ends
    assert m.state_at(at).phase == "finished"


def test_goal_stops_the_clock_in_stopped_time_sports_only() -> None:
    polo = Match(load_ruleset("water-polo"))
    polo.apply(ClockStarted(at=0))
    polo.apply(Goal(at=MIN, team="home"))
    assert polo.state_at(2 * MIN).running is False
    football = Match(load_ruleset("indoor-football"))
    football.apply(ClockStarted(at=0))
    football.apply(Goal(at=MIN, team="home"))
    assert football.state_at(2 * MIN).clock_ms == 8 * MIN


def test_level_round_robin_match_ends_as_a_draw() -> None:
    m = Match(load_ruleset("indoor-hockey"))
    m.apply(ClockStarted(at=0))
    m.apply(ClockStarted(at=25 * MIN))
    result = m.result(45 * MIN)
    assert result is not None and (result.outcome, result.winner) == ("regular", None)


def test_golden_goal_ends_extra_time_at_once() -> None:
    m = Match(load_ruleset("indoor-hockey"), stage="knockout")
    m.apply(ClockStarted(at=0))
    m.apply(ClockStarted(at=25 * MIN))
    assert m.state_at(45 * MIN).phase == "interval"  # level: a break, then golden-goal extra time
    m.apply(ClockStarted(at=47 * MIN))
    assert period_name(m.state_at(48 * MIN), m.ruleset) == "extra time 1"
    golden = m.apply(Goal(at=49 * MIN, team="away", player="5")).event
    state = m.state_at(49 * MIN)
    assert state.phase == "finished" and state.running is False
    assert state.result is not None
    assert (state.result.outcome, state.result.winner, state.result.away_goals) == ("overtime", "away", 1)
    # The umpire disallows it: extra time goes on from where it stood.
    m.apply(GoalDisallowed(at=50 * MIN, target=golden.seq))
    state = m.state_at(50 * MIN)
    assert (state.phase, state.clock_ms, state.result) == ("play", 3 * MIN, None)


def test_extra_time_of_two_ends_then_penalty_strokes() -> None:
    m = Match(load_ruleset("indoor-hockey"), stage="knockout")
    m.apply(ClockStarted(at=0))
    m.apply(ClockStarted(at=25 * MIN))
    m.apply(ClockStarted(at=47 * MIN))  # first end of extra time, ends at 52:00; ends change at once
    assert m.state_at(52 * MIN).period == 4
    m.apply(ClockStarted(at=52 * MIN + 30 * S))
    state = m.state_at(58 * MIN)
    assert (state.phase, state.period_kind) == ("shootout", "shootout")
    assert period_name(state, m.ruleset) == "penalty stroke competition"
    assert state.shootout is not None and state.shootout.shots_each == 5


def test_water_polo_play_off_draw_goes_straight_to_penalty_shots() -> None:
    m = Match(load_ruleset("water-polo"), stage="knockout")
    at = 0
    for gap in (MIN, 2 * MIN, MIN, 0):
        m.apply(ClockStarted(at=at))
        at += 7 * MIN + gap
    assert m.state_at(at).phase == "shootout"


def test_possession_clock_runs_with_the_match_clock_and_sounds_at_zero() -> None:
    m = Match(load_ruleset("water-polo"))
    m.apply(ClockStarted(at=0))
    m.apply(ClockStopped(at=10 * S))
    assert m.state_at(MIN).possession_ms == 20 * S
    m.apply(ClockStarted(at=MIN))
    assert m.state_at(MIN + 20 * S).possession_ms == 0
    assert [(h.at, h.reason) for h in m.horns_between(0, 2 * MIN)] == [(MIN + 20 * S, "possession_end")]
    m.apply(PossessionReset(at=MIN + 25 * S, short=True))  # a corner throw: the short reset
    assert m.state_at(MIN + 30 * S).possession_ms == 15 * S
    m.apply(PossessionReset(at=MIN + 30 * S))
    assert m.state_at(MIN + 31 * S).possession_ms == 29 * S


def test_possession_clock_blanked_when_the_match_clock_has_less_left() -> None:
    m = Match(load_ruleset("water-polo"))
    m.apply(ClockStarted(at=0))
    m.apply(PossessionReset(at=6 * MIN + 35 * S))  # 25 s of the period left, 30 s of possession
    assert m.state_at(6 * MIN + 36 * S).possession_ms is None
    assert [h.reason for h in m.horns_between(6 * MIN, 7 * MIN + 30 * S)] == ["period_end"]


def test_exclusion_resets_the_possession_clock_to_the_short_length() -> None:
    from rules.match import PenaltyAwarded

    m = Match(load_ruleset("water-polo"))
    m.apply(ClockStarted(at=0))
    m.apply(PenaltyAwarded(at=25 * S, team="away", kind="exclusion"))
    assert m.state_at(26 * S).possession_ms == 19 * S

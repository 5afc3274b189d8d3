"""The Match: commands checked before they are logged, undo that rewinds, corrections, late presses."""

from __future__ import annotations

import random

import pytest

from rules.errors import IllegalCommand, UnknownRound
from rules.match import (
    ClockCorrected,
    ClockStarted,
    ClockStopped,
    Goal,
    GoalDisallowed,
    Match,
    PenaltyAwarded,
    PenaltyCorrected,
    PeriodAdvanced,
    ScoreCorrected,
    TimeoutStarted,
    Undo,
)
from rules.ruleset import load_ruleset
from rules.words.state import clock_text

S = 1000
MIN = 60 * S


def hockey(**kw: object) -> Match:
    return Match(load_ruleset("indoor-hockey"), **kw)  # type: ignore[arg-type]


def test_clock_counts_down_from_the_period_length_and_stops_at_zero() -> None:
    m = hockey()
    assert clock_text(m.state_at(0)) == "20:00"
    m.apply(ClockStarted(at=1_000))
    assert clock_text(m.state_at(1_000 + 90 * S)) == "18:30"
    end = 1_000 + 20 * MIN
    state = m.state_at(end + 5 * S)
    assert state.clock_ms == 0
    assert state.phase == "interval"
    assert state.interval_remaining_ms == 5 * MIN - 5 * S  # half-time runs by itself


def test_interval_ends_by_itself_and_the_next_half_waits_for_the_start() -> None:
    m = hockey()
    m.apply(ClockStarted(at=0))
    after = m.state_at(25 * MIN + 30 * S)
    assert (after.phase, after.period, after.running, after.clock_ms) == ("play", 2, False, 20 * MIN)
    m.apply(ClockStarted(at=26 * MIN))
    assert clock_text(m.state_at(27 * MIN)) == "19:00"


def test_refused_command_says_why_and_changes_nothing() -> None:
    m = hockey()
    m.apply(ClockStarted(at=0))
    before = (m.events, m.state_at(10 * S))
    with pytest.raises(IllegalCommand, match="the clock is already running"):
        m.apply(ClockStarted(at=5 * S))
    assert (m.events, m.state_at(10 * S)) == before


def test_seq_is_given_in_order_and_a_logged_seq_must_grow() -> None:
    m = hockey()
    assert m.apply(ClockStarted(at=0)).event.seq == 1
    assert m.apply(ClockStopped(at=10)).event.seq == 2
    with pytest.raises(IllegalCommand, match="seq 2 is already logged as a different event") as refused:
        m.apply(ClockStarted(at=20, seq=2))
    assert (refused.value.key, refused.value.params) == ("seq_used", {"seq": 2})
    m.apply(ClockStarted(at=30, seq=5))
    with pytest.raises(IllegalCommand, match="seq 4 does not follow seq 5"):
        m.apply(ClockStopped(at=40, seq=4))


def test_undoing_a_wrong_stop_puts_the_clock_where_it_would_have_been() -> None:
    m = hockey()
    m.apply(ClockStarted(at=0))
    wrong = m.apply(ClockStopped(at=60 * S)).event
    m.apply(Undo(at=65 * S, target=wrong.seq))
    state = m.state_at(65 * S)
    assert state.running and state.clock_ms == 20 * MIN - 65 * S
    # The right press goes in at the instant it should have been made.
    m.apply(ClockStopped(at=62 * S))
    assert m.state_at(70 * S).clock_ms == 20 * MIN - 62 * S
    assert [e.type for e in m.events] == ["clock_started", "clock_stopped", "undo", "clock_stopped"]
    assert m.is_undone(wrong.seq)


def test_undo_then_redo_is_identity() -> None:
    m = hockey()
    m.apply(ClockStarted(at=0))
    goal = m.apply(Goal(at=30 * S, team="away", player="4")).event
    before = m.state_at(40 * S)
    undo = m.apply(Undo(at=35 * S, target=goal.seq)).event
    assert m.state_at(40 * S).away_goals == 0
    m.apply(Undo(at=36 * S, target=undo.seq))
    assert m.state_at(40 * S) == before


def test_undo_refused_when_a_later_event_depends_on_it() -> None:
    m = hockey()
    start = m.apply(ClockStarted(at=0)).event
    m.apply(ClockStopped(at=10 * S))
    with pytest.raises(IllegalCommand, match=r"cannot undo seq 1: then seq 2 \(clock_stopped\) would be refused"):
        m.apply(Undo(at=11 * S, target=start.seq))
    assert not m.is_undone(start.seq)
    with pytest.raises(IllegalCommand, match="no event seq 9"):
        m.apply(Undo(at=11 * S, target=9))


def test_undone_event_cannot_be_undone_twice() -> None:
    m = hockey()
    m.apply(ClockStarted(at=0))
    goal = m.apply(Goal(at=1 * S, team="home")).event
    m.apply(Undo(at=2 * S, target=goal.seq))
    with pytest.raises(IllegalCommand, match="already undone"):
        m.apply(Undo(at=3 * S, target=goal.seq))


def test_clock_correction_carries_into_running_penalties() -> None:
    m = hockey()
    m.apply(ClockStarted(at=0))
    green = m.apply(PenaltyAwarded(at=2 * MIN, team="home", kind="green", player="5")).event
    m.apply(ClockStopped(at=2 * MIN + 20 * S))
    assert m.state_at(2 * MIN + 30 * S).penalties[0].remaining_ms == 40 * S
    # The clock should read 17:50, not 17:40: ten seconds given back to the half and to the card.
    m.apply(ClockCorrected(at=2 * MIN + 30 * S, clock=17 * MIN + 50 * S))
    state = m.state_at(2 * MIN + 31 * S)
    assert state.clock_ms == 17 * MIN + 50 * S
    assert state.penalties[0].remaining_ms == 50 * S
    assert state.penalties[0].seq == green.seq


def test_clock_correction_to_zero_ends_the_period() -> None:
    m = hockey()
    m.apply(ClockStarted(at=0))
    m.apply(ClockStopped(at=MIN))
    m.apply(ClockCorrected(at=MIN + S, clock=0))
    assert m.state_at(MIN + S).phase == "interval"
    other = hockey()
    other.apply(ClockStarted(at=0))
    with pytest.raises(IllegalCommand, match="between 0:00 and 20:00"):
        other.apply(ClockCorrected(at=S, clock=21 * MIN))


def test_penalty_correction_sets_what_remains() -> None:
    m = hockey()
    m.apply(ClockStarted(at=0))
    card = m.apply(PenaltyAwarded(at=MIN, team="away", kind="yellow", player="3")).event
    m.apply(PenaltyCorrected(at=2 * MIN, target=card.seq, remaining=90 * S))
    assert m.state_at(2 * MIN + 30 * S).penalties[0].remaining_ms == 60 * S
    m.apply(PenaltyCorrected(at=3 * MIN, target=card.seq, remaining=0))
    assert m.state_at(3 * MIN).penalties == ()


def test_score_correction_is_kept_in_the_log() -> None:
    m = hockey()
    m.apply(ClockStarted(at=0))
    m.apply(ScoreCorrected(at=S, home=2, away=1))
    state = m.state_at(2 * S)
    assert (state.home_goals, state.away_goals) == (2, 1)
    assert m.events[-1].type == "score_corrected"


def test_goal_disallowed_takes_it_off_the_score() -> None:
    m = hockey()
    m.apply(ClockStarted(at=0))
    goal = m.apply(Goal(at=S, team="home")).event
    m.apply(GoalDisallowed(at=2 * S, target=goal.seq))
    assert m.state_at(3 * S).home_goals == 0
    with pytest.raises(IllegalCommand, match="already disallowed"):
        m.apply(GoalDisallowed(at=4 * S, target=goal.seq))
    with pytest.raises(IllegalCommand, match="not a goal"):
        m.apply(GoalDisallowed(at=4 * S, target=1))


def test_a_late_start_after_the_horn_does_not_skip_half_time() -> None:
    m = hockey()
    m.apply(ClockStarted(at=0))
    late = m.apply(ClockStarted(at=20 * MIN + 2 * S))  # within the 3 s grace: meant for the half that ended
    state = m.state_at(20 * MIN + 10 * S)
    assert (state.phase, state.period, state.late_presses) == ("interval", 1, 1)
    assert (late.event.seq, late.kind, late.message_key) == (2, "late_press", "applied.late_press")
    assert late.params["period"] == 1
    # After the grace a start in the interval starts the second half early.
    m.apply(ClockStarted(at=22 * MIN))
    state = m.state_at(23 * MIN)
    assert (state.phase, state.period, state.clock_ms) == ("play", 2, 19 * MIN)


def test_a_late_time_out_counts_for_the_half_that_ended() -> None:
    m = hockey()
    m.apply(ClockStarted(at=0))
    m.apply(TimeoutStarted(at=20 * MIN + 2 * S, team="home"))
    after = m.state_at(25 * MIN + 10 * S)
    assert after.period == 2
    assert after.home_timeouts_left == 1  # the second half's own time-out is untouched
    with pytest.raises(IllegalCommand, match="interval is running"):
        m.apply(TimeoutStarted(at=20 * MIN + 10 * S, team="away"))


def test_period_advanced_ends_the_period_and_then_skips_the_interval() -> None:
    m = hockey()
    m.apply(ClockStarted(at=0))
    m.apply(PeriodAdvanced(at=MIN))
    assert m.state_at(MIN).phase == "interval"
    m.apply(PeriodAdvanced(at=2 * MIN))
    state = m.state_at(2 * MIN)
    assert (state.phase, state.period, state.running) == ("play", 2, False)


def test_replaying_the_log_gives_the_same_state() -> None:
    m = Match(load_ruleset("ice-hockey"), stage="knockout", on_field=5)
    m.apply(ClockStarted(at=0))
    m.apply(ClockStopped(at=MIN))
    pen = m.apply(PenaltyAwarded(at=MIN + S, team="home", kind="minor", player="12")).event
    m.apply(ClockStarted(at=MIN + 20 * S))
    m.apply(Goal(at=2 * MIN, team="away"))
    m.apply(Undo(at=2 * MIN + S, target=pen.seq))
    again = Match.replay(m.ruleset, m.events, stage="knockout", on_field=5)
    for at in (0, MIN + 30 * S, 2 * MIN + 5 * S, 40 * MIN):
        assert again.state_at(at) == m.state_at(at)


def test_replay_names_the_refused_event() -> None:
    with pytest.raises(IllegalCommand, match=r"seq 3 \(clock_stopped\) refused: the clock is already stopped"):
        Match.replay(
            load_ruleset("indoor-hockey"),
            [ClockStarted(at=0, seq=1), ClockStopped(at=5, seq=2), ClockStopped(at=6, seq=3)],
        )


def test_five_hundred_stops_leave_no_clock_error() -> None:
    """A 40-minute match with 500 stops: the clock equals the exact sum of the running stretches."""
    rng = random.Random(20261129)
    m = Match(load_ruleset("youth-football"))
    length = 20 * MIN
    at = 0
    horns = []
    for half in (1, 2):
        # 250 stops cut the half into 251 runs of random length; the last one runs to the horn.
        cuts = sorted(rng.sample(range(1, length), 250))
        played = 0
        for cut in cuts:
            m.apply(ClockStarted(at=at))
            at += cut - played
            m.apply(ClockStopped(at=at))
            played = cut
            assert m.state_at(at).clock_ms == length - played
            at += rng.randint(1, 30_000)  # a stoppage of up to half a minute
        m.apply(ClockStarted(at=at))
        horn = at + (length - played)
        horns.append(horn)
        assert m.state_at(horn - 1).clock_ms == 1
        assert m.state_at(horn).clock_ms == 0
        at = horn + 5 * MIN  # half-time runs by itself
        if half == 1:
            assert m.state_at(at).period == 2
    assert len([e for e in m.events if e.type == "clock_stopped"]) == 500
    assert [h.at for h in m.horns_between(0, at) if h.reason == "period_end"] == horns
    state = m.state_at(horns[-1])
    assert (state.phase, state.clock_ms, state.running) == ("finished", 0, False)


def test_a_round_is_checked_against_the_rulesets_rounds_and_decides_the_stage() -> None:
    rules = load_ruleset("indoor-hockey")
    with pytest.raises(UnknownRound, match="'semi_final'") as err:
        Match(rules, round="semifinal")
    assert isinstance(err.value, ValueError)
    final = Match(rules, round="final")  # whatever the stage defaults to, a final is a knock-out
    assert (final.stage, final.round) == ("knockout", "final")
    assert Match(rules, round="pool").stage == "round_robin"
    with pytest.raises(IllegalCommand, match="a final match is played in the knockout stage") as refused:
        Match(rules, stage="round_robin", round="final")
    assert refused.value.key == "round_stage"


def test_next_due_is_the_next_horn_or_penalty_end() -> None:
    m = Match(load_ruleset("ice-hockey"))
    assert m.next_due(0) is None  # nothing runs before the start
    m.apply(ClockStarted(at=0))
    m.apply(ClockStopped(at=MIN))
    m.apply(PenaltyAwarded(at=MIN, team="home", kind="minor", player="3"))
    assert m.next_due(MIN) == 45 * MIN - 15 * MIN  # stopped: only the wall-clock cap moves
    m.apply(ClockStarted(at=2 * MIN))
    assert m.next_due(2 * MIN) == 4 * MIN  # the minor is served after 2:00 of play
    assert m.next_due(4 * MIN) == 2 * MIN + 14 * MIN  # then the end of the period

"""Goals pressed after a period ended, and score changes after the end: the period's end is decided again."""

from __future__ import annotations

import pytest

from rules.errors import IllegalCommand
from rules.match import (
    ClockStarted,
    Goal,
    GoalDisallowed,
    Match,
    PenaltyAwarded,
    ScoreCorrected,
    ShootoutAttempt,
    Undo,
    Walkover,
)
from rules.ruleset import load_ruleset
from rules.words.state import period_name

S = 1000
MIN = 60 * S


def football_knockout_level() -> Match:
    """Indoor football, knock-out: 10 min, 1 min break, 10 min; 0-0 at the horn at 21:00."""
    m = Match(load_ruleset("indoor-football"), stage="knockout")
    m.apply(ClockStarted(at=0))
    m.apply(ClockStarted(at=11 * MIN))
    assert m.state_at(21 * MIN).phase == "shootout"  # "(3) penalties are taken to ascertain a winner"
    return m


def hockey_knockout_level() -> Match:
    """Indoor hockey, knock-out: 0-0 at 45:00, then a 2-minute break before golden-goal extra time."""
    m = Match(load_ruleset("indoor-hockey"), stage="knockout")
    m.apply(ClockStarted(at=0))
    m.apply(ClockStarted(at=25 * MIN))
    assert m.state_at(45 * MIN).phase == "interval"
    return m


# -- a goal pressed just after the horn (late_press_grace) ----------------------------------------


def test_a_goal_pressed_just_after_the_half_time_horn_counts_for_the_first_half() -> None:
    m = Match(load_ruleset("indoor-hockey"))
    m.apply(ClockStarted(at=0))
    m.apply(Goal(at=20 * MIN + 2 * S, team="home", player="9"))  # the horn sounded at 20:00
    state = m.state_at(21 * MIN)
    assert (state.phase, state.period, state.home_goals) == ("interval", 1, 1)
    assert state.interval_remaining_ms == 4 * MIN  # half-time still runs from the horn


def test_a_late_goal_in_the_last_period_of_a_knockout_wins_it_in_regular_time() -> None:
    m = football_knockout_level()
    m.apply(Goal(at=21 * MIN + 2 * S, team="away"))
    state = m.state_at(21 * MIN + 3 * S)
    assert state.phase == "finished" and state.shootout is None
    assert state.result is not None
    assert (state.result.outcome, state.result.winner, state.result.away_goals) == ("regular", "away", 1)


def test_a_late_goal_after_extra_time_is_a_golden_goal_not_a_shoot_out() -> None:
    m = hockey_knockout_level()
    m.apply(ClockStarted(at=47 * MIN))  # first end of extra time: horn at 52:00, second end ready at once
    m.apply(ClockStarted(at=52 * MIN + 30 * S))  # second end: horn at 57:30
    m.apply(Goal(at=57 * MIN + 32 * S, team="home"))
    state = m.state_at(58 * MIN)
    assert state.result is not None and (state.result.outcome, state.result.winner) == ("overtime", "home")


def test_a_late_goal_in_a_zero_length_break_counts_for_the_end_that_ended() -> None:
    m = hockey_knockout_level()
    m.apply(ClockStarted(at=47 * MIN))  # horn at 52:00; ends change at once (interval_between 0:00)
    m.apply(Goal(at=52 * MIN + S, team="away"))
    state = m.state_at(52 * MIN + 2 * S)
    assert state.result is not None and (state.result.outcome, state.result.winner) == ("overtime", "away")
    assert state.period == 3  # the first end of extra time, not the second


def test_a_late_goal_ends_the_exclusions_running_at_the_horn_not_those_given_after_it() -> None:
    m = Match(load_ruleset("water-polo"))
    m.apply(ClockStarted(at=0))
    m.apply(PenaltyAwarded(at=6 * MIN + 50 * S, team="home", kind="exclusion", player="4"))  # 10 s left at 7:00
    m.apply(PenaltyAwarded(at=7 * MIN + S, team="away", kind="exclusion", player="6"))  # after the horn
    m.apply(Goal(at=7 * MIN + 2 * S, team="away"))  # scored before the horn, pressed after it
    state = m.state_at(7 * MIN + 3 * S)
    assert state.away_goals == 1
    assert [(p.team, p.player, p.remaining_ms) for p in state.penalties] == [("away", "6", 20 * S)]


def test_a_press_after_the_grace_is_no_late_press_and_undo_takes_a_late_goal_back() -> None:
    m = football_knockout_level()
    late = m.apply(Goal(at=21 * MIN + 3 * S, team="home")).event  # exactly the 3 s grace
    assert m.state_at(21 * MIN + 4 * S).phase == "finished"
    m.apply(Undo(at=21 * MIN + 10 * S, target=late.seq))
    state = m.state_at(21 * MIN + 10 * S)
    assert (state.phase, state.home_goals, state.result) == ("shootout", 0, None)


# -- a goal the operator forgot, entered during the break -----------------------------------------


def test_a_forgotten_goal_entered_at_half_time_counts_for_the_first_half() -> None:
    m = Match(load_ruleset("water-polo"))
    m.apply(ClockStarted(at=0))
    m.apply(PenaltyAwarded(at=6 * MIN + 50 * S, team="home", kind="exclusion", player="4"))
    m.apply(Goal(at=7 * MIN + 30 * S, team="away"))  # well into the break: its instant is not known
    state = m.state_at(7 * MIN + 31 * S)
    assert (state.phase, state.period, state.away_goals) == ("interval", 1, 1)
    assert state.interval_remaining_ms == 29 * S
    # It ends no penalty: when it was scored is not known, so the exclusion stands as timed.
    assert [(p.player, p.remaining_ms) for p in state.penalties] == [("4", 10 * S)]


def test_a_forgotten_goal_in_the_break_before_extra_time_decides_the_match() -> None:
    m = hockey_knockout_level()
    m.apply(Goal(at=46 * MIN, team="home"))
    state = m.state_at(46 * MIN)
    assert state.result is not None and (state.result.outcome, state.result.winner) == ("regular", "home")
    with pytest.raises(IllegalCommand, match="the match is over"):
        m.apply(ClockStarted(at=47 * MIN))


def test_a_forgotten_goal_before_the_shoot_out_decides_the_match_but_not_once_it_began() -> None:
    m = football_knockout_level()
    m.apply(Goal(at=22 * MIN, team="home"))
    result = m.result()
    assert result is not None and (result.outcome, result.winner) == ("regular", "home")

    n = football_knockout_level()
    n.apply(ShootoutAttempt(at=22 * MIN, team="home", scored=True))
    with pytest.raises(IllegalCommand, match=r"shots of the penalties have been taken.*undo"):
        n.apply(Goal(at=23 * MIN, team="away"))


def test_after_the_end_a_goal_goes_in_at_its_own_instant() -> None:
    m = Match(load_ruleset("indoor-football"), stage="knockout")
    m.apply(ClockStarted(at=0))
    m.apply(ClockStarted(at=11 * MIN))
    m.apply(Goal(at=15 * MIN, team="home"))
    assert m.result(22 * MIN) is not None
    with pytest.raises(IllegalCommand, match=r"the match is over.*instant it was scored"):
        m.apply(Goal(at=22 * MIN, team="away"))
    # Back-dated to when it was scored: the match was level at the horn, so penalties decide it.
    m.apply(Goal(at=18 * MIN, team="away"))
    state = m.state_at(22 * MIN)
    assert (state.phase, state.home_goals, state.away_goals, state.result) == ("shootout", 1, 1, None)


# -- corrections after the end -----------------------------------------------------------------


def test_a_disallowed_goal_after_the_end_sends_a_knockout_to_extra_time() -> None:
    m = Match(load_ruleset("indoor-hockey"), stage="knockout")
    m.apply(ClockStarted(at=0))
    m.apply(ClockStarted(at=25 * MIN))
    goal = m.apply(Goal(at=44 * MIN, team="home")).event
    assert m.result(45 * MIN + 30 * S) is not None
    m.apply(GoalDisallowed(at=46 * MIN, target=goal.seq))
    state = m.state_at(46 * MIN)
    assert (state.phase, state.result, state.interval_remaining_ms) == ("interval", None, MIN)  # break from 45:00
    m.apply(ClockStarted(at=47 * MIN))
    assert period_name(m.state_at(48 * MIN), m.ruleset) == "extra time 1"


def test_a_score_correction_after_the_end_makes_a_level_knockout_go_to_penalties() -> None:
    m = Match(load_ruleset("indoor-football"), stage="knockout")
    m.apply(ClockStarted(at=0))
    m.apply(ClockStarted(at=11 * MIN))
    m.apply(Goal(at=15 * MIN, team="home"))
    m.apply(ScoreCorrected(at=25 * MIN, home=1, away=1))
    state = m.state_at(25 * MIN)
    assert (state.phase, state.result) == ("shootout", None)
    m.apply(ScoreCorrected(at=26 * MIN, home=1, away=2))  # corrected again before any shot: decided
    result = m.result()
    assert result is not None and (result.outcome, result.winner) == ("regular", "away")


def test_a_correction_after_the_end_of_a_round_robin_match_changes_the_winner() -> None:
    m = Match(load_ruleset("indoor-football"))
    m.apply(ClockStarted(at=0))
    m.apply(ClockStarted(at=11 * MIN))
    m.apply(ScoreCorrected(at=22 * MIN, home=0, away=1))
    result = m.result()
    assert result is not None and (result.outcome, result.winner, result.away_goals) == ("regular", "away", 1)


def test_a_correction_that_unlevels_a_shoot_out_is_refused_and_says_undo() -> None:
    m = football_knockout_level()
    for i, team in enumerate(("home", "away") * 2):  # 2-0 with one shot each left: decided
        m.apply(ShootoutAttempt(at=22 * MIN + i * S, team=team, scored=team == "home"))  # type: ignore[arg-type]
    assert m.result() is not None
    with pytest.raises(IllegalCommand, match=r"level.*undo"):
        m.apply(ScoreCorrected(at=30 * MIN, home=1, away=0))
    m.apply(ScoreCorrected(at=30 * MIN, home=2, away=2))  # still level: the shoot-out stands
    result = m.result()
    assert result is not None and (result.outcome, result.winner, result.home_goals) == ("shootout", "home", 2)


def test_a_correction_that_levels_a_golden_goal_reopens_extra_time() -> None:
    m = hockey_knockout_level()
    m.apply(ClockStarted(at=47 * MIN))
    m.apply(Goal(at=49 * MIN, team="away"))
    m.apply(ScoreCorrected(at=50 * MIN, home=0, away=0))
    state = m.state_at(50 * MIN)
    assert (state.phase, state.clock_ms, state.running, state.result) == ("play", 3 * MIN, False, None)


def test_a_walkover_score_cannot_be_corrected() -> None:
    m = Match(load_ruleset("youth-football"))
    m.apply(Walkover(at=0, team="away"))
    with pytest.raises(IllegalCommand, match=r"walk-over.*undo"):
        m.apply(ScoreCorrected(at=S, home=1, away=0))

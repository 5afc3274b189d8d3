"""One event applied to the folded state; a refusal leaves the state untouched."""

from __future__ import annotations

import pytest

from rules.errors import IllegalCommand
from rules.match import Match
from rules.match import events as ev
from rules.match.fold import Context, Core
from rules.match.machine import step
from rules.ruleset import load_ruleset


def test_step_changes_only_the_copy_it_is_given() -> None:
    ctx = Context(ruleset=load_ruleset("indoor-hockey"))
    before = Core()
    after = before.clone()
    step(ctx, after, ev.ClockStarted(at=0, seq=1))
    assert (before.phase, before.clock_since) == ("pre_match", None)
    assert (after.phase, after.clock_since, after.started_at) == ("play", 0, 0)


def test_every_refusal_is_an_illegal_command() -> None:
    ctx = Context(ruleset=load_ruleset("indoor-hockey"))
    refusals = {
        ev.ClockStopped(at=0): "the match has not started",
        ev.Goal(at=0, team="home"): "the match has not started",
        ev.PenaltyEnded(at=0, target=3): "seq 3 is not a penalty",
        ev.SetPieceEnded(at=0): "no set piece is being awarded",
        ev.TimeoutEnded(at=0): "no time-out is running",
        ev.PossessionReset(at=0): "no possession clock",
        ev.ShootoutAttempt(at=0, team="home", scored=True): "no shoot-out is being played",
        ev.ScoreCorrected(at=0, home=1, away=0): "the match has not started",
        ev.Undo(at=0, target=1): "not an event the match applies",
        ev.MatchResumed(at=0): "cannot resume the match: the match was not abandoned",
        ev.MatchReplayed(at=0): "cannot replay the match: the match was not abandoned",
    }
    for event, reason in refusals.items():
        with pytest.raises(IllegalCommand, match=reason):
            step(ctx, Core(), event)


def test_a_refusal_changes_nothing_even_without_a_copy() -> None:
    # Each handler checks everything before it changes anything: a refused step leaves the very
    # core it was given as it was (the engine's copy is then only for the states it keeps).
    from rules.match import Match

    commands = [
        ev.ClockStarted(at=5_000), ev.ClockStopped(at=5_000), ev.Goal(at=5_000, team="home"),
        ev.GoalDisallowed(at=5_000, target=2), ev.PenaltyAwarded(at=5_000, team="home", kind="blue"),
        ev.PenaltyAwarded(at=5_000, team="away", kind="yellow", player="4", length=1_000),
        ev.PenaltyAwarded(at=5_000, team="away", kind="red", player="9"),
        ev.PenaltyEnded(at=5_000, target=3), ev.PenaltyLengthened(at=5_000, target=3, length=1),
        ev.PenaltyCorrected(at=5_000, target=4, remaining=5), ev.SetPieceStarted(at=5_000, name="corner"),
        ev.SetPieceEnded(at=5_000), ev.TimeoutStarted(at=5_000, team="home"), ev.TimeoutEnded(at=5_000),
        ev.PossessionReset(at=5_000), ev.ShootoutAttempt(at=5_000, team="home", scored=True),
        ev.ClockCorrected(at=5_000, clock=99 * 60_000), ev.ScoreCorrected(at=5_000, home=1, away=1),
        ev.Walkover(at=5_000, team="home"), ev.Undo(at=5_000, target=1), ev.MatchResumed(at=5_000),
        ev.MatchReplayed(at=5_000),
    ]
    m = Match(load_ruleset("indoor-hockey"))
    m.apply(ev.ClockStarted(at=0))
    m.apply(ev.Goal(at=1_000, team="home"))
    m.apply(ev.PenaltyAwarded(at=2_000, team="away", kind="green", player="9"))
    m.apply(ev.PenaltyAwarded(at=2_000, team="away", kind="red", player="9"))
    m.apply(ev.TimeoutStarted(at=3_000, team="home"))
    core = m._states[-1]  # the core after the last event, used as is: no copy
    refused = 0
    for command in commands:
        before = dict(vars(core))
        try:
            step(m._ctx, core, command)
        except IllegalCommand:
            refused += 1
            assert vars(core) == before, f"{command.type} changed the state before it was refused"
        else:
            core = m._states[-1].clone()  # accepted: carry on from a clean core
    assert refused >= 12


# -- seed 004's abandoned game: resumed or played again ------------------------------------------------

MIN = 60_000


def _abandoned_ice_hockey() -> Match:
    """An ice-hockey game abandoned at 9:10 of its first period at 1-0, an away minor with 1 min left."""
    m = Match(load_ruleset("ice-hockey"), stage="round_robin")
    for e in (ev.ClockStarted(at=0), ev.Goal(at=2 * MIN, team="home", player="9"),  # a goal stops the clock
              ev.ClockStarted(at=2 * MIN + 10_000), ev.ClockStopped(at=5 * MIN),
              ev.PenaltyAwarded(at=5 * MIN, team="away", kind="minor", player="4"),
              ev.PenaltyAwarded(at=5 * MIN, team="away", kind="game_misconduct", player="17"),
              ev.ClockStarted(at=5 * MIN + 10_000),
              ev.MatchAbandoned(at=6 * MIN + 10_000, reason="the ice machine broke down")):
        m.apply(e)
    return m


def test_a_resumed_match_goes_on_exactly_as_it_stood_when_abandoned() -> None:
    m = _abandoned_ice_hockey()
    before = m.state_at(6 * MIN + 10_000)
    assert (before.clock_ms, [p.remaining_ms for p in before.penalties]) == (9 * MIN + 10_000, [MIN, 19 * MIN])
    later = 3 * 60 * MIN  # three hours later, on the same rink
    applied = m.apply(ev.MatchResumed(at=later))
    assert (applied.kind, applied.event.seq, applied.message_key) == ("accepted", 9, "applied.match_resumed")
    now = m.state_at(later)
    assert (now.phase, now.period, now.clock_ms, now.running) == ("play", 1, before.clock_ms, False)
    assert (now.home_goals, now.away_goals, now.result) == (1, 0, None)
    assert [(p.kind, p.remaining_ms) for p in now.penalties] == [(p.kind, p.remaining_ms) for p in before.penalties]
    assert now.players_out == before.players_out and now.cards == before.cards
    # The 45-minute cap counts the game, not the hours it stood abandoned.
    assert now.wall_clock_remaining_ms == before.wall_clock_remaining_ms
    m.apply(ev.ClockStarted(at=later + 10_000))
    running = m.state_at(later + 70_000)  # a minute of play: the minor is served
    assert running.clock_ms == before.clock_ms - MIN and running.away_short == 0
    # Then the normal end: the first period runs out, the second is started and runs out, 1-0 is a home win.
    m.apply(ev.ClockStarted(at=later + 40 * MIN))
    result = m.result(later + 60 * MIN)
    assert result is not None and (result.outcome, result.winner, result.home_goals) == ("regular", "home", 1)


def test_a_match_abandoned_in_the_break_resumes_with_the_next_period_ready() -> None:
    m = Match(load_ruleset("ice-hockey"), stage="round_robin")
    m.apply(ev.ClockStarted(at=0))
    m.apply(ev.MatchAbandoned(at=15 * MIN + 30_000))  # the first period ran out at 15:00; the break runs
    m.apply(ev.MatchResumed(at=90 * MIN))
    s = m.state_at(90 * MIN)
    assert (s.phase, s.period, s.clock_ms, s.running) == ("play", 2, 15 * MIN, False)


def test_a_replayed_match_starts_from_nothing_and_keeps_the_earlier_cards_as_records() -> None:
    m = _abandoned_ice_hockey()
    m.apply(ev.MatchReplayed(at=120 * MIN))
    s = m.state_at(120 * MIN)
    assert (s.phase, s.period, s.clock_ms, s.home_goals, s.away_goals) == ("pre_match", 1, 15 * MIN, 0, 0)
    assert (s.penalties, s.players_out, s.result, s.wall_clock_remaining_ms) == ((), (), None, None)
    # The game misconduct of the abandoned play goes to the organisers still; nobody is out in the new play.
    assert [(c.seq, c.kind, c.report_to_organisers) for c in s.cards] == [(5, "minor", False),
                                                                        (6, "game_misconduct", True)]
    m.apply(ev.ClockStarted(at=121 * MIN))
    m.apply(ev.PenaltyAwarded(at=122 * MIN, team="away", kind="minor", player="17"))  # #17 plays the replay
    m.apply(ev.Goal(at=125 * MIN, team="away", player="8"))
    m.apply(ev.ClockStarted(at=126 * MIN))
    m.apply(ev.Goal(at=127 * MIN, team="away", player="8"))
    m.apply(ev.ClockStarted(at=128 * MIN))
    m.apply(ev.ClockStarted(at=160 * MIN))  # the second period, after the first ran out and the break
    result = m.result(200 * MIN)
    assert result is not None and (result.home_goals, result.away_goals, result.winner) == (0, 2, "away")
    assert [c.kind for c in result.sanctions] == ["game_misconduct"]
    assert [e.seq for e in m.events] == list(range(1, 17)), "the log's numbering goes on through the replay"


def test_resume_and_replay_are_refused_once_the_match_is_no_longer_abandoned() -> None:
    m = _abandoned_ice_hockey()
    m.apply(ev.MatchResumed(at=60 * MIN))
    for again in (ev.MatchResumed(at=61 * MIN), ev.MatchReplayed(at=61 * MIN)):
        with pytest.raises(IllegalCommand, match="the match was not abandoned"):
            m.apply(again)
    with pytest.raises(IllegalCommand, match=r"cannot undo seq 8: then seq 9 \(match_resumed\) would be refused"):
        m.apply(ev.Undo(at=61 * MIN, target=8))

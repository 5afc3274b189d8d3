"""One event applied to the folded state; a refusal leaves the state untouched."""

from __future__ import annotations

import pytest

from rules.errors import IllegalCommand
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
        ev.Walkover(at=5_000, team="home"), ev.Undo(at=5_000, target=1),
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

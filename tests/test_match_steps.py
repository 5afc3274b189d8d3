"""One event applied to the folded state; a refusal leaves the state untouched."""

from __future__ import annotations

import pytest

from rules.errors import IllegalCommand
from rules.match import events as ev
from rules.match.fold import Context, Core
from rules.match.steps import step
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

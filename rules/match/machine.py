"""The match's state machine: every transition, by event and by time, dispatched in one place.

An event of the timeline is folded in three moves (:func:`fold_event`): what time did
up to its instant (:func:`advance`), the event itself (:func:`step`, dispatched
exhaustively to its handler in :mod:`rules.match.steps`, each checking everything
before it changes anything), and what falls due at that instant. Between events
only time passes: a period runs out and what follows it is decided
(:mod:`rules.match.periods`), an interval ends, a penalty is served and a waiting one
starts, a time-out ends, the possession clock reaches zero. Each transition happens
at the exact instant it is due, computed from the clock's start, so the fold is the
same whether it is asked once an hour or sixty times a second.
"""

from __future__ import annotations

from typing import assert_never

from rules.match import discipline
from rules.match import events as ev
from rules.match import penalties as pen
from rules.match import steps as on
from rules.match.fold import Context, Core, Due, Horn, HornReason
from rules.match.periods import begin_next_period, end_period
from rules.match.refusals import refuse


def fold_event(ctx: Context, c: Core, event: ev.Event, horns: list[Horn] | None = None) -> None:
    """One event of the timeline: what time did up to its instant, the event, and what falls due at that instant."""
    advance(ctx, c, event.at, horns)
    step(ctx, c, event)  # only this refuses (IllegalCommand); time passing never does
    advance(ctx, c, event.at, horns)


def step(ctx: Context, c: Core, event: ev.Event) -> None:
    """Apply ``event`` to ``c``: each handler checks everything before it changes anything.

    ``c`` is the engine's fresh copy for this event; a refusal (IllegalCommand) leaves
    the match as it was because nothing was changed before it was raised.
    """
    e = ev.known(event)
    board = c.penalties
    match e:
        case ev.ClockStarted():
            on.clock_started(ctx, c, e)
        case ev.ClockStopped():
            on.clock_stopped(ctx, c, e)
        case ev.Goal():
            on.goal(ctx, c, e)
        case ev.GoalDisallowed():
            on.goal_disallowed(ctx, c, e)
        case ev.PenaltyAwarded():
            discipline.penalty_awarded(ctx, c, e)
        case ev.PenaltyEnded():
            discipline.penalty_ended(ctx, c, e)
        case ev.PenaltyLengthened():
            discipline.penalty_lengthened(ctx, c, e)
        case ev.PenaltyCorrected():
            discipline.penalty_corrected(ctx, c, e)
        case ev.SetPieceStarted():
            on.set_piece_started(ctx, c, e)
        case ev.SetPieceEnded():
            on.set_piece_ended(ctx, c, e)
        case ev.TimeoutStarted():
            on.timeout_started(ctx, c, e)
        case ev.TimeoutEnded():
            on.timeout_ended(ctx, c, e)
        case ev.PeriodAdvanced():
            on.period_advanced(ctx, c, e)
        case ev.PossessionReset():
            on.possession_reset(ctx, c, e)
        case ev.ShootoutAttempt():
            on.shootout_attempt(ctx, c, e)
        case ev.ClockCorrected():
            on.clock_corrected(ctx, c, e)
        case ev.ScoreCorrected():
            on.score_corrected(ctx, c, e)
        case ev.MatchAbandoned():
            on.match_abandoned(ctx, c, e)
        case ev.MatchResumed():
            on.match_resumed(ctx, c, e)
        case ev.MatchReplayed():
            on.match_replayed(ctx, c, e)
        case ev.Forfeit():
            on.forfeit(ctx, c, e)
        case ev.Walkover():
            on.walkover(ctx, c, e)
        case ev.Undo() | None:  # an undo works on the log, not the state (Match.apply)
            raise refuse("not_applied", type=event.type or type(event).__name__)
        case _:
            assert_never(e)
    c.due = None  # whatever the event changed, the next transition is found again
    if c.penalties is not board:
        c.settle()


def _possession_zero(ctx: Context, c: Core) -> int | None:
    """Elapsed period time at which the possession clock reaches zero, if it does in this period."""
    if ctx.ruleset.match.possession_clock is None or c.possession_expired:
        return None
    return c.possession_from + c.possession_length - c.period_offset



_HORNS: dict[str, HornReason] = {
    "period": "period_end", "interval": "interval_end", "timeout": "timeout_end", "possession": "possession_end",
}


def _next_due(ctx: Context, c: Core) -> Due | None:
    """The first transition due from ``c.now`` on.

    At one instant penalties come first, so a penalty served at the horn is over
    before the period ends; the possession clock comes after the period. Written as
    plain comparisons: it runs once for every event folded.
    """
    now = c.now
    best: Due | None = None
    if c.phase == "play":
        length = ctx.period_length(c.period)
        since = c.clock_since
        if since is not None:
            base, offset = c.clock_base, c.period_offset
            for i, p in enumerate(c.penalties):  # the board holds only live penalties
                if p.start is not None and p.length is not None and p.ended is None:
                    at = max(since + (p.start + p.length - offset - base), now)
                    if best is None or (at, 0) < (best.at, best.rank):
                        best = Due(at, 0, "penalty", i)
            at = max(since + (length - base), now)
            if best is None or at < best.at:
                best = Due(at, 1, "period")
            zero = _possession_zero(ctx, c)
            if zero is not None and zero < length:
                at = max(since + (zero - base), now)
                if at < best.at:
                    best = Due(at, 2, "possession")
        else:
            # Stopped: only a clock correction moves play time, and what it served is over at once.
            play = c.period_offset + c.clock_base
            for i, p in enumerate(c.penalties):
                if p.start is not None and p.length is not None and p.ended is None and p.start + p.length <= play:
                    return Due(now, 0, "penalty", i)
            if c.clock_base >= length:
                best = Due(now, 1, "period")  # corrected to zero while stopped
    if c.timeout_until is not None:
        at = max(c.timeout_until, now)
        if best is None or at < best.at:
            best = Due(at, 3, "timeout")
    if c.phase == "interval" and c.interval_until is not None:
        at = max(c.interval_until, now)
        if best is None or at < best.at:
            best = Due(at, 4, "interval")
    return best


def next_transition(ctx: Context, c: Core) -> int | None:
    """The instant of the next transition due from ``c.now`` on (None: nothing will happen by itself)."""
    due = c.due[0] if c.due is not None else _next_due(ctx, c)
    return None if due is None else due.at


def advance(ctx: Context, c: Core, to: int, horns: list[Horn] | None = None) -> None:
    """Apply every transition due up to instant ``to`` (inclusive), in order, then stand at ``to``."""
    limit = ctx.ruleset.penalties.max_reducing_per_team
    due = c.due[0] if c.due is not None else _next_due(ctx, c)
    while due is not None and due.at <= to:
        at, what = due.at, due.what
        c.now = at
        if what == "penalty":
            served = c.penalties[due.penalty].end_play()
            assert served is not None
            c.penalties = pen.end(c.penalties, due.penalty, served, "served", limit)
            c.settle()
        elif what == "period":
            end_period(ctx, c, at)
        elif what == "possession":
            c.possession_expired = True
        elif what == "timeout":
            c.timeout_team = c.timeout_until = None
        else:
            begin_next_period(ctx, c, at)
        if horns is not None and what in _HORNS:
            horns.append(Horn(at=at, reason=_HORNS[what]))
        due = _next_due(ctx, c)
    c.now = max(c.now, to)
    c.due = (due,)  # still due after ``to``: clamping to ``now`` cannot move it

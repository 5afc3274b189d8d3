"""What follows the end of a period, and deciding it again when the score of that period changes.

A period ends (it ran out, or the operator ended it): a break, extra time, a
shoot-out or the end of the match follows, decided from the score at its horn.
A goal pressed a moment after the horn, a goal the operator forgot and enters in
the break, or a correction after the final horn changes that score, so the end is
decided again as if the score had been right at the horn: a level knock-out goes on
to extra time or a shoot-out, a decided one finishes.

Once shots of a shoot-out have been taken the level score they were taken on is
settled: a change that unlevels it is refused, and the operator undoes the shots.
"""

from __future__ import annotations

from rules.match import events as ev
from rules.match import penalties as pen
from rules.match.fold import Context, Core, Phase
from rules.match.refusals import refuse


def begin_next_period(ctx: Context, c: Core, at: int) -> None:
    """The next period is ready: clock full, stopped until the operator starts it."""
    c.period_offset += c.clock_base
    c.period += 1
    c.clock_base = 0
    c.clock_since = None
    c.phase = "play"
    c.interval_until = None
    c.reset_possession(ctx, at, short=False)


def _interval(ctx: Context, c: Core, at: int, length: int) -> None:
    if length == 0:
        begin_next_period(ctx, c, at)
    else:
        c.phase = "interval"
        c.interval_until = at + length


def end_period(ctx: Context, c: Core, at: int) -> None:
    """The period is over (ran out, or the operator ended it): interval, extra time, shoot-out or the end."""
    c.stop_clock(ctx, at)
    c.period_ended_at = at
    c.ended_period, c.period_end, c.ended_clock = c.period, at, c.clock_base
    c.set_piece = None
    c.timeout_team = c.timeout_until = None
    decide(ctx, c, at)


def decide(ctx: Context, c: Core, at: int) -> None:
    """What follows the period that ended at ``at``, given the score: a break, extra time, a shoot-out or the end."""
    m = ctx.ruleset.match
    level = c.home == c.away
    if c.period < m.periods:
        _interval(ctx, c, at, m.intervals[c.period - 1])
        return
    overtime = m.overtime
    if c.period == m.periods:
        if not level or ctx.stage in m.level_allowed_in:
            c.finish("regular", at)
        elif overtime is not None:
            _interval(ctx, c, at, overtime.interval_before)
        else:
            c.phase = "shootout"
        return
    assert overtime is not None
    if not level and overtime.kind == "golden_goal":
        c.finish("overtime", at)  # a goal counted for an end of golden-goal extra time decides it
    elif c.period - m.periods < overtime.periods:
        _interval(ctx, c, at, overtime.interval_between)
    elif level and m.shootout is not None:
        c.phase = "shootout"
    else:
        c.finish("overtime", at)


def end_is_open(c: Core) -> bool:
    """The last period has ended and nothing since depends on what followed it."""
    if c.ended_period is None or c.period_end is None or c.running() or c.attempts:
        return False
    if c.outcome is not None:
        return c.outcome in ("regular", "overtime")
    return c.phase in ("interval", "shootout") or (c.phase == "play" and c.period == c.ended_period + 1)


def _reopen(c: Core) -> tuple[Phase, int | None]:
    """Back to the instant the last period ended, before what followed was decided."""
    assert c.ended_period is not None
    was = (c.phase, c.interval_until)
    if c.period != c.ended_period:  # the next period was ready (a zero-length break, or the break was over)
        c.period = c.ended_period
        c.period_offset -= c.ended_clock
    c.clock_base, c.clock_since = c.ended_clock, None
    c.phase = "play"
    c.interval_until = None
    c.outcome = None
    c.finished_at = None
    return was


def reopen(c: Core) -> None:
    """The period that ended goes on (its horn sounded early): clock stopped where the horn stopped it."""
    _reopen(c)


def _decide_again(ctx: Context, c: Core, was: tuple[Phase, int | None]) -> None:
    assert c.period_end is not None
    decide(ctx, c, c.period_end)
    if c.phase == "interval":
        if was[0] == "interval":
            c.interval_until = was[1]  # the break runs on as it was (it may have been cut short)
        elif was[0] == "play":
            begin_next_period(ctx, c, c.now)  # the break was already over


def goal_after_period(ctx: Context, c: Core, e: ev.Goal, *, late: bool) -> None:
    """A goal of the period that ended: pressed within the grace (``late``), or forgotten and entered in the break.

    A late goal was scored just before the horn, so it ends what a goal then would
    have ended, but not penalties given after the horn. A goal entered later in the
    break ends no penalty: when it was scored is not known (enter it at its own
    instant for that).
    """
    if c.attempts:
        raise refuse("shots_taken_goal", action=e.type, shootout_name=ctx.shootout_name())
    horn = c.period_end
    was = _reopen(c)
    c.count_goal(e)
    if late:
        c.penalties = pen.on_goal(ctx.ruleset, c.penalties, e.team, c.play(ctx, e.at), e.seq, awarded_by=horn)
    _decide_again(ctx, c, was)


def check_score_change(ctx: Context, c: Core, action: str, home: int, away: int) -> None:
    """Refuse, before anything changes, a score of ``home``-``away`` that the outcome cannot take."""
    if c.outcome in ("walkover", "forfeit"):
        raise refuse("result_set_by_rules", action=action, outcome=c.outcome)
    if c.outcome != "abandoned" and c.attempts and home != away:
        raise refuse("shots_taken_unlevel", action=action, shootout_name=ctx.shootout_name())


def after_score_change(ctx: Context, c: Core) -> None:
    """Keep the outcome consistent with a score changed (and checked) by a correction or a disallowed goal."""
    level = c.home == c.away
    if c.outcome in ("walkover", "forfeit", "abandoned") or c.attempts:
        return  # an abandoned match's score stands as played; the organiser decides the result
    if end_is_open(c):
        _decide_again(ctx, c, _reopen(c))
    elif c.phase == "finished" and c.outcome == "overtime" and level:
        # The golden goal is gone: extra time goes on from where it stood, clock stopped.
        c.phase = "play"
        c.outcome = None
        c.finished_at = None

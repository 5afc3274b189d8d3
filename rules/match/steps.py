"""The handlers of the clock, score, set-piece, time-out and ending events (penalties: discipline.py).

Each checks the event against the state and the rules, then changes the state:
nothing changes before every check has passed, so a refusal (IllegalCommand) leaves
the engine's copy as it was. :func:`rules.match.machine.step` dispatches to them.
"""

from __future__ import annotations

from rules.match import events as ev
from rules.match import penalties as pen
from rules.match import periods, shootout, timeouts
from rules.match.fold import Context, Core
from rules.match.periods import begin_next_period, end_period
from rules.match.refusals import refuse


def _within_grace(ctx: Context, c: Core, at: int) -> bool:
    """A press this soon after a period ran out was meant for that period."""
    return c.period_ended_at is not None and at - c.period_ended_at <= ctx.ruleset.match.late_press_grace


def _period_name(ctx: Context, c: Core) -> str:
    return "extra time" if c.period > ctx.ruleset.match.periods else ctx.ruleset.match.period_name


def _require_play(ctx: Context, c: Core, action: str) -> None:
    """``action``: the event type of the command (its words come from refusals.ACTIONS)."""
    if c.phase == "play":
        return
    if c.phase == "pre_match":
        raise refuse("not_started", action=action)
    if c.phase == "interval":
        raise refuse("in_interval", action=action, period_name=_period_name(ctx, c))
    if c.phase == "shootout":
        raise refuse("in_shootout", action=action, shootout_name=ctx.shootout_name())
    raise refuse("match_over", action=action)


def _not_finished(c: Core, action: str) -> None:
    if c.phase == "finished":
        raise refuse("match_over", action=action)


def clock_started(ctx: Context, c: Core, e: ev.ClockStarted) -> None:
    if _within_grace(ctx, c, e.at):
        c.late_presses += 1
        c.note = ("late_press", c.ended_period or c.period)
        return
    if c.phase not in ("pre_match", "interval"):  # the match starts, or the next period at once
        _require_play(ctx, c, e.type)
    if c.running():
        raise refuse("clock_running")
    if c.phase == "pre_match":
        c.phase = "play"
        c.reset_possession(ctx, e.at, short=False)
    elif c.phase == "interval":
        begin_next_period(ctx, c, e.at)  # the teams are ready before the interval ran out
    c.timeout_team = c.timeout_until = None  # play resumes: the time-out is over
    c.start_clock(e.at)


def clock_stopped(ctx: Context, c: Core, e: ev.ClockStopped) -> None:
    if _within_grace(ctx, c, e.at) and not c.running():
        c.late_presses += 1
        c.note = ("late_press", c.ended_period or c.period)
        return
    _require_play(ctx, c, e.type)
    if not c.running():
        raise refuse("clock_stopped")
    c.stop_clock(ctx, e.at)


def goal(ctx: Context, c: Core, e: ev.Goal) -> None:
    late = _within_grace(ctx, c, e.at) and periods.end_is_open(c)
    if late or (c.phase in ("interval", "shootout") and periods.end_is_open(c)):
        c.note = ("late_press" if late else "goal_for_ended_period", c.ended_period or c.period)
        periods.goal_after_period(ctx, c, e, late=late)
        return
    if c.phase == "finished" and c.outcome in ("regular", "overtime"):
        raise refuse("goal_after_end")
    if c.attempts:
        raise refuse("shots_taken_goal", action=e.type, shootout_name=ctx.shootout_name())
    _require_play(ctx, c, e.type)
    c.ended_period = c.period_end = None  # scored in the period now ready: the last one's end is settled
    m = ctx.ruleset.match
    golden = c.period > m.periods and m.overtime is not None and m.overtime.kind == "golden_goal"
    c.count_goal(e, golden=golden)
    if m.stopped_time or golden:
        c.stop_clock(ctx, e.at)
    c.penalties = pen.on_goal(ctx.ruleset, c.penalties, e.team, c.play(ctx, e.at), e.seq)
    c.reset_possession(ctx, e.at, short=False)
    c.set_piece = None
    if golden:
        c.finish("overtime", e.at)


def goal_disallowed(ctx: Context, c: Core, e: ev.GoalDisallowed) -> None:
    index = next((i for i, g in enumerate(c.goals) if g.seq == e.target), None)
    if index is None:
        raise refuse("not_a_goal", seq=e.target)
    goal = c.goals[index]
    if goal.disallowed:
        raise refuse("goal_already_disallowed", seq=e.target)
    home = max(0, c.home - 1) if goal.team == "home" else c.home
    away = max(0, c.away - 1) if goal.team == "away" else c.away
    periods.check_score_change(ctx, c, e.type, home, away)
    c.goals = (*c.goals[:index], goal.replace(disallowed=True), *c.goals[index + 1 :])
    c.home, c.away = home, away
    limit = ctx.ruleset.penalties.max_reducing_per_team
    restored = [*c.penalties, *c.served]  # the penalties this goal ended come back from the served ones
    for i, p in enumerate(restored):
        # A penalty the goal ended runs on, if there is still room for it.
        room = not p.reduces or pen.has_room(tuple(restored), p.team, limit)
        if p.ended_by_goal == goal.seq and room:
            restored[i] = p.replace(ended=None, end_reason=None, ended_by_goal=None)
    c.penalties, c.served = tuple(restored), ()
    periods.after_score_change(ctx, c)


def set_piece_started(ctx: Context, c: Core, e: ev.SetPieceStarted) -> None:
    _require_play(ctx, c, e.type)
    names = ctx.ruleset.match.set_pieces
    if e.name not in names:
        raise refuse("unknown_set_piece", name=e.name, ruleset=ctx.ruleset.name, known=list(names))
    if c.set_piece is not None:
        raise refuse("set_piece_running", set_piece=c.set_piece)
    c.set_piece = e.name


def set_piece_ended(ctx: Context, c: Core, e: ev.SetPieceEnded) -> None:
    if c.set_piece is None:
        raise refuse("no_set_piece")
    c.set_piece = None


def timeout_started(ctx: Context, c: Core, e: ev.TimeoutStarted) -> None:
    late = _within_grace(ctx, c, e.at) and c.phase in ("play", "interval")
    if not late:
        _require_play(ctx, c, e.type)
    if c.timeout_team is not None:
        raise refuse("timeout_running", team=c.timeout_team)
    if c.set_piece is not None and c.set_piece in ctx.ruleset.timeouts.not_during:
        raise refuse("no_timeout_during", set_piece=c.set_piece)
    period = c.ended_period if late and c.ended_period is not None else c.period
    if late:
        c.note = ("late_press", period)
    seg = timeouts.segment(ctx.ruleset, period)
    if timeouts.left(ctx.ruleset, ctx.round, c.timeouts_used, e.team, seg) <= 0:
        raise timeouts.refusal(ctx.ruleset, ctx.round, e.team, seg)
    if c.running():
        c.stop_clock(ctx, e.at)
    c.timeouts_used = (*c.timeouts_used, (e.team, seg))
    c.timeout_team = e.team
    c.timeout_until = e.at + ctx.ruleset.timeouts.length


def timeout_ended(ctx: Context, c: Core, e: ev.TimeoutEnded) -> None:
    if c.timeout_team is None:
        raise refuse("no_timeout")
    c.timeout_team = c.timeout_until = None


def period_advanced(ctx: Context, c: Core, e: ev.PeriodAdvanced) -> None:
    if c.phase == "interval":
        begin_next_period(ctx, c, e.at)
    else:
        _require_play(ctx, c, e.type)
        end_period(ctx, c, e.at)
    # The grace is for presses racing a horn; the operator ended this period on purpose.
    c.period_ended_at = None


def possession_reset(ctx: Context, c: Core, e: ev.PossessionReset) -> None:
    if ctx.ruleset.match.possession_clock is None:
        raise refuse("no_possession_clock", ruleset=ctx.ruleset.name)
    _require_play(ctx, c, e.type)
    c.reset_possession(ctx, e.at, short=e.short)


def shootout_attempt(ctx: Context, c: Core, e: ev.ShootoutAttempt) -> None:
    rules = ctx.ruleset.match.shootout
    if c.phase != "shootout" or rules is None:
        raise refuse("no_shootout")
    before = shootout.tally(rules, c.attempts)
    if before.next_team is not None and e.team != before.next_team:
        raise refuse("not_your_turn", team=before.next_team)
    c.attempts = (*c.attempts, shootout.Attempt(seq=e.seq, team=e.team, scored=e.scored, player=e.player))
    if shootout.tally(rules, c.attempts).decided:
        c.finish("shootout", e.at)


def clock_corrected(ctx: Context, c: Core, e: ev.ClockCorrected) -> None:
    # In a break (or after the final horn) with nothing yet depending on that end, the
    # correction is for the period that ended: its horn sounded early, so it goes on.
    early_horn = c.phase in ("interval", "shootout", "finished") and periods.end_is_open(c)
    if not early_horn:
        _require_play(ctx, c, e.type)
    length = ctx.period_length(c.ended_period if early_horn and c.ended_period is not None else c.period)
    if not 0 <= e.clock <= length:
        raise refuse("clock_range", length_ms=length)
    if early_horn:
        periods.reopen(c)
        c.period_ended_at = None  # no late-press grace: the period is on again
    c.ended_period = c.period_end = None  # the period now in play was set by hand: the last one's end is settled
    c.clock_base = length - e.clock if ctx.ruleset.match.clock_direction == "down" else e.clock
    if c.clock_since is not None:
        c.clock_since = e.at


def score_corrected(ctx: Context, c: Core, e: ev.ScoreCorrected) -> None:
    if c.phase == "pre_match":
        raise refuse("score_before_start")
    periods.check_score_change(ctx, c, e.type, e.home, e.away)
    c.home, c.away = e.home, e.away
    periods.after_score_change(ctx, c)


def match_abandoned(ctx: Context, c: Core, e: ev.MatchAbandoned) -> None:
    _not_finished(c, e.type)
    c.stop_clock(ctx, e.at)
    phase = c.phase
    c.finish("abandoned", e.at)
    c.abandoned_phase = phase


def _require_abandoned(c: Core, action: str) -> None:
    if c.phase != "finished" or c.outcome != "abandoned":
        raise refuse("not_abandoned", action=action)


def match_resumed(ctx: Context, c: Core, e: ev.MatchResumed) -> None:
    """The match goes on as it stood when abandoned: score, period, clock (stopped), penalties, shots."""
    _require_abandoned(c, e.type)
    assert c.finished_at is not None
    phase = c.abandoned_phase or "play"
    if c.started_at is not None:
        # Seed 004's 45-minute cap is on the game's length: the time it stood abandoned does not count.
        c.started_at += e.at - c.finished_at
    c.outcome = c.finished_at = c.abandoned_phase = None
    c.period_ended_at = None  # no late-press grace across the pause
    if phase == "interval":
        begin_next_period(ctx, c, e.at)  # the break ran out while the match stood: the next period is ready
    else:
        c.phase = phase


def match_replayed(ctx: Context, c: Core, e: ev.MatchReplayed) -> None:
    """The match starts again from nothing; only the earlier play's cards are kept, as records."""
    _require_abandoned(c, e.type)
    fresh = Core(now=c.now, earlier_cards=(*c.earlier_cards, *c.cards))
    c.__dict__.clear()
    c.__dict__.update(fresh.__dict__)


def forfeit(ctx: Context, c: Core, e: ev.Forfeit) -> None:
    _not_finished(c, e.type)
    c.stop_clock(ctx, e.at)
    c.forfeiter = e.team
    c.finish("forfeit", e.at)


def walkover(ctx: Context, c: Core, e: ev.Walkover) -> None:
    if c.phase != "pre_match":
        raise refuse("walkover_after_start")
    c.forfeiter = e.team
    c.finish("walkover", e.at)

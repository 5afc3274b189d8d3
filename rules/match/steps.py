"""One event applied to the folded state: check it against the rules, then change the state.

:func:`step` works on a fresh copy of the state; when a command is refused it raises
:class:`~rules.errors.IllegalCommand` with the reason and the copy is thrown away,
so the match is left as it was.
"""

from __future__ import annotations

from dataclasses import replace
from typing import assert_never

from rules.match import events as ev
from rules.match import penalties as pen
from rules.match import rescore, shootout, timeouts
from rules.match.cards import Card
from rules.match.fold import Context, Core, begin_next_period, end_period
from rules.match.refusals import refuse
from rules.ruleset import PenaltyKind


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


def _clock_started(ctx: Context, c: Core, e: ev.ClockStarted) -> None:
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


def _clock_stopped(ctx: Context, c: Core, e: ev.ClockStopped) -> None:
    if _within_grace(ctx, c, e.at) and not c.running():
        c.late_presses += 1
        c.note = ("late_press", c.ended_period or c.period)
        return
    _require_play(ctx, c, e.type)
    if not c.running():
        raise refuse("clock_stopped")
    c.stop_clock(ctx, e.at)


def _goal(ctx: Context, c: Core, e: ev.Goal) -> None:
    late = _within_grace(ctx, c, e.at) and rescore.end_is_open(c)
    if late or (c.phase in ("interval", "shootout") and rescore.end_is_open(c)):
        c.note = ("late_press" if late else "goal_for_ended_period", c.ended_period or c.period)
        rescore.goal_after_period(ctx, c, e, late=late)
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


def _goal_disallowed(ctx: Context, c: Core, e: ev.GoalDisallowed) -> None:
    index = next((i for i, g in enumerate(c.goals) if g.seq == e.target), None)
    if index is None:
        raise refuse("not_a_goal", seq=e.target)
    goal = c.goals[index]
    if goal.disallowed:
        raise refuse("goal_already_disallowed", seq=e.target)
    home = max(0, c.home - 1) if goal.team == "home" else c.home
    away = max(0, c.away - 1) if goal.team == "away" else c.away
    rescore.check_score_change(ctx, c, e.type, home, away)
    c.goals = (*c.goals[:index], replace(goal, disallowed=True), *c.goals[index + 1 :])
    c.home, c.away = home, away
    limit = ctx.ruleset.penalties.max_reducing_per_team
    restored = [*c.penalties, *c.served]  # the penalties this goal ended come back from the served ones
    for i, p in enumerate(restored):
        # A penalty the goal ended runs on, if there is still room for it.
        room = not p.reduces or pen.has_room(tuple(restored), p.team, limit)
        if p.ended_by_goal == goal.seq and room:
            restored[i] = replace(p, ended=None, end_reason=None, ended_by_goal=None)
    c.penalties, c.served = tuple(restored), ()
    rescore.after_score_change(ctx, c)


def _penalty_kind(ctx: Context, kind: str) -> PenaltyKind:
    try:
        return ctx.ruleset.penalty(kind)
    except LookupError:
        raise refuse(
            "unknown_penalty_kind", kind=kind, ruleset=ctx.ruleset.name, known=list(ctx.ruleset.penalties.kinds)
        ) from None


def _target(c: Core, seq: int) -> tuple[tuple[pen.Penalty, ...], int, pen.Penalty]:
    """Every penalty of the match (the board, then the served ones: a served one can be put back),
    the index of penalty ``seq`` in it, and that penalty. Changes nothing."""
    every = (*c.penalties, *c.served) if c.served else c.penalties
    index = pen.find(every, seq)
    if index is None:
        raise refuse("not_a_penalty", seq=seq)
    return every, index, every[index]


def _penalty_awarded(ctx: Context, c: Core, e: ev.PenaltyAwarded) -> None:
    kind = _penalty_kind(ctx, e.kind)
    every = (*c.penalties, *c.served)  # a player's earlier penalties count, served or not
    length = kind.length
    if e.length is not None:
        if kind.length is None:
            raise refuse("takes_no_length", label=kind.label)
        if not kind.minimum and e.length != kind.length:
            raise refuse("fixed_length_award", label=kind.label, length_ms=kind.length)
        if e.length < kind.length:
            raise refuse("at_least", label=kind.label, length_ms=kind.length)
        length = e.length
    if e.player is not None:
        for p in every:
            out = ctx.ruleset.penalty(p.kind)
            # A sending-off that does not itself reduce strength (ice hockey's game misconduct)
            # comes with the penalty that does: at that stoppage it may be entered after it.
            companion = (p.stoppage == c.stoppage and not c.running() and not out.reduces_strength
                         and kind.reduces_strength)
            if p.team == e.team and p.player == e.player and out.player_out_for_match and not companion:
                raise refuse("player_out", player=e.player, team=e.team)
    play = c.play(ctx, e.at)
    # (kind name, its rules, length, escalated): the award, then what it escalates to (two yellows, a red)
    to_award: list[tuple[str, PenaltyKind, int | None, bool]] = [(e.kind, kind, length, False)]
    if kind.escalates_to is not None and e.player is not None:
        # Every kind that escalates to the same one counts towards it: water polo's third
        # personal foul, exclusion or penalty foul alike, puts the player out with substitution.
        group = {name for name, k in ctx.ruleset.penalties.kinds.items() if k.escalates_to == kind.escalates_to}
        earlier = sum(1 for k in c.cards if k.team == e.team and k.player == e.player and k.kind in group)
        if earlier + 1 == kind.escalates_after:
            target = ctx.ruleset.penalty(kind.escalates_to)
            to_award.append((kind.escalates_to, target, target.length, True))
    if c.phase == "finished":
        # After the final whistle a penalty is a record for its disciplinary consequences (a red card:
        # the player misses the next match): a card, never a timer; the match itself does not change.
        for name, rules_of, _, _ in to_award:
            c.cards = (*c.cards, _card(e, name, rules_of))
        return
    limit = ctx.ruleset.penalties.max_reducing_per_team
    awarded: list[pen.Penalty] = []
    for name, rules_of, length_of, escalated in to_award:
        # Each one is built against the penalties already on the board, the first award included,
        # so an escalation waits when the team is already at its limit of players short.
        p = _new_penalty(ctx, c, e, name, rules_of, length_of, play, escalated=escalated)
        awarded.append(p)
        queued = pen.served_first(c.penalties, p, c.stoppage)
        if queued != c.penalties:  # the player's misconduct from this stoppage now waits: this one goes first
            c.penalties = pen.start_waiting((*queued, replace(p, start=None)), e.team, play, limit)
        else:
            c.penalties = (*c.penalties, p)
        c.cards = (*c.cards, _card(e, p.kind, ctx.ruleset.penalty(p.kind)))
    c.penalties = pen.mark_coincidental(ctx.ruleset, c.penalties, c.stoppage, play)
    if any(p.reduces and p.active for p in awarded):
        c.reset_possession(ctx, e.at, short=True)


def _card(e: ev.PenaltyAwarded, kind: str, rules: PenaltyKind) -> Card:
    return Card(
        seq=e.seq, team=e.team, player=e.player, kind=kind, label=rules.label,
        out_for_match=rules.player_out_for_match, suspended_next_matches=rules.suspended_next_matches,
        report_to_organisers=rules.report_to_organisers,
    )


def _new_penalty(
    ctx: Context, c: Core, e: ev.PenaltyAwarded, name: str, kind: PenaltyKind, length: int | None, play: int,
    *, escalated: bool,
) -> pen.Penalty:
    base = pen.Penalty(
        seq=e.seq, team=e.team, kind=name, player=e.player, length=length, start=play,
        reduces=kind.reduces_strength, escalated=escalated, stoppage=c.stoppage, awarded_at=e.at,
        # An escalation follows the award that caused it; a major given with a minor goes first.
        first=kind.reduces_strength and kind.ends_on_goal == "never" and not escalated,
    )
    if length == 0:
        return replace(base, ended=play, end_reason="caution", reduces=False)
    limit = ctx.ruleset.penalties.max_reducing_per_team
    if kind.reduces_strength and not pen.has_room(c.penalties, e.team, limit):
        return replace(base, start=None)  # waits until one of the team's penalties ends
    if pen.behind(c.penalties, base):
        return replace(base, start=None)  # the player serves it after the one running now
    return base


def _penalty_ended(ctx: Context, c: Core, e: ev.PenaltyEnded) -> None:
    every, index, p = _target(c, e.target)
    kind = ctx.ruleset.penalty(p.kind)
    if not p.active:
        raise refuse("penalty_over", label=kind.label, seq=e.target)
    if not kind.operator_may_end:
        raise refuse("not_ended_by_table", label=kind.label)
    limit = ctx.ruleset.penalties.max_reducing_per_team
    c.penalties, c.served = pen.end(every, index, c.play(ctx, e.at), "operator", limit), ()


def _penalty_lengthened(ctx: Context, c: Core, e: ev.PenaltyLengthened) -> None:
    every, index, p = _target(c, e.target)
    kind = ctx.ruleset.penalty(p.kind)
    if not kind.minimum:
        raise refuse("fixed_length", label=kind.label)
    if not p.active:
        raise refuse("penalty_over", label=kind.label, seq=e.target)
    assert p.length is not None
    if e.length < p.length:
        raise refuse("length_only_grows", label=kind.label, length_ms=p.length)
    c.penalties, c.served = (*every[:index], replace(p, length=e.length), *every[index + 1 :]), ()


def _penalty_corrected(ctx: Context, c: Core, e: ev.PenaltyCorrected) -> None:
    every, index, p = _target(c, e.target)
    kind = ctx.ruleset.penalty(p.kind)
    if p.length is None:
        raise refuse("runs_to_end", label=kind.label)
    if p.end_reason == "caution":
        raise refuse("no_time_to_correct", label=kind.label)
    limit = ctx.ruleset.penalties.max_reducing_per_team
    play = c.play(ctx, e.at)
    if e.remaining == 0:
        if p.active:
            c.penalties, c.served = pen.end(every, index, play, "corrected", limit), ()
        return
    if not p.active and p.reduces and not pen.has_room(c.penalties, p.team, limit):
        raise refuse("no_room", team=p.team, limit=limit)
    if p.active and p.start is None:
        fixed = replace(p, length=e.remaining)  # still waiting: it will serve this much
    else:
        start = p.start if p.start is not None else play
        length = play - start + e.remaining
        fixed = replace(p, start=start, length=length, ended=None, end_reason=None, ended_by_goal=None)
    c.penalties, c.served = (*every[:index], fixed, *every[index + 1 :]), ()


def _set_piece_started(ctx: Context, c: Core, e: ev.SetPieceStarted) -> None:
    _require_play(ctx, c, e.type)
    names = ctx.ruleset.match.set_pieces
    if e.name not in names:
        raise refuse("unknown_set_piece", name=e.name, ruleset=ctx.ruleset.name, known=list(names))
    if c.set_piece is not None:
        raise refuse("set_piece_running", set_piece=c.set_piece)
    c.set_piece = e.name


def _set_piece_ended(ctx: Context, c: Core, e: ev.SetPieceEnded) -> None:
    if c.set_piece is None:
        raise refuse("no_set_piece")
    c.set_piece = None


def _timeout_started(ctx: Context, c: Core, e: ev.TimeoutStarted) -> None:
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


def _timeout_ended(ctx: Context, c: Core, e: ev.TimeoutEnded) -> None:
    if c.timeout_team is None:
        raise refuse("no_timeout")
    c.timeout_team = c.timeout_until = None


def _period_advanced(ctx: Context, c: Core, e: ev.PeriodAdvanced) -> None:
    if c.phase == "interval":
        begin_next_period(ctx, c, e.at)
    else:
        _require_play(ctx, c, e.type)
        end_period(ctx, c, e.at)
    # The grace is for presses racing a horn; the operator ended this period on purpose.
    c.period_ended_at = None


def _possession_reset(ctx: Context, c: Core, e: ev.PossessionReset) -> None:
    if ctx.ruleset.match.possession_clock is None:
        raise refuse("no_possession_clock", ruleset=ctx.ruleset.name)
    _require_play(ctx, c, e.type)
    c.reset_possession(ctx, e.at, short=e.short)


def _shootout_attempt(ctx: Context, c: Core, e: ev.ShootoutAttempt) -> None:
    rules = ctx.ruleset.match.shootout
    if c.phase != "shootout" or rules is None:
        raise refuse("no_shootout")
    before = shootout.tally(rules, c.attempts)
    if before.next_team is not None and e.team != before.next_team:
        raise refuse("not_your_turn", team=before.next_team)
    c.attempts = (*c.attempts, shootout.Attempt(seq=e.seq, team=e.team, scored=e.scored, player=e.player))
    if shootout.tally(rules, c.attempts).decided:
        c.finish("shootout", e.at)


def _clock_corrected(ctx: Context, c: Core, e: ev.ClockCorrected) -> None:
    # In a break (or after the final horn) with nothing yet depending on that end, the
    # correction is for the period that ended: its horn sounded early, so it goes on.
    early_horn = c.phase in ("interval", "shootout", "finished") and rescore.end_is_open(c)
    if not early_horn:
        _require_play(ctx, c, e.type)
    length = ctx.period_length(c.ended_period if early_horn and c.ended_period is not None else c.period)
    if not 0 <= e.clock <= length:
        raise refuse("clock_range", length_ms=length)
    if early_horn:
        rescore.reopen(c)
        c.period_ended_at = None  # no late-press grace: the period is on again
    c.ended_period = c.period_end = None  # the period now in play was set by hand: the last one's end is settled
    c.clock_base = length - e.clock if ctx.ruleset.match.clock_direction == "down" else e.clock
    if c.clock_since is not None:
        c.clock_since = e.at


def _score_corrected(ctx: Context, c: Core, e: ev.ScoreCorrected) -> None:
    if c.phase == "pre_match":
        raise refuse("score_before_start")
    rescore.check_score_change(ctx, c, e.type, e.home, e.away)
    c.home, c.away = e.home, e.away
    rescore.after_score_change(ctx, c)


def _match_abandoned(ctx: Context, c: Core, e: ev.MatchAbandoned) -> None:
    _not_finished(c, e.type)
    c.stop_clock(ctx, e.at)
    c.finish("abandoned", e.at)


def _forfeit(ctx: Context, c: Core, e: ev.Forfeit) -> None:
    _not_finished(c, e.type)
    c.stop_clock(ctx, e.at)
    c.forfeiter = e.team
    c.finish("forfeit", e.at)


def _walkover(ctx: Context, c: Core, e: ev.Walkover) -> None:
    if c.phase != "pre_match":
        raise refuse("walkover_after_start")
    c.forfeiter = e.team
    c.finish("walkover", e.at)


def step(ctx: Context, c: Core, event: ev.Event) -> None:
    """Apply ``event`` to ``c``: each handler checks everything before it changes anything.

    ``c`` is the engine's fresh copy for this event; a refusal (IllegalCommand) leaves
    the match as it was because nothing was changed before it was raised.
    """
    e = ev.known(event)
    c.due = None  # whatever the event changes, the next transition is found again
    board = c.penalties
    match e:
        case ev.ClockStarted():
            _clock_started(ctx, c, e)
        case ev.ClockStopped():
            _clock_stopped(ctx, c, e)
        case ev.Goal():
            _goal(ctx, c, e)
        case ev.GoalDisallowed():
            _goal_disallowed(ctx, c, e)
        case ev.PenaltyAwarded():
            _penalty_awarded(ctx, c, e)
        case ev.PenaltyEnded():
            _penalty_ended(ctx, c, e)
        case ev.PenaltyLengthened():
            _penalty_lengthened(ctx, c, e)
        case ev.PenaltyCorrected():
            _penalty_corrected(ctx, c, e)
        case ev.SetPieceStarted():
            _set_piece_started(ctx, c, e)
        case ev.SetPieceEnded():
            _set_piece_ended(ctx, c, e)
        case ev.TimeoutStarted():
            _timeout_started(ctx, c, e)
        case ev.TimeoutEnded():
            _timeout_ended(ctx, c, e)
        case ev.PeriodAdvanced():
            _period_advanced(ctx, c, e)
        case ev.PossessionReset():
            _possession_reset(ctx, c, e)
        case ev.ShootoutAttempt():
            _shootout_attempt(ctx, c, e)
        case ev.ClockCorrected():
            _clock_corrected(ctx, c, e)
        case ev.ScoreCorrected():
            _score_corrected(ctx, c, e)
        case ev.MatchAbandoned():
            _match_abandoned(ctx, c, e)
        case ev.Forfeit():
            _forfeit(ctx, c, e)
        case ev.Walkover():
            _walkover(ctx, c, e)
        case ev.Undo() | None:  # an undo works on the log, not the state (Match.apply)
            raise refuse("not_applied", type=event.type or type(event).__name__)
        case _:
            assert_never(e)
    if c.penalties is not board:
        c.settle()

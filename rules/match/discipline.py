"""The handlers of the penalty events: awards (with escalations and the order of serving), ends, corrections.

Each checks everything before it changes anything; :func:`rules.match.machine.step`
dispatches to them. Ended penalties live in ``Core.served``: a command that can
reopen one works on the board and the served ones together.
"""

from __future__ import annotations

from rules.match import events as ev
from rules.match import penalties as pen
from rules.match.cards import Card
from rules.match.fold import Context, Core
from rules.match.refusals import refuse
from rules.ruleset import PenaltyKind


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


def penalty_awarded(ctx: Context, c: Core, e: ev.PenaltyAwarded) -> None:
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
            c.penalties = pen.start_waiting((*queued, p.replace(start=None)), e.team, play, limit)
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
        return base.replace(ended=play, end_reason="caution", reduces=False)
    limit = ctx.ruleset.penalties.max_reducing_per_team
    if kind.reduces_strength and not pen.has_room(c.penalties, e.team, limit):
        return base.replace(start=None)  # waits until one of the team's penalties ends
    if pen.behind(c.penalties, base):
        return base.replace(start=None)  # the player serves it after the one running now
    return base


def penalty_ended(ctx: Context, c: Core, e: ev.PenaltyEnded) -> None:
    every, index, p = _target(c, e.target)
    kind = ctx.ruleset.penalty(p.kind)
    if not p.active:
        raise refuse("penalty_over", label=kind.label, seq=e.target)
    if not kind.operator_may_end:
        raise refuse("not_ended_by_table", label=kind.label)
    limit = ctx.ruleset.penalties.max_reducing_per_team
    c.penalties, c.served = pen.end(every, index, c.play(ctx, e.at), "operator", limit), ()


def penalty_lengthened(ctx: Context, c: Core, e: ev.PenaltyLengthened) -> None:
    every, index, p = _target(c, e.target)
    kind = ctx.ruleset.penalty(p.kind)
    if not kind.minimum:
        raise refuse("fixed_length", label=kind.label)
    if not p.active:
        raise refuse("penalty_over", label=kind.label, seq=e.target)
    assert p.length is not None
    if e.length < p.length:
        raise refuse("length_only_grows", label=kind.label, length_ms=p.length)
    c.penalties, c.served = (*every[:index], p.replace(length=e.length), *every[index + 1 :]), ()


def penalty_corrected(ctx: Context, c: Core, e: ev.PenaltyCorrected) -> None:
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
        fixed = p.replace(length=e.remaining)  # still waiting: it will serve this much
    else:
        start = p.start if p.start is not None else play
        length = play - start + e.remaining
        fixed = p.replace(start=start, length=length, ended=None, end_reason=None, ended_by_goal=None)
    c.penalties, c.served = (*every[:index], fixed, *every[index + 1 :]), ()

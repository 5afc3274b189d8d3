"""The match state in words: period, clock, strength, penalties, and the operator's feedback.

The engine gives data (rules.match.MatchState, Applied, IllegalCommand's key and
params); these functions make the English from it, each word passed through ``_``,
a gettext function (``words_for(lang).gettext``) that defaults to English as is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from rules.errors import IllegalCommand
from rules.live import LiveBoard
from rules.match.applied import Applied
from rules.match.clock import format_clock
from rules.match.refusals import render
from rules.match.state import MatchState, PenaltyView, PeriodKind
from rules.ruleset import Ruleset

Translate = Callable[[str], str]


def _identity(text: str) -> str:
    return text


def side_text(side: str, _: Translate = _identity) -> str:
    """``"home"`` -> ``"HOME"``: how the table names a side."""
    return _({"home": "HOME", "away": "AWAY"}.get(side, side))


class _Period(Protocol):
    @property
    def period(self) -> int: ...
    @property
    def period_kind(self) -> PeriodKind: ...


def period_name(state: _Period, ruleset: Ruleset, _: Translate = _identity) -> str:
    """"half 2", "extra time 1", "penalty shoot-out": the part of the match being played (``state``: a match's
    state, or a line of its timeline)."""
    m = ruleset.match
    if state.period_kind == "shootout":
        return _(m.shootout.name if m.shootout is not None else "shoot-out")
    if state.period_kind == "extra_time":
        return _("extra time {number}").format(number=state.period - m.periods)
    return _("{period_name} {number}").format(period_name=_(m.period_name), number=state.period)


def board_period_text(board: LiveBoard, _: Translate = _identity) -> str:
    """:func:`period_name` from a live board (rules.live), as a page that has no ruleset words it."""
    if board.period_number is None:
        return _(board.period_name)
    if board.period_kind == "extra_time":
        return _("extra time {number}").format(number=board.period_number)
    whole = f"{board.period_name} {board.period_number}"  # a catalogue may word it whole: "andra halvlek"
    if _(whole) != whole:
        return _(whole)
    return _("{period_name} {number}").format(period_name=_(board.period_name), number=board.period_number)


def clock_text(state: MatchState) -> str:
    """``M:SS``, or ``S.t`` in the last ``tenths_below`` ms; a down-clock rounds up, an up-clock down."""
    return format_clock(state.clock_ms, tenths=state.tenths, down=state.clock_down)


def strength_text(state: MatchState) -> str | None:
    """"5 v 4" (home first) when the number on the field is known, else None."""
    if state.home_on_field is None or state.away_on_field is None:
        return None
    return f"{state.home_on_field} v {state.away_on_field}"


def remaining_text(view: PenaltyView) -> str | None:
    """What is left of a penalty as ``M:SS``; None for one that runs to the end of the match."""
    return None if view.remaining_ms is None else format_clock(view.remaining_ms, tenths=False, down=True)


def penalty_text(view: PenaltyView, ruleset: Ruleset, _: Translate = _identity, *, short: bool = False,
                 teams: tuple[str, str] | None = None) -> str:
    """"HOME #4 Minor penalty 1:23 (waiting)": one penalty on the board (``short``: the kind's short name;
    ``teams``: the sides' names, where the log gives them)."""
    kind = ruleset.penalty(view.kind)
    parts = [_side(view.team, _, teams)]
    if view.player is not None:
        parts.append(f"#{view.player}")
    parts.append(_(kind.short if short else kind.label))
    left = remaining_text(view)
    if left is not None:
        parts.append(left)
    if view.waiting:
        parts.append(_("(waiting)"))
    elif view.coincidental:
        parts.append(_("(coincidental)"))
    return " ".join(parts)


APPLIED: dict[str, str] = {
    "applied.clock_started": "Clock started",
    "applied.clock_stopped": "Clock stopped",
    "applied.goal": "Goal {team}",
    "applied.goal_disallowed": "Goal seq {target} disallowed",
    "applied.goal_for_ended_period": "Goal {team} counted for period {period} that ended",
    "applied.penalty_awarded": "Penalty {kind} to {team}",
    "applied.penalty_ended": "Penalty seq {target} ended",
    "applied.penalty_lengthened": "Penalty seq {target} lengthened",
    "applied.penalty_corrected": "Penalty seq {target} corrected",
    "applied.set_piece_started": "Set piece: {name}",
    "applied.set_piece_ended": "Set piece over",
    "applied.timeout_started": "Time-out {team}",
    "applied.timeout_ended": "Time-out over",
    "applied.period_advanced": "Period ended",
    "applied.possession_reset": "Possession clock reset",
    "applied.shootout_attempt": "Shot {team}",
    "applied.clock_corrected": "Clock corrected",
    "applied.score_corrected": "Score corrected to {home}-{away}",
    "applied.match_abandoned": "Match abandoned",
    "applied.match_resumed": "Match resumed as it stood when abandoned: start the clock to play on",
    "applied.match_replayed": "Match replayed from the start: the abandoned play does not count",
    "applied.forfeit": "Forfeit by {team}",
    "applied.walkover": "Walk-over: {team} did not come",
    "applied.undo": "Seq {target} undone",
    "applied.late_press": "Late press: taken for period {period} that ended",
    "applied.duplicate": "Already logged (seq {seq}): nothing changed",
}


def applied_text(applied: Applied, _: Translate = _identity) -> str:
    """The operator's feedback for a command the match took: "Goal HOME #7", "Late press: ..."."""
    template = APPLIED.get(applied.message_key, applied.message_key)
    values: dict[str, Any] = dict(applied.params)
    if isinstance(values.get("team"), str):
        values["team"] = side_text(values["team"], _)
    try:
        text = _(template).format(**values)
    except (KeyError, IndexError):
        text = _(template)
    player = applied.params.get("player")
    if applied.message_key in ("applied.goal", "applied.penalty_awarded", "applied.goal_for_ended_period") and player:
        text += f" #{player}"
    return text


def refusal_text(err: IllegalCommand, _: Translate = _identity) -> str:
    """Why the match refused a command, in the operator's language (English: ``err.reason``)."""
    if _ is _identity:
        return err.reason
    return render(err.key, err.params, _) if err.key != "refused" else err.reason


def _side(side: str, _: Translate, teams: tuple[str, str] | None) -> str:
    """A side by its team's name where it is known, else as the table names it (HOME, AWAY)."""
    if teams is not None and side in ("home", "away"):
        return teams[0] if side == "home" else teams[1]
    return side_text(side, _)


def state_text(state: MatchState, ruleset: Ruleset, _: Translate = _identity, *,
               teams: tuple[str, str] | None = None) -> str:
    """The whole board as lines of text (``courtside replay``'s default output); ``teams``: the sides' names,
    where the match log's header gives them."""
    lines = [
        f"{period_name(state, ruleset, _)}  {clock_text(state)}  {_('running') if state.running else _('stopped')}",
        f"{_side('home', _, teams)} {state.home_goals} - {state.away_goals} {_side('away', _, teams)}",
    ]
    strength = strength_text(state)
    if strength is not None:
        lines.append(f"{_('strength')} {strength}")
    lines += [penalty_text(view, ruleset, _, teams=teams) for view in state.penalties]
    lines += [f"{_side(p.team, _, teams)} #{p.player} {_('out for the match')}" for p in state.players_out]
    if state.timeout is not None:
        lines.append(f"{_('time-out')} {_side(state.timeout.team, _, teams)} "
                     f"{format_clock(state.timeout.remaining_ms, tenths=False, down=True)}")
    if state.possession_ms is not None:
        lines.append(f"{_('possession')} {format_clock(state.possession_ms, tenths=False, down=True)}")
    if state.shootout is not None:
        so = state.shootout
        lines.append(f"{_(so.name)} {so.home_goals} - {so.away_goals}")
    if state.result is not None:
        r = state.result
        winner = _side(r.winner, _, teams) if r.winner is not None else _("none")
        lines.append(f"{_('result')}: {r.home_goals} - {r.away_goals} ({_(r.outcome)}), {_('winner')} {winner}")
    return "\n".join(lines)

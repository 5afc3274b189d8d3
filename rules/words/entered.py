"""An event as the table official entered it, with when: the operator's list of what the buttons did.

"Clock stopped at 12:34 (period 2)", "Goal HOME #7 at 3:12 (period 1)"; an event that names another says which:
"Undone: Clock stopped at 12:34 (period 2)", never "Seq 5 undone", so the official knows what went.
"""

from __future__ import annotations

from rules.match.applied import Applied
from rules.match.engine import Match
from rules.match.events import FIELD_NAMES, Event, PeriodAdvanced, ShootoutAttempt
from rules.words.state import Translate, _identity, applied_text, clock_text, period_name, side_text

TARGETS: dict[str, str] = {
    # an event that names another (its ``target``): what it did to it
    "undo": "Undone: {target}",
    "goal_disallowed": "Goal disallowed: {target}",
    "penalty_ended": "Penalty ended: {target}",
    "penalty_lengthened": "Penalty lengthened: {target}",
    "penalty_corrected": "Penalty corrected: {target}",
}
AT = "{what} at {clock} ({period})"
IN = "{what} ({period})"  # a shoot-out's: its clock means nothing
SHOTS = {True: "Shot {team}{player}: scored", False: "Shot {team}{player}: missed"}


def entered_text(match: Match, event: Event, _: Translate = _identity) -> str:
    """``event`` of ``match``'s log in the official's words, with its instant; one naming another (an undo, a
    goal disallowed) says which, as that one was entered."""
    template = TARGETS.get(event.type)
    target_seq = getattr(event, "target", None)
    if template is not None and isinstance(target_seq, int):
        target = next((e for e in match.events if e.seq == target_seq), None)
        if target is not None:
            return _(template).format(target=entered_text(match, target, _))
    params: dict[str, object] = {name: getattr(event, name) for name in FIELD_NAMES.get(type(event), ("at", "seq"))}
    params["type"] = event.type
    kind = params.get("kind")
    if isinstance(kind, str) and kind in match.ruleset.penalties.kinds:  # "Minor", as the ruleset names it
        params["kind"] = _(match.ruleset.penalties.kinds[kind].label)
    if isinstance(params.get("name"), str):  # a set piece: "penalty stroke", not its key
        params["name"] = _(str(params["name"]).replace("_", " "))
    if isinstance(event, ShootoutAttempt):
        player = f" #{event.player}" if event.player else ""
        what = _(SHOTS[event.scored]).format(team=side_text(event.team, _), player=player)
    else:
        what = applied_text(Applied(event=event, kind="accepted", message_key=f"applied.{event.type}",
                                    params=params), _)
    # A period's end is said at the instant it ended, as the board showed it, not in the interval it began.
    state = match.state_at(event.at - 1 if isinstance(event, PeriodAdvanced) and event.at > 0 else event.at)
    period = period_name(state, match.ruleset, _)
    if state.period_kind == "shootout":
        return _(IN).format(what=what, period=period)
    return _(AT).format(what=what, clock=clock_text(state), period=period)


__all__ = ["entered_text"]

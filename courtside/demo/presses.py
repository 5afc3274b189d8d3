"""An officials' plan written as a press script: the buttons and keypad a real table official uses.

The table reads it with ``courtside table --script FILE`` through the mock pins (docs/press-scripts.md,
firmware/script.py). The desk's conventions (firmware/actions.py) decide the presses:

- a goal: the scorer's number on the keypad, then GOAL HOME/AWAY;
- a penalty: the number, PENALTY HOME/AWAY (the ruleset's first kind), MODE once per further
  kind, NEXT to confirm, and NEXT again to keep a minimum length (indoor hockey's yellow);
- a time-out: TIME-OUT HOME/AWAY; the clock: START / STOP;
- a shoot-out shot: the number, then GOAL (scored) or PENALTY (missed) of the shooting side;
- the final whistle: hold NEXT (ends the period now).

Presses of one action are :data:`STEP_S` apart, more than a press's length plus the debounce,
so each is one clean press; the script ends with a ``wait`` at the match's end so the table
plays the match out before it exits.
"""

from __future__ import annotations

from courtside.demo.officials import Action, Plan
from rules.ruleset import Ruleset

STEP_S = 0.3  # between two presses of one action
HOLD_S = 1.0  # the default button map's hold time (firmware/buttons.toml [timing] hold)
LOAD_S = 0.5  # NEXT that loads the court's next match, before the officials' first press
END_WAIT_S = 2.0  # after the engine's end, so the final horn and the result are in the journal


def _at(seconds: float) -> str:
    return f"{seconds:.2f}".rstrip("0").rstrip(".")


def _lines_for(action: Action, ruleset: Ruleset, start: float) -> list[tuple[float, str]]:
    at = start + action.at_ms / 1000
    side = action.side or "home"
    typed = [(at, f"type {action.player}")] if action.player else []
    if action.kind == "start":
        return [(at, "press clock_start")]
    if action.kind == "stop":
        return [(at, "press clock_stop")]
    if action.kind == "end":
        # Hold NEXT ends the period now: the hold fires HOLD_S after the pin goes down.
        return [(at - HOLD_S, "hold next"), (at + STEP_S, "release next")]
    if action.kind == "timeout":
        return [(at, f"press timeout_{side}")]
    if action.kind == "goal":
        return [*typed, (at + STEP_S, f"press goal_{side}")]
    if action.kind == "shot":
        button = "goal" if action.scored else "penalty"
        return [*typed, (at + STEP_S, f"press {button}_{side}")]
    # A penalty: the kind is chosen by cycling with MODE from the ruleset's first kind.
    kinds = list(ruleset.penalties.kinds)
    assert action.penalty is not None
    lines = [*typed, (at + STEP_S, f"press penalty_{side}")]
    t = at + STEP_S
    for _ in range(kinds.index(action.penalty)):
        t += STEP_S
        lines.append((t, "press mode"))
    t += STEP_S
    lines.append((t, "press next"))
    if ruleset.penalties.kinds[action.penalty].minimum:
        t += STEP_S
        lines.append((t, "press next"))  # keep the minimum length
    return lines


def press_script(plan: Plan, ruleset: Ruleset, *, title: str = "", load: bool = True,
                 offset: float = 0.0, end_wait_s: float = END_WAIT_S) -> tuple[str, float]:
    """The script text and its last instant. ``load``: first press NEXT to load the court's next
    scheduled match (a fresh table has loaded its first one already); ``offset``: the table's
    session second the script starts at (a restarted table goes on from where it was);
    ``end_wait_s``: how long the table runs on after the match's end before the script ends."""
    start = offset + (LOAD_S + STEP_S if load else 0.0)
    out = [f"# {title}\n" if title else "", "# simulated table officials (courtside demo --autoplay)\n"]
    if load:
        out.append(f"{_at(offset + LOAD_S)} press next\n")
    last = 0.0
    for action in plan.actions:
        for at, text in _lines_for(action, ruleset, start):
            at = max(at, last)  # instants never go back (a press's steps may reach the next action)
            out.append(f"{_at(at)} {text}\n")
            last = at
    end = round(max(start + plan.end_ms / 1000 + end_wait_s, last), 2)
    out.append(f"{_at(end)} wait\n")
    return "".join(out), end

"""An officials' plan written as a press script: the buttons and keypad a real table official uses.

The table reads it with ``courtside table --script FILE`` through the mock pins (docs/press-scripts.md,
firmware/script.py). The table official's conventions (firmware/actions.py) decide the presses:

- a goal: the scorer's number on the keypad, then GOAL HOME/AWAY;
- a penalty: the number, PENALTY HOME/AWAY (the ruleset's first kind), MODE once per further
  kind, NEXT to confirm, and NEXT again to keep a minimum length (indoor hockey's yellow);
- a time-out: TIME-OUT HOME/AWAY; the clock: START / STOP;
- a shoot-out shot: the number, then GOAL (scored) or PENALTY (missed) of the shooting side;
- the final whistle: hold NEXT (ends the period now).

Presses are :func:`step_for` apart (the officials' plan leaves that room between actions), so
each is one clean press even at a high speed; the script ends with a ``wait`` after the match's
end so the table plays the match out before it exits.
"""

from __future__ import annotations

from courtside.demo.officials import HOLD_S, STEP_S, Plan, layout
from rules import Ruleset

REAL_STEP_S = 0.1  # real seconds the table gets between two presses, whatever the speed (a busy machine lags)
LOAD_S = 0.5  # NEXT that loads the court's next match, before the officials' first press
END_WAIT_S = 2.0  # after the engine's end, so the final horn and the result are in the journal


def step_for(speed: float) -> float:
    """Table seconds between presses at ``speed``: at 200 times real time, 1.3 s of table time is
    6.5 ms, less than the table's loop needs to journal (fsync) a press before the next one comes;
    and a button with a hold action acts only when released, so two presses must not overlap."""
    return max(STEP_S, REAL_STEP_S * speed)


def _at(seconds: float) -> str:
    return f"{seconds:.2f}".rstrip("0").rstrip(".")


def press_script(plan: Plan, ruleset: Ruleset, *, title: str = "", load: bool = True,
                 offset: float = 0.0, end_wait_s: float = END_WAIT_S, load_wait_s: float = 0.0) -> tuple[str, float]:
    """The script text and its last instant. ``load``: first press NEXT to load the court's next
    scheduled match (a fresh table has loaded its first one already); ``offset``: the table's
    session second the script starts at (a restarted table goes on from where it was);
    ``end_wait_s``: how long the table runs on after the match's end before the script ends;
    ``load_wait_s``: at least this long between loading the match and the first press."""
    step = plan.step_ms / 1000
    # NEXT acts when released or, at speed, when the table next looks (after the hold time): the
    # match is loaded by then, and its instant 0 is about there.
    start = offset + (LOAD_S + max(HOLD_S + step, load_wait_s) if load else 0.0)
    out = [f"# {title}\n" if title else "", "# simulated table officials (courtside demo --autoplay)\n"]
    if load:
        out.append(f"{_at(offset + LOAD_S)} press next\n")
    lines = sorted(
        ((start + action.at_ms / 1000 + off, n, text) for n, action in enumerate(plan.actions)
         for off, text in layout(action, ruleset, step)),
    )
    out += [f"{_at(at)} {text}\n" for at, _, text in lines]
    end = round(max(start + plan.end_ms / 1000 + end_wait_s, lines[-1][0] if lines else 0.0), 2)
    out.append(f"{_at(end)} wait\n")
    return "".join(out), end

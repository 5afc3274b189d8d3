"""An officials' plan written as a press script: the buttons and keypad a real table official uses.

The table reads it with ``courtside table --script FILE`` through the mock pins (docs/press-scripts.md,
firmware/script.py). The desk's conventions (firmware/actions.py) decide the presses:

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

from typing import TYPE_CHECKING

from rules.ruleset import Ruleset

if TYPE_CHECKING:  # officials builds plans with this module's layout; only the types are needed here
    from courtside.demo.officials import Action, Plan

STEP_S = 1.3  # table seconds between two presses: more than a hold (1 s), so a press never looks like one
HOLD_S = 1.0  # the default button map's hold time (firmware/buttons.toml [timing] hold)
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


def layout(action: Action, ruleset: Ruleset, step: float) -> list[tuple[float, str]]:
    """The lines of one action, as (seconds relative to the instant of its event, line); the event
    happens at offset 0: the confirming press (a button acts at the instant it went down)."""
    side = action.side or "home"
    typed = [(-step, f"type {action.player}")] if action.player else []
    if action.kind == "start":
        return [(0.0, "press clock_start")]
    if action.kind == "stop":
        return [(0.0, "press clock_stop")]
    if action.kind == "timeout":
        return [(0.0, f"press timeout_{side}")]
    if action.kind == "end":
        # Hold NEXT ends the period now: the hold fires HOLD_S after the pin goes down.
        return [(-HOLD_S, "hold next"), (step, "release next")]
    if action.kind in ("goal", "shot"):
        button = "goal" if action.kind == "goal" or action.scored else "penalty"
        return [*typed, (0.0, f"press {button}_{side}")]
    # A penalty: PENALTY (the ruleset's first kind), MODE once per further kind, NEXT to confirm,
    # NEXT again to keep a minimum length; the number typed first.
    assert action.penalty is not None
    kinds = list(ruleset.penalties.kinds)
    presses = [f"press penalty_{side}"] + ["press mode"] * kinds.index(action.penalty) + ["press next"]
    if ruleset.penalties.kinds[action.penalty].minimum:
        presses.append("press next")
    lines = [(-(len(presses) - 1 - n) * step, text) for n, text in enumerate(presses)]
    return [(lines[0][0] - step, f"type {action.player}"), *lines] if action.player else lines


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

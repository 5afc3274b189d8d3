"""An officials' plan written as a press script: the buttons and keypad a real table official uses.

The table reads it with ``courtside table --script FILE`` through the mock pins (docs/press-scripts.md,
firmware/script.py). The table official's conventions (firmware/actions.py) decide the presses:

- a goal: the scorer's number on the keypad, then GOAL HOME/AWAY;
- a penalty: the number, PENALTY HOME/AWAY (the ruleset's first kind), MODE once per further
  kind, NEXT to confirm, and NEXT again to keep a minimum length (indoor hockey's yellow);
- a time-out: TIME-OUT HOME/AWAY; the clock: START / STOP;
- a shoot-out shot: the number, then GOAL (scored) or PENALTY (missed) of the shooting side;
- the final whistle: hold NEXT (ends the period now).

Presses are the plan's step apart (1.3 s of the table's time, more than a hold), at every
``--speed``: a scripted table's clock never runs past a line it has not played
(:class:`firmware.clock.TableClock`), so the same seed is the same day at any speed. The script
ends with a ``wait`` after the match's end so the table plays the match out before it exits.
"""

from __future__ import annotations

from pathlib import Path

from courtside.demo.officials import HOLD_S, Plan, layout
from rules import Match, Ruleset, StageKind

LOAD_S = 0.5  # NEXT that loads the court's next match, before the officials' first press
END_WAIT_S = 2.0  # after the engine's end, so the final horn and the result are in the journal


def live_moment(plan: Plan, ruleset: Ruleset, stage: StageKind = "round_robin", round: str | None = None
                ) -> int | None:
    """An instant (ms of the match) with the clock running and a penalty on the board: half a step after
    the clock is restarted following a penalty, between two presses; None when the plan has none. A cue
    there (``wait FILE``) holds the match live for a look."""
    events = plan.events()
    for n, action in enumerate(plan.actions):
        if action.kind != "start" or not any(a.kind == "penalty" for a in plan.actions[:n]):
            continue
        moment = action.at_ms + plan.step_ms // 2
        match = Match(ruleset, stage=stage, round=round)
        for event in events[:n + 1]:
            match.apply(event)
        state = match.state_at(moment)
        if state.running and state.penalties and (n + 1 == len(events) or events[n + 1].at > moment):
            return moment
    return None


def _at(seconds: float) -> str:
    return f"{seconds:.2f}".rstrip("0").rstrip(".")


def press_script(plan: Plan, ruleset: Ruleset, *, title: str = "", load: bool = True, offset: float = 0.0,
                 end_wait_s: float = END_WAIT_S, cue: tuple[int, Path] | None = None) -> tuple[str, float]:
    """The script text and its last instant. ``load``: first press NEXT to load the court's next
    scheduled match (a fresh table has loaded its first one already); ``offset``: the table's
    session second the script starts at (a restarted table goes on from where it was);
    ``end_wait_s``: how long the table runs on after the match's end before the script ends;
    ``cue``: (an instant of the plan, a file): the table stands there until the file exists."""
    step = plan.step_ms / 1000
    # NEXT acts when released (it has a hold action): the match is loaded by the first press.
    start = offset + (LOAD_S + HOLD_S + step if load else 0.0)
    out = [f"# {title}\n" if title else "", "# simulated table officials (courtside demo --autoplay)\n"]
    if load:
        out.append(f"{_at(offset + LOAD_S)} press next\n")
    lines = sorted(
        ((start + action.at_ms / 1000 + off, n, text) for n, action in enumerate(plan.actions)
         for off, text in layout(action, ruleset, step)),
    )
    if cue is not None:
        lines = sorted([*lines, (start + cue[0] / 1000, len(plan.actions), f"wait {cue[1]}")])
    out += [f"{_at(at)} {text}\n" for at, _, text in lines]
    end = round(max(start + plan.end_ms / 1000 + end_wait_s, lines[-1][0] if lines else 0.0), 2)
    out.append(f"{_at(end)} wait\n")
    return "".join(out), end

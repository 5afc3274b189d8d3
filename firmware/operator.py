"""The official's view made from the table's state: what is being typed, what the buttons do now, the last
events as entered, the link and the journal (display.operator.OperatorView), and the keys and holds to learn.

Built by the loop after each change (never in a library's thread); every sentence is the table's words
(firmware.words) or the match's (rules.words), in the tournament's language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from display.operator import Feedback, OperatorView
from display.view import Link, Notice
from firmware.actions import Entry, undo_target
from firmware.buttonmap import ButtonMap
from firmware.session import MatchSession
from firmware.words import english, table_text
from rules import MatchState, Translate, clock_text, penalty_text, period_name
from rules.words.entered import entered_text

SHOWN = 6  # events listed, newest first: enough to find a wrong press of the last minute
HELP_OFF = "hide this help"


def key_lines(button_map: ButtonMap) -> tuple[str, ...]:
    """Every button's press and hold (with how long to hold), then the keyboard's keys."""
    return (*button_lines(button_map), *help_lines(button_map.keys))


def button_lines(button_map: ButtonMap) -> tuple[str, ...]:
    """Every button's press and hold, with how long to hold: "NEXT; hold 1 s: end period"."""
    lines = []
    for b in button_map.buttons:
        name = b.name.upper().replace("_", " ")
        # A button named for what it does says it once: "NEXT; hold 1 s: end period".
        line = name if _said(b.press) == name.lower() else f"{name}: {_said(b.press)}"
        hold = button_map.hold_time(b)
        if b.hold is not None and hold is not None:
            line += f"; hold {hold:g} s: {_said(b.hold)}"
        lines.append(line)
    return tuple(lines)


def help_lines(keys: Mapping[str, str]) -> tuple[str, ...]:
    """The keyboard's keys, one line per action (F11 or ? shows and hides them on the screen)."""
    by_action: dict[str, list[str]] = {}
    for key, action in keys.items():
        by_action.setdefault(action, []).append(key.upper() if len(key) <= 3 else key.capitalize())
    lines = [f"{' / '.join(names)}: {_said(action)}" for action, names in by_action.items()]
    return (*lines, "digits: player number", "Backspace: delete, Escape: cancel", f"F11 or ?: {HELP_OFF}")


def _said(action: str) -> str:
    return action.replace("_", " ")


def next_press(state: MatchState, _: Translate = english) -> str:
    """What the buttons do now, when nothing is being typed."""
    if state.phase == "shootout":
        team = state.shootout.next_team if state.shootout is not None else None
        return table_text("next_shootout", _, team=team) if team is not None else table_text("next_shot", _)
    if state.timeout is not None:
        key = "next_timeout"
    elif state.phase == "play" and state.set_piece is not None:
        key = "next_set_piece"
    elif state.phase == "play":
        key = "next_running" if state.running else "next_stopped"
    else:
        key = f"next_{state.phase}"
    return table_text(key, _)


def link_text(link: Link | None, _: Translate = english) -> tuple[str, bool]:
    if link is None:
        return table_text("link_none", _), True
    if not link.online:
        return table_text("link_offline", _, count=link.waiting), False
    if link.waiting:
        return table_text("link_waiting", _, count=link.waiting), True
    return table_text("link_sent", _), True


def feedback_of(notices: Sequence[Notice], _: Translate = english) -> Feedback | None:
    if not notices:
        return None
    n = notices[-1]
    if n.kind == "refused":
        return Feedback("refused", table_text("refused", _, reason=n.text))
    return Feedback("recovered" if n.kind == "recovered" else "done", n.text)


def operator_view(session: MatchSession, state: MatchState, entry: Entry, notices: Sequence[Notice],
                  link: Link | None, keys: tuple[tuple[str, ...], tuple[str, ...]], *, court: str, pressed: bool,
                  _: Translate = english) -> OperatorView:
    """The view at ``state`` (the match's state now); ``keys``: the buttons' lines and all the keys' lines
    (:func:`button_lines`, :func:`key_lines`); ``pressed``: a button or key was pressed since the start, so the
    first minute's hint is gone."""
    m, match = session.scheduled, session.match
    teams = f"{m.home} v {m.away}"
    entered = tuple(entered_text(match, e, _) for e in reversed(match.events[-SHOWN:]))
    target = undo_target(match)
    link_line, link_ok = link_text(link, _)
    board = board_text(session, state, _)
    return OperatorView(
        court=court, match=f"{m.match} · {teams}", board=board,
        penalties=tuple(penalty_text(p, match.ruleset, _) for p in state.penalties), entering=entry.prompt(match, _),
        next_press=next_press(state, _), feedback=feedback_of(notices, _), entered=entered,
        undo=table_text("undo_takes", _, what=entered_text(match, target, _)) if target is not None else "",
        link=link_line, link_ok=link_ok, journal=table_text("journal", _, count=len(match.events)),
        buttons=keys[0], keys=keys[1],
        first_minute="" if pressed else table_text("first_minute", _),
    )


def board_text(session: MatchSession, state: MatchState, _: Translate = english) -> str:
    """The board as the hall sees it, on one line: "period 2 12:34 stopped · Wolves AA 2 - 1 Bears AA"."""
    m = session.scheduled
    running = _("running") if state.running else _("stopped")
    return (f"{period_name(state, session.match.ruleset, _)} {clock_text(state)} {running} · "
            f"{m.home} {state.home_goals} - {state.away_goals} {m.away}")

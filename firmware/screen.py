"""The small protocol a screen implements, and the headless one.

The loop builds a :class:`display.view.ScoreboardView` (the match state at the frame's instant plus the
table's own lines: team names, what is being typed, notices; plain data, no pygame) and hands it to a
:class:`Screen`. The pygame scoreboard (firmware/pygame_screen.py) is one; :class:`HeadlessScreen`
prints changes as lines of text (``--headless``, logs, tests).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Protocol, TextIO

from display.view import ScoreboardView
from rules import MatchState, clock_text, period_name


class Screen(Protocol):
    """What the loop needs of a screen. ``frame_interval``: seconds between frames while the clock
    moves (None: draw only when something changed). ``poll_keys`` returns ``(key name, text)`` pairs
    as pygame names them; the loop stamps and queues them."""

    frame_interval: float | None

    def draw(self, view: ScoreboardView) -> None: ...

    def poll_keys(self) -> list[tuple[str, str]]: ...

    def close(self) -> None: ...


def board_line(view: ScoreboardView, s: MatchState) -> str:
    home, away = view.home.name, view.away.name
    clock = clock_text(s)
    running = "running" if s.running else "stopped"
    return f"{period_name(s, view.ruleset)} {clock} {running} | {home} {s.home_goals} - {s.away_goals} {away}"


def not_eligible_line(view: ScoreboardView) -> str:
    """Who may not play the match (sent off earlier), in one line: the log's and the headless table's words."""
    names = {"home": view.home.name, "away": view.away.name}
    players = [f"{names[s.side]} #{s.player} ({s.label}, match {s.given_in})" for s in view.not_eligible]
    return "not eligible: " + "; ".join(players)


class HeadlessScreen:
    """Prints a line whenever what a spectator would notice changes (not every tick of the clock)."""

    frame_interval: float | None = None

    def __init__(self, out: TextIO | None = None, *, echo: Callable[[str], None] | None = None) -> None:
        self.out = out or sys.stdout
        self._last: tuple[object, ...] | None = None
        self._notices: set[tuple[str, str, float]] = set()
        self.lines: list[str] = []
        self._echo = echo

    def _print(self, text: str) -> None:
        self.lines.append(text)
        if self._echo is not None:
            self._echo(text)
        else:
            print(text, file=self.out, flush=True)

    def draw(self, view: ScoreboardView) -> None:
        s = view.state
        if s is None:
            return
        where = f"[{view.court} {view.match}]"
        key = (view.match, s.phase, s.period, s.running, s.home_goals, s.away_goals, len(s.penalties),
               s.timeout is not None, s.set_piece, view.prompt, view.link)
        if key != self._last:
            loaded = self._last is None or self._last[0] != view.match
            self._last = key
            extra = f" | {view.prompt}" if view.prompt else ""
            self._print(f"{where} {board_line(view, s)}{extra}")
            if loaded and view.not_eligible and s.phase == "pre_match":
                self._print(f"{where} {not_eligible_line(view)}")
        for n in view.notices:
            ident = (n.kind, n.text, n.until)
            if ident not in self._notices:
                self._notices.add(ident)
                self._print(f"{where} {n.kind}: {n.text}")

    def poll_keys(self) -> list[tuple[str, str]]:
        return []

    def close(self) -> None:
        pass

"""What the table shows, and the small protocol a screen implements.

The loop builds a :class:`TableView` (the match state at the frame's instant plus the
table's own lines: team names, what is being typed, notices) and hands it to a
:class:`Screen`. The pygame scoreboard (display/) is one; :class:`HeadlessScreen`
prints changes as lines of text (``--headless``, logs, tests).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal, Protocol, TextIO

from firmware.schedule import Scheduled
from rules.match.state import MatchState
from rules.ruleset import Ruleset
from rules.words.state import clock_text, period_name

NoticeKind = Literal["refused", "recovered", "info", "horn"]


@dataclass(frozen=True, kw_only=True)
class Notice:
    kind: NoticeKind
    text: str
    until: float  # session second after which it is no longer shown
    down_ms: int | None = None  # "recovered": how long the table was down, when known


@dataclass(frozen=True, kw_only=True)
class TableView:
    """One frame's worth of what the table shows."""

    state: MatchState
    ruleset: Ruleset
    match: Scheduled  # team names, stage, round, match id, court
    notices: tuple[Notice, ...] = ()
    prompt: str = ""  # what the operator is typing ("player #7", a penalty being entered)
    muted: bool = False
    next_match: Scheduled | None = None  # offered when this one is over
    link: str | None = None  # the MQTT link's mark ("offline, 3 waiting"); None without a link
    language: str | None = None
    colours: dict[str, str] = field(default_factory=dict)  # side -> colour name or #rrggbb


class Screen(Protocol):
    """What the loop needs of a screen. ``frame_interval``: seconds between frames while the clock
    moves (None: draw only when something changed). ``poll_keys`` returns ``(key name, text)`` pairs
    as pygame names them; the loop stamps and queues them."""

    frame_interval: float | None

    def draw(self, view: TableView) -> None: ...

    def poll_keys(self) -> list[tuple[str, str]]: ...

    def close(self) -> None: ...


def board_line(view: TableView) -> str:
    s = view.state
    home, away = view.match.home, view.match.away
    clock = clock_text(s)
    running = "running" if s.running else "stopped"
    return f"{period_name(s, view.ruleset)} {clock} {running} | {home} {s.home_goals} - {s.away_goals} {away}"


def not_eligible_line(match: Scheduled) -> str:
    """Who may not play ``match`` (sent off earlier), in one line: the log's and the headless table's words."""
    names = {"home": match.home, "away": match.away}
    players = [f"{names[s.side]} #{s.player} ({s.label}, match {s.given_in})" for s in match.suspended]
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

    def draw(self, view: TableView) -> None:
        s = view.state
        key = (view.match.match_id, s.phase, s.period, s.running, s.home_goals, s.away_goals, len(s.penalties),
               s.timeout is not None, s.set_piece, view.prompt, view.muted, view.link)
        if key != self._last:
            loaded = self._last is None or self._last[0] != view.match.match_id
            self._last = key
            extra = f" | {view.prompt}" if view.prompt else ""
            self._print(f"[{view.match.court} {view.match.match_id}] {board_line(view)}{extra}")
            if loaded and view.match.suspended and s.phase == "pre_match":
                self._print(f"[{view.match.court} {view.match.match_id}] {not_eligible_line(view.match)}")
        for n in view.notices:
            ident = (n.kind, n.text, n.until)
            if ident not in self._notices:
                self._notices.add(ident)
                self._print(f"[{view.match.court} {view.match.match_id}] {n.kind}: {n.text}")

    def poll_keys(self) -> list[tuple[str, str]]:
        return []

    def close(self) -> None:
        pass

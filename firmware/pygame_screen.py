"""The table's screen through pygame: display/'s scoreboard drawn from the loop's :class:`TableView`.

Full screen through KMS/DRM on a Pi without a desktop, a window elsewhere. Keys are
returned as ``(pygame key name, text typed)``; closing the window stops the table.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from firmware.screen import TableView

CLOSE = "window-close"


def help_lines(keys: Mapping[str, str]) -> tuple[str, ...]:
    """The key map for the help overlay (F11 or ? shows and hides it): one line per action."""
    by_action: dict[str, list[str]] = {}
    for key, action in keys.items():
        by_action.setdefault(action, []).append(key.upper() if len(key) <= 3 else key.capitalize())
    lines = [f"{' / '.join(names)}: {action.replace('_', ' ')}" for action, names in by_action.items()]
    return (*lines, "digits: player number", "Backspace: delete, Escape: cancel", f"F11 or ?: {HELP_OFF}")


HELP_OFF = "hide this help"


def scoreboard_view(view: TableView, help: tuple[str, ...] = (), language: str | None = None) -> Any:
    """The display's ScoreboardView for one of the loop's frames; ``language`` when the view names none."""
    from display import view as dv

    notices = tuple(
        dv.Notice(kind="recovered", text=n.text, down_ms=n.down_ms)
        if n.kind == "recovered" and n.down_ms is not None
        else dv.Notice(kind="refused" if n.kind == "refused" else "info", text=n.text)
        for n in view.notices if n.kind != "horn"
    )
    if view.prompt:
        notices = (*notices, dv.Notice(kind="info", text=view.prompt))
    between = None
    if view.next_match is not None:
        m = view.next_match
        between = dv.BetweenMatches(court=view.match.court, next_match=dv.NextMatch(
            home=m.home, away=m.away, start=m.start, round=m.round, stage=m.stage))
    not_eligible = tuple(dv.NotEligible(side=s.side, player=s.player, label=s.label, given_in=s.given_in)
                         for s in view.match.suspended)
    return dv.ScoreboardView(
        state=view.state, ruleset=view.ruleset, home=dv.TeamLook(view.match.home), away=dv.TeamLook(view.match.away),
        language=view.language or language, round=view.match.round, stage=view.match.stage, notices=notices,
        between=between, help_lines=help, not_eligible=not_eligible,
    )


class PygameScreen:
    frame_interval: float | None = 0.05
    has_speakers = True  # the HDMI screen's own: the horn may sound through them (firmware/horn.py)

    def __init__(self, keys: Mapping[str, str] | None = None, language: str | None = None) -> None:
        """``language``: the tournament file's (``courtside table --tournament``); None is English."""
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # stdout is for the final state of a script
        import pygame

        from display.scoreboard import Scoreboard
        from display.screen import open_screen

        # KMS/DRM full screen on the Pi's console, a window on a desktop; no screen at all raises
        # display.screen.ScreenError, saying what is missing (the table then runs headless).
        self.surface = open_screen(None, "courtside table")
        self.board = Scoreboard(self.surface)
        self._pygame = pygame
        self._help = help_lines(keys or {})
        self.showing_help = False
        self.language = language

    def draw(self, view: TableView) -> None:
        changed = self.board.draw(scoreboard_view(view, self._help if self.showing_help else (), self.language))
        if changed:
            self._pygame.display.update(changed)

    def poll_keys(self) -> list[tuple[str, str]]:
        pg = self._pygame
        keys = []
        for event in pg.event.get():
            if event.type == pg.QUIT:
                keys.append((CLOSE, ""))
            elif event.type == pg.KEYDOWN and (event.key == pg.K_F11 or event.unicode == "?"):
                self.showing_help = not self.showing_help  # the screen's own: the table never sees it
                self.board.invalidate()
            elif event.type == pg.KEYDOWN:
                keys.append((pg.key.name(event.key), event.unicode or ""))
            elif event.type in (pg.VIDEORESIZE, pg.WINDOWEXPOSED):
                self.board.invalidate()
        return keys

    def close(self) -> None:
        self._pygame.display.quit()

"""The table's screen through pygame: display/'s scoreboard drawn from the loop's ``ScoreboardView``.

Full screen through KMS/DRM on a Pi without a desktop, a window elsewhere. Keys are
returned as ``(pygame key name, text typed)``; closing the window stops the table.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import replace

from display.view import ScoreboardView

CLOSE = "window-close"


def help_lines(keys: Mapping[str, str]) -> tuple[str, ...]:
    """The key map for the help overlay (F11 or ? shows and hides it): one line per action."""
    by_action: dict[str, list[str]] = {}
    for key, action in keys.items():
        by_action.setdefault(action, []).append(key.upper() if len(key) <= 3 else key.capitalize())
    lines = [f"{' / '.join(names)}: {action.replace('_', ' ')}" for action, names in by_action.items()]
    return (*lines, "digits: player number", "Backspace: delete, Escape: cancel", f"F11 or ?: {HELP_OFF}")


HELP_OFF = "hide this help"


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

    def draw(self, view: ScoreboardView) -> None:
        changed = self.board.draw(replace(view, help_lines=self._help) if self.showing_help else view)
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

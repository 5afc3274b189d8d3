"""The table's screen through pygame: display/'s scoreboard drawn from the loop's ``ScoreboardView``.

Full screen through KMS/DRM on a Pi without a desktop, a window elsewhere. Keys are
returned as ``(pygame key name, text typed)``; closing the window stops the table.

The scoreboard is the hall's: the official's prompts and notices are not drawn on it. They go to the official's
own view (display.operator) where the button map's ``[operator] view`` says: ``screen`` draws it in a second window
(on the Pi's second HDMI port when it has a monitor), ``line`` as one compact line at the foot of the scoreboard.
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from display.operator import OperatorView, compact_line
from display.view import Notice, ScoreboardView
from firmware.buttonmap import ButtonMap, OperatorForm
from firmware.operator import key_lines

if TYPE_CHECKING:  # drawn only with view = "screen": pygame's screen modules load when the screen opens
    from display.operator_screen import OperatorScreen

CLOSE = "window-close"
OPERATOR_SIZE = (1024, 600)  # a 7-inch HDMI monitor's; a window elsewhere


class PygameScreen:
    frame_interval: float | None = 0.05
    has_speakers = True  # the HDMI screen's own: the horn may sound through them (firmware/horn.py)
    shows_operator = True  # it takes the official's view too (``show``): the loop hands it over

    def __init__(self, button_map: ButtonMap, language: str | None = None) -> None:
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
        self.form: OperatorForm = button_map.operator.view
        self._help = key_lines(button_map)
        self.showing_help = False
        self.language = language
        self._operator: OperatorView | None = None
        self.operator_window: Any = None  # pygame.Window, with the screen drawn on it
        self._operator_screen: OperatorScreen | None = None
        if self.form == "screen":
            from display.operator_screen import OperatorScreen

            self.operator_window = self._operator_window()
            self._operator_screen = OperatorScreen(self.operator_window.get_surface())

    def _operator_window(self) -> Any:
        """The official's window: full screen on the second display when there is one (a Pi 4 or 5 with a monitor
        on its second HDMI port), else a window of its own."""
        pg = self._pygame
        if pg.display.get_num_displays() > 1:
            first = pg.display.get_desktop_sizes()[0]
            window = pg.Window("courtside · official", size=pg.display.get_desktop_sizes()[1], position=(first[0], 0))
            window.set_fullscreen(desktop=True)
            return window
        return pg.Window("courtside · official", size=OPERATOR_SIZE)

    def show(self, view: OperatorView) -> None:
        """The official's view (the loop's operator sink), drawn with the next frame: the hall's screen first."""
        self._operator = view

    def venue(self, view: ScoreboardView) -> ScoreboardView:
        """What the hall is shown of ``view``: no prompt and no notice, or (``line``) one compact line."""
        line = compact_line(self._operator) if self.form == "line" and self._operator is not None else ""
        return replace(view, prompt="", notices=(Notice("operator", line),) if line else ())

    def draw(self, view: ScoreboardView) -> None:
        shown = self.venue(view)
        if self.showing_help:
            shown = replace(shown, help_lines=self._help)
        changed = self.board.draw(shown)
        if changed:
            self._pygame.display.update(changed)
        if self._operator_screen is not None and self._operator is not None \
                and self._operator_screen.draw(self._operator):
            self.operator_window.flip()

    def poll_keys(self) -> list[tuple[str, str]]:
        pg = self._pygame
        keys = []
        for event in pg.event.get():
            if event.type == pg.QUIT:
                keys.append((CLOSE, ""))
            elif event.type == pg.KEYDOWN and (event.key == pg.K_F11 or event.unicode == "?"):
                # The screen's own (the table never sees it): on the scoreboard only where it is the only screen;
                # the official's own view lists the keys and holds all the time.
                self.showing_help = self.form in ("line", "none") and not self.showing_help
                self.board.invalidate()
                keys.append(("f11", ""))  # a press all the same: the first minute's hint is gone
            elif event.type == pg.KEYDOWN:
                keys.append((pg.key.name(event.key), event.unicode or ""))
            elif event.type in (pg.VIDEORESIZE, pg.WINDOWEXPOSED):
                self.board.invalidate()
        return keys

    def close(self) -> None:
        if self.operator_window is not None:
            self.operator_window.destroy()
        self._pygame.display.quit()

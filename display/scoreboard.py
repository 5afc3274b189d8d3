"""The scoreboard: each frame, repaint only the parts whose values changed and say which areas.

``Scoreboard(surface).draw(view)`` returns the rectangles it changed; on a real screen the
caller passes them to ``pygame.display.update``. A new mode (play -> interval), a new size
or a new theme repaints everything; otherwise a frame where only the clock moved repaints
only the clock's box, from glyphs rendered once.
"""

from __future__ import annotations

from gettext import NullTranslations

import pygame

from display.content import Frame, frame_of
from display.layout import layout
from display.parts import OPAQUE, PARTS, Painter
from display.text import Typesetter
from display.theme import Theme, load_theme
from display.view import ScoreboardView
from rules import words_for


def mode_of(frame: Frame) -> str:
    if frame.help_lines:
        return "help"
    if frame.mode == "play" and (frame.home_not_eligible or frame.away_not_eligible):
        return "pre_match"
    return "play_possession" if frame.mode == "play" and frame.possession_label else frame.mode


class Scoreboard:
    """Draws :class:`~display.view.ScoreboardView` frames onto ``surface`` (the screen or any Surface)."""

    def __init__(self, surface: pygame.Surface, theme: Theme | None = None) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self.surface = surface
        self.theme = theme or load_theme()
        self.type = Typesetter({"bold": self.theme.bold_font, "condensed": self.theme.condensed_font},
                               like=surface)
        self.painter = Painter(self.type, self.theme)
        self._mode: tuple[str, tuple[int, int]] | None = None
        self._rects: dict[str, pygame.Rect] = {}
        self._shown: dict[str, object] = {}
        self._words: dict[str | None, NullTranslations] = {}
        self.frame: Frame | None = None  # the last frame drawn (tests and the follower read it)

    def words(self, language: str | None) -> NullTranslations:
        found = self._words.get(language)
        if found is None:
            found = self._words[language] = words_for(language)
        return found

    def invalidate(self) -> None:
        """Repaint everything on the next frame (after the window was exposed or resized)."""
        self._mode = None

    def draw(self, view: ScoreboardView) -> list[pygame.Rect]:
        """Paint the frame for ``view``; return the areas that changed (empty when nothing did)."""
        frame = frame_of(view, self.words(view.language))
        self.frame = frame
        return self.draw_frame(frame)

    def draw_frame(self, frame: Frame) -> list[pygame.Rect]:
        size = self.surface.get_size()
        mode = (mode_of(frame), size)
        full = mode != self._mode
        if full:
            self._mode = mode
            self._rects = layout(mode[0], size)
            self._shown = {}
            self.surface.fill(self.theme["background"])
            w, h = size
            self.surface.fill(self.theme["panel"], pygame.Rect(0, 0, w, round(h * 0.105)))
        dirty: list[pygame.Rect] = []
        for name, rect in self._rects.items():
            value_of, paint = PARTS[name]
            value = value_of(frame)
            if not full and self._shown.get(name, _UNSET) == value:
                continue
            self._shown[name] = value
            bg = self.painter.background(name, frame)
            if name not in OPAQUE:
                self.surface.fill(bg, rect)
            clip = self.surface.get_clip()
            self.surface.set_clip(rect)  # a painter never spills into its neighbours
            paint(self.painter, self.surface, rect, frame, bg)
            self.surface.set_clip(clip)
            dirty.append(rect)
        if full:
            if self.theme.logo is not None and mode[0] == "between":
                self._paint_logo()
            return [self.surface.get_rect()]
        return dirty

    def _paint_logo(self) -> None:
        """The organiser's logo, top right of the between-matches screen (where no part is drawn)."""
        assert self.theme.logo is not None
        w, h = self.surface.get_size()
        logo = pygame.image.load(str(self.theme.logo))
        scale = min(w * 0.2 / logo.get_width(), h * 0.09 / logo.get_height())
        logo = pygame.transform.smoothscale(logo, (int(logo.get_width() * scale), int(logo.get_height() * scale)))
        self.surface.blit(logo, (w - logo.get_width() - w // 100, (round(h * 0.105) - logo.get_height()) // 2))


_UNSET = object()

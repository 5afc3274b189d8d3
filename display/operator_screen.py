"""The official's own screen: :class:`display.operator.OperatorView` drawn on a small monitor at the table (the
Pi's second HDMI port), or on any surface (a screenshot, a test).

Read at arm's length, not across a hall: what the next press does in large amber type, the last thing the table
did (green) or refused (red), then the events as entered, the link and the journal; the buttons' presses and holds
down the right. The view is laid out as lines; a frame draws again only the lines that changed (the clock's
second changes one or two), so the table's frame stays short.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from display.operator import OperatorView
from display.text import Typesetter, blit_text
from display.theme import Colour, Theme, load_theme

FEEDBACK = {"done": "scored", "refused": "missed", "recovered": "recovered"}  # theme colours


@dataclass(frozen=True)
class Line:
    box: tuple[int, int, int, int]  # x, y, width, height
    text: str
    colour: str  # the theme's name
    face: str
    background: str  # the theme's name: what the box is filled with before the text
    inset: int = 0  # the text's margin inside a filled box


class OperatorScreen:
    def __init__(self, surface: pygame.Surface, theme: Theme | None = None) -> None:
        self.surface = surface
        self.theme = theme or load_theme()
        self.type = Typesetter({"bold": self.theme.bold_font, "condensed": self.theme.condensed_font}, like=surface)
        self._shown: tuple[OperatorView, tuple[int, int]] | None = None
        self._lines: list[Line] = []

    def draw(self, view: OperatorView) -> bool:
        """Draw ``view``; False when it is what the screen already shows."""
        size = self.surface.get_size()
        if self._shown == (view, size):
            return False
        whole = self._shown is None or self._shown[1] != size
        self._shown = (view, size)
        lines = layout(view, size)
        if whole:
            self.surface.fill(self.theme["background"])
            self.surface.fill(self.theme["panel"], keys_panel(size))
            changed = lines
        else:
            kept = set(self._lines)
            changed = [line for line in lines if line not in kept]
            gone = {line.box for line in self._lines} - {line.box for line in lines}
            for box in gone:  # a line that is no more (a penalty ended): its place emptied
                self.surface.fill(self.theme[_background_at(self._lines, box)], pygame.Rect(box))
        for line in changed:
            paint(self.type, self.theme, self.surface, line)
        self._lines = lines
        return True


def _background_at(lines: list[Line], box: tuple[int, int, int, int]) -> str:
    return next(line.background for line in lines if line.box == box)


def keys_panel(size: tuple[int, int]) -> pygame.Rect:
    """The buttons' presses and holds: the right of the screen, under the board's line, above the link's."""
    w, h = size
    line = h // 18
    return pygame.Rect(w * 62 // 100, line * 5 // 2, w * 36 // 100, h - line * 2 - line * 5 // 2 - line // 3)


def layout(view: OperatorView, size: tuple[int, int]) -> list[Line]:
    """The view as lines in their boxes: the same view gives the same lines, so a frame redraws what changed.
    Every row is always there, empty or not, so nothing below a row moves when it fills."""
    w, h = size
    line = h // 18
    margin = w // 40
    column = w * 60 // 100 - margin  # the left column's width, beside the keys
    out: list[Line] = []
    y = 0

    def row(text: str, colour: str, height: int, face: str = "condensed", width: int = column) -> None:
        nonlocal y
        out.append(Line((margin, y, width, height), text, colour, face, "background"))
        y += height

    out.append(Line((0, 0, w, line), f"{view.court} · {view.match}", "dim", "bold", "panel", inset=margin))
    y = line
    row(view.board, "text", line * 3 // 2, face="bold", width=w - 2 * margin)
    for i in range(3):
        row(view.penalties[i] if i < len(view.penalties) else "", "countdown", line)
    feedback = view.feedback
    row(feedback.text if feedback else "", FEEDBACK[feedback.kind] if feedback else "dim", line * 3 // 2)
    halves = _halves(view.entering or view.next_press)
    for i in range(2):  # what the next press does: the largest words of the column
        row(halves[i] if i < len(halves) else "", "countdown", line * 3 // 2)
    row(view.undo, "dim", line)
    for i in range(5):
        row(view.entered[i] if i < len(view.entered) else "", "text", line)
    y = h - line * 2
    row(view.link, "scored" if view.link_ok else "offline", line, face="bold", width=w - 2 * margin)
    row(view.journal + (f" · {view.first_minute}" if view.first_minute else ""), "dim", line, face="bold",
        width=w - 2 * margin)
    keys = keys_panel(size)
    key_h = max(1, min(line, keys.height // max(1, len(view.buttons))))
    for i, text in enumerate(view.buttons):  # the table's buttons: the keyboard's keys are on F11 and the page
        out.append(Line((keys.left, keys.top + i * key_h, keys.width, key_h), text, "dim", "condensed", "panel",
                        inset=key_h // 3))
    return out


def paint(type_: Typesetter, theme: Theme, s: pygame.Surface, line: Line) -> None:
    box = pygame.Rect(line.box)
    bg: Colour = theme[line.background]
    s.fill(bg, box)
    if line.text:
        text_box = box.inflate(-2 * line.inset, 0)
        px = min(type_.fit(line.face, line.text, text_box.width, int(box.height * 0.8)), int(box.height * 0.62))
        blit_text(s, type_.text(line.face, px, line.text, theme[line.colour], bg), text_box, "left")


def _halves(text: str) -> list[str]:
    """A long sentence on two lines, cut where it says its next part (" - ", "; "), so each stays large."""
    if len(text) <= 40:
        return [text]
    for cut in (" - ", "; ", ": "):
        if cut in text:
            first, rest = text.split(cut, 1)
            return [first + cut.rstrip(), rest]
    return [text]

"""The official's own screen: :class:`display.operator.OperatorView` drawn on a small monitor at the table (the
Pi's second HDMI port), or on any surface (a screenshot, a test).

Read at arm's length, not across a hall: what the next press does in large amber type, the last thing the table
did (green) or refused (red), then the events as entered, the link and the journal; the keys and holds down the
right. Drawn again only when the view changed.
"""

from __future__ import annotations

import pygame

from display.operator import OperatorView
from display.text import Typesetter, blit_text
from display.theme import Colour, Theme, load_theme

FEEDBACK = {"done": "scored", "refused": "missed", "recovered": "recovered", "info": "dim"}  # theme colours


class OperatorScreen:
    def __init__(self, surface: pygame.Surface, theme: Theme | None = None) -> None:
        self.surface = surface
        self.theme = theme or load_theme()
        self.type = Typesetter({"bold": self.theme.bold_font, "condensed": self.theme.condensed_font}, like=surface)
        self._shown: tuple[OperatorView, tuple[int, int]] | None = None

    def draw(self, view: OperatorView) -> bool:
        """Draw ``view``; False when it is what the screen already shows."""
        size = self.surface.get_size()
        if self._shown == (view, size):
            return False
        self._shown = (view, size)
        paint(self.type, self.theme, self.surface, view)
        return True


def paint(type_: Typesetter, theme: Theme, s: pygame.Surface, view: OperatorView) -> None:
    bg = theme["background"]
    s.fill(bg)
    w, h = s.get_size()
    line = h // 18
    margin = w // 40
    y = 0

    def row(text: str, colour: Colour, height: int, face: str = "bold", fill: Colour | None = None,
            width: int = w - 2 * margin) -> None:
        nonlocal y
        box = pygame.Rect(margin, y, width, height)
        if fill is not None:
            s.fill(fill, pygame.Rect(0, y, w, height))
        if text:
            px = min(type_.fit(face, text, box.width, int(height * 0.8)), int(height * 0.62))
            blit_text(s, type_.text(face, px, text, colour, fill or bg), box, "left")
        y += height

    row(f"{view.court} · {view.match}", theme["dim"], line, fill=theme["panel"])
    row(view.board, theme["text"], line * 3 // 2, face="condensed")
    for text in view.penalties[:3]:
        row(text, theme["countdown"], line, face="condensed")
    if view.feedback is not None:
        row(view.feedback.text, theme[FEEDBACK[view.feedback.kind]], line * 3 // 2, face="condensed")
    else:
        y += line * 3 // 2
    for part in _halves(view.entering or view.next_press):  # what the next press does: the largest words
        row(part, theme["countdown"], line * 3 // 2, face="condensed")
    row(view.undo, theme["dim"], line, face="condensed")
    top = y + line // 2
    y = top
    left = w * 50 // 100
    for text in view.entered:
        row(text, theme["text"], line, face="condensed", width=left - margin)
    y = h - line * 2
    row(view.link, theme["scored"] if view.link_ok else theme["offline"], line)
    row(view.journal + (f" · {view.first_minute}" if view.first_minute else ""), theme["dim"], line)
    keys = pygame.Rect(left + margin, top, w - left - 2 * margin, h - line * 2 - top - line // 2)
    s.fill(theme["panel"], keys)
    key_h = max(1, min(line, keys.height // max(1, len(view.buttons))))
    for i, text in enumerate(view.buttons):  # the table's buttons: the keyboard's keys are on F11 and the page
        box = pygame.Rect(keys.left + key_h // 3, keys.top + i * key_h, keys.width - key_h // 2, key_h)
        px = min(type_.fit("condensed", text, box.width, int(key_h * 0.85)), int(key_h * 0.7))
        blit_text(s, type_.text("condensed", px, text, theme["dim"], theme["panel"]), box, "left")


def _halves(text: str) -> list[str]:
    """A long sentence on two lines, cut where it says its next part (" - ", "; "), so each stays large."""
    if len(text) <= 40:
        return [text]
    for cut in (" - ", "; ", ": "):
        if cut in text:
            first, rest = text.split(cut, 1)
            return [first + cut.rstrip(), rest]
    return [text]

"""The class's top scorers between matches: one more page after the pool tables.

Drawn as one wide list (place, player, team, goals), as many rows as the list holds (at most ten: the service
sends the top of the list, rules.published_scorers), in type as large as the area allows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from display.text import Typesetter, blit_text
from display.theme import Colour, Theme

if TYPE_CHECKING:
    from display.content import Frame

COLUMNS = (0.08, 0.47, 0.33, 0.12)  # place, player, team, goals


def paint_scorers(type_: Typesetter, theme: Theme, s: pygame.Surface, r: pygame.Rect, f: Frame, bg: Colour) -> None:
    rows = f.scorers
    row_h = min(r.height // (len(rows) + 2), r.height // 7)
    title = pygame.Rect(r.left, r.top, r.width, row_h)
    px = type_.fit("bold", f.scorers_title, r.width, int(row_h * 0.7))
    blit_text(s, type_.text("bold", px, f.scorers_title, theme["countdown"], bg), title, "left")
    heads = pygame.Rect(r.left, r.top + row_h, r.width, row_h)
    for j, (cell, text) in enumerate(zip(_cells(heads), ("", *f.scorers_heads), strict=True)):
        if text:
            size = type_.fit("bold", text, cell.width, int(row_h * 0.45))
            blit_text(s, type_.text("bold", size, text, theme["dim"], bg), cell.inflate(-row_h // 6, 0),
                      "right" if j == 3 else "left")
    body = int(row_h * 0.62)
    for i, row in enumerate(rows):
        line = pygame.Rect(r.left, r.top + row_h * (i + 2), r.width, row_h - 2)
        shade = theme["panel"] if i % 2 == 0 else bg
        s.fill(shade, line)
        for j, (cell, text) in enumerate(zip(_cells(line), row, strict=True)):
            face = "condensed" if j in (1, 2) else "bold"
            inner = cell.inflate(-row_h // 6, 0)
            size = min(type_.fit(face, text, inner.width, body), int(body / 1.17))
            colour = theme["text"] if j in (1, 3) else theme["dim"]
            blit_text(s, type_.text(face, size, text, colour, shade), inner, "right" if j in (0, 3) else "left")


def _cells(line: pygame.Rect) -> list[pygame.Rect]:
    x, out = line.left, []
    for fraction in COLUMNS:
        w = int(line.width * fraction)
        out.append(pygame.Rect(x, line.top, w, line.height))
        x += w
    return out

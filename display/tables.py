"""Pool tables between matches, a page at a time when they do not all fit the screen.

A page holds as many tables side by side as the screen's shape allows (two on a wide
screen); a pool longer than a page's rows continues on the next page. The class's top
scorers, when the service sends them, are the last page (display.scorers).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from display.scorers import paint_scorers
from display.text import Typesetter, blit_text
from display.theme import Colour, Theme
from rules import PoolTable, TableRow

if TYPE_CHECKING:
    from display.content import Frame

ROWS_PER_UNIT = 9  # the table area is nine rows high: a title, the column heads, six teams, the page line
COLUMNS = (0.07, 0.42, 0.065, 0.065, 0.065, 0.065, 0.15, 0.10)  # place, team, P, W, D, L, goals, points

Chunk = tuple[int, tuple[TableRow, ...]]  # (which table, its rows on this page)


def pages(tables: tuple[PoolTable, ...], per_page: int, rows: int) -> list[list[Chunk]]:
    """Tables cut into chunks of at most ``rows`` rows, ``per_page`` chunks a page."""
    chunks: list[Chunk] = []
    for i, t in enumerate(tables):
        for start in range(0, max(1, len(t.rows)), rows):
            chunks.append((i, t.rows[start:start + rows]))
    return [chunks[i:i + per_page] for i in range(0, len(chunks), per_page)]


def layout_of(rect: pygame.Rect) -> tuple[int, int, int]:
    """(tables side by side, rows per table, row height) for the table area ``rect``."""
    row_h = rect.height // ROWS_PER_UNIT
    side_by_side = 2 if rect.width > rect.height * 1.3 else 1
    return side_by_side, ROWS_PER_UNIT - 3, row_h


def row_height(rect: pygame.Rect, chunks: list[Chunk]) -> int:
    """Rows as tall as the page allows: short pools get bigger type (up to a third more)."""
    longest = max(len(rows) for _, rows in chunks)
    return min(rect.height // (longest + 3), rect.height * 4 // (ROWS_PER_UNIT * 3))


def paint_tables(type_: Typesetter, theme: Theme, s: pygame.Surface, r: pygame.Rect, f: Frame,
                 bg: Colour) -> None:
    """The page ``f.page`` (wrapped around) of the pool tables, and of the class's scorers after them."""
    per_page, rows, row_h = layout_of(r)
    book: list[list[Chunk] | None] = [*pages(f.tables, per_page, rows)] if f.tables else []
    if f.scorers:
        book.append(None)  # the scorers' page, the last
    if not book:
        return
    page = f.page % len(book)
    shown = book[page]
    if shown is None:
        paint_scorers(type_, theme, s, pygame.Rect(r.left, r.top, r.width, r.height - row_h * (len(book) > 1)), f, bg)
        _page_line(type_, theme, s, r, row_h, f.page_word.format(page=page + 1, pages=len(book)), bg, len(book))
        return
    line_h = row_h
    row_h = row_height(r, shown)
    gap = r.width // 40
    width = (r.width - gap * (per_page - 1)) // per_page
    for n, (index, chunk) in enumerate(shown):
        box = pygame.Rect(r.left + n * (width + gap), r.top, width, row_h * (len(chunk) + 2))
        _table(type_, theme, s, box, row_h, f.table_titles[index], f.table_heads, chunk, bg)
    _page_line(type_, theme, s, r, line_h, f.page_word.format(page=page + 1, pages=len(book)), bg, len(book))


def _page_line(type_: Typesetter, theme: Theme, s: pygame.Surface, r: pygame.Rect, line_h: int, text: str,
               bg: Colour, pages: int) -> None:
    if pages > 1:
        line = pygame.Rect(r.left, r.bottom - line_h, r.width, line_h)
        px = type_.fit("bold", text, line.width, int(line.height * 0.55))
        blit_text(s, type_.text("bold", px, text, theme["dim"], bg), line, "right")


def _cells(box: pygame.Rect, top: int, height: int) -> list[pygame.Rect]:
    x = box.left
    cells = []
    for fraction in COLUMNS:
        w = int(box.width * fraction)
        cells.append(pygame.Rect(x, top, w, height))
        x += w
    return cells


def _table(type_: Typesetter, theme: Theme, s: pygame.Surface, box: pygame.Rect, row_h: int, title: str,
           heads: tuple[str, ...], rows: tuple[TableRow, ...], bg: Colour) -> None:
    title_rect = pygame.Rect(box.left, box.top, box.width, row_h)
    px = type_.fit("bold", title, box.width, int(row_h * 0.7))
    blit_text(s, type_.text("bold", px, title, theme["countdown"], bg), title_rect, "left")
    head_top = box.top + row_h
    small = int(row_h * 0.45)
    for cell, text in zip(_cells(box, head_top, row_h), ("", "", *heads), strict=True):
        if text:
            size = type_.fit("bold", text, cell.width, small)
            blit_text(s, type_.text("bold", size, text, theme["dim"], bg), cell, "right")
    body = int(row_h * 0.62)
    team_cell = _cells(box, 0, row_h)[1].inflate(-row_h // 6, 0)
    # One size for every team of the table, unless one long name would shrink them all a lot: then it alone shrinks.
    fits = {r.team: type_.fit("condensed", r.team, team_cell.width, body) for r in rows}
    team_px = max(min([int(body / 1.17), *fits.values()]), int(body * 0.8 / 1.17))
    for i, row in enumerate(rows):
        top = head_top + row_h * (i + 1)
        shade = theme["panel"] if i % 2 == 0 else bg
        s.fill(shade, pygame.Rect(box.left, top, box.width, row_h - 2))
        values = (f"{row.rank}", row.team, str(row.played), str(row.won), str(row.drawn), str(row.lost),
                  f"{row.goals_for}:{row.goals_against}", str(row.points))
        for j, (cell, text) in enumerate(zip(_cells(box, top, row_h - 2), values, strict=True)):
            face = "condensed" if j == 1 else "bold"
            inner = cell.inflate(-row_h // 6, 0)
            if j == 1:
                size = min(team_px, fits[text])
            else:
                size = min(type_.fit(face, text, inner.width, body), int(body / 1.17))
            colour = theme["text"] if j in (1, 7) else theme["dim"]
            blit_text(s, type_.text(face, size, text, colour, shade), inner, "left" if j == 1 else "right")

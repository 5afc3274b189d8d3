"""The penalty board: a row per penalty, its badge, player number and time side by side, large.

A penalty must be read from the far stand, so each row's time is set a tenth of the screen
high (the layout gives the board three rows' worth of height). The badge, the number and the
time sit together at the team's edge of the screen, mirrored for the away side (badge
outermost, like the names), so the eye finds a player's time beside his number instead of
half the screen away. The cells' widths come from templates ("#88", "88:88"), so rows line up
and nothing moves as a time counts down.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from display.content import Frame, PenaltyLine
from display.text import Typesetter, blit_text
from display.theme import Colour, Theme

BOLD = "bold"
ROWS = 3  # more penalties than this are summed up on the last row ("+2")
CARD_COLOURS = {"green": (46, 160, 67), "yellow": (245, 200, 20), "red": (220, 40, 40)}
NUMBER_SCALE = 0.8  # the player number a little smaller than the time: the time is what the stand reads


@dataclass(frozen=True)
class RowCells:
    """Where one penalty row's parts go; ``time_px`` is the font size of the time."""

    row: pygame.Rect
    badge: pygame.Rect
    number: pygame.Rect
    time: pygame.Rect
    time_px: int
    number_px: int
    side: str

    def note(self, time_width: int) -> pygame.Rect:
        """The room left beside a time ``time_width`` wide (for the word "waiting"), on the inner side."""
        pad = self.row.height // 4
        if self.side == "home":
            left = self.time.left + time_width + pad
            return pygame.Rect(left, self.row.top, max(0, self.row.right - left), self.row.height)
        right = self.time.right - time_width - pad
        return pygame.Rect(self.row.left, self.row.top, max(0, right - self.row.left), self.row.height)


def rows_of(board: pygame.Rect) -> list[pygame.Rect]:
    """The board's rows, top down, each a little apart from the next."""
    pitch = board.height // ROWS
    gap = max(2, pitch // 16)
    return [pygame.Rect(board.left, board.top + i * pitch, board.width, pitch - gap) for i in range(ROWS)]


def cells(type_: Typesetter, row: pygame.Rect, side: str) -> RowCells:
    """Badge, number and time of one row: as tall as the row allows, narrowed only when the row is too narrow."""
    h = row.height
    badge_w = h * 7 // 5
    pad = h // 4
    time_px = type_.fit(BOLD, "88:88", row.width, h, numeric=True)
    while True:
        number_px = max(6, int(time_px * NUMBER_SCALE))
        time_w = type_.number_width(BOLD, time_px, "88:88")
        number_w = type_.number_width(BOLD, number_px, "#88")
        if badge_w + pad + number_w + pad + time_w <= row.width or time_px <= 6:
            break
        time_px -= max(1, time_px // 40)  # a narrow screen (4:3): the row's width decides
    x = row.left if side == "home" else row.right
    widths = (badge_w, number_w, time_w)
    boxes = []
    for w in widths:
        if side == "home":
            boxes.append(pygame.Rect(x, row.top, w, h))
            x += w + pad
        else:
            boxes.append(pygame.Rect(x - w, row.top, w, h))
            x -= w + pad
    return RowCells(row, boxes[0], boxes[1], boxes[2], time_px, number_px, side)


def paint_penalties(type_: Typesetter, theme: Theme, s: pygame.Surface, r: pygame.Rect, f: Frame, bg: Colour,
                    side: str) -> None:
    lines = f.home_penalties if side == "home" else f.away_penalties
    if len(lines) > ROWS:  # the rest are summed up on the last row
        lines = (*lines[: ROWS - 1], PenaltyLine("", f"+{len(lines) - ROWS + 1}", "", "", False))
    for line, row in zip(lines, rows_of(r), strict=False):
        _row(type_, theme, s, cells(type_, row, side), line, f.waiting_label, bg)


def _row(type_: Typesetter, theme: Theme, s: pygame.Surface, c: RowCells, line: PenaltyLine, waiting: str,
         bg: Colour) -> None:
    text = theme["dim"] if line.waiting else theme["text"]
    card = CARD_COLOURS.get(line.kind)
    badge_bg = card if card is not None else theme["panel"]
    s.fill(badge_bg, c.badge)
    badge_text = (20, 20, 20) if card is not None and line.kind != "red" else theme["text"]
    inner = c.badge.inflate(-c.badge.height // 5, -c.badge.height // 5)
    _line(type_, s, inner, line.code, badge_text, badge_bg, "center", 1.0)
    align = "left" if c.side == "home" else "right"
    if line.player:  # centred in its cell: a short number leaves half its slack on each side, none far off
        _number(type_, s, c.number, c.number_px, f"#{line.player}", text, bg, "center")
    time_w = 0
    if line.time:
        # The time hugs the number: left after it at home, right before it away.
        _number(type_, s, c.time, c.time_px, line.time, text, bg, align)
        time_w = type_.number_width(BOLD, c.time_px, line.time)
    if line.waiting and waiting:
        room = c.note(time_w)
        if room.width >= c.row.height:
            _line(type_, s, room, waiting, text, bg, align, 0.45)


def _number(type_: Typesetter, s: pygame.Surface, r: pygame.Rect, px: int, text: str, colour: Colour, bg: Colour,
            align: str) -> None:
    type_.draw_number(s, r, BOLD, px, text, colour, bg, align=align)


def _line(type_: Typesetter, s: pygame.Surface, r: pygame.Rect, text: str, colour: Colour, bg: Colour, align: str,
          fill: float) -> None:
    px = type_.fit(BOLD, text, r.width, int(r.height * fill))
    blit_text(s, type_.text(BOLD, px, text, colour, bg), r, align)

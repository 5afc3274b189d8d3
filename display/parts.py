"""How each part of the screen is painted from its value in the :class:`~display.content.Frame`.

Every painter draws only inside its rectangle, on the background :func:`background` gives,
so the screen can repaint one part without touching its neighbours.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame

from display.content import Frame, Shots, Team
from display.penalties import paint_penalties
from display.tables import paint_tables
from display.text import Typesetter, blit_text
from display.theme import Colour, Theme

BOLD, NARROW = "bold", "condensed"
TOP_BAR = ("top_left", "title", "top_right")
OPAQUE = frozenset({"clock", "home_score", "away_score", "countdown"})  # they paint every pixel of their box


class Painter:
    """Holds the type and theme; ``paint(name, ...)`` draws one part."""

    def __init__(self, typesetter: Typesetter, theme: Theme) -> None:
        self.type = typesetter
        self.theme = theme

    def background(self, name: str, frame: Frame) -> Colour:
        if name in TOP_BAR:
            return self.theme["panel"]
        if name == "notice" and frame.notice is not None and frame.notice[0] != "operator":
            return self.theme[frame.notice[0]]
        return self.theme["background"]

    def line(self, target: pygame.Surface, rect: pygame.Rect, text: str, colour: Colour, bg: Colour, *,
             face: str = BOLD, align: str = "center", fill: float = 1.0) -> None:
        """One line of text, as large as fits ``fill`` of the box's height and its width."""
        if not text:
            return
        px = self.type.fit(face, text, rect.width, int(rect.height * fill))
        blit_text(target, self.type.text(face, px, text, colour, bg), rect, align)

    def side_colour(self, team: Team, side: str) -> Colour:
        return team.colour if team.colour is not None else self.theme[side]


def _name(p: Painter, s: pygame.Surface, r: pygame.Rect, f: Frame, bg: Colour, side: str) -> None:
    team = f.home if side == "home" else f.away
    colour = p.theme["dim"] if f.winner is not None and f.winner != side else p.theme["text"]
    align = "left" if side == "home" else "right"
    full = int(r.height / 1.17)

    def size(t: Team) -> tuple[str, int]:
        # A long name shrinks; below 60 % of the box's size the short name reads better from afar.
        px = p.type.fit(NARROW, t.name, r.width, r.height)
        if px < full * 0.6 and t.short:
            return t.short, p.type.fit(NARROW, t.short, r.width, r.height)
        return t.name, px

    text, px = size(team)
    # Both names in one size, so neither team looks the lesser one; the smaller fit wins.
    px = min(px, size(f.away if side == "home" else f.home)[1])
    p.line(s, r, text, colour, bg, face=NARROW, align=align, fill=px * 1.17 / r.height)


def _bar(p: Painter, s: pygame.Surface, r: pygame.Rect, f: Frame, bg: Colour, side: str) -> None:
    colour = p.side_colour(f.home if side == "home" else f.away, side)
    s.fill(colour, r)
    if max(colour) < 90 or sum(colour) < 200:  # a dark colour on black: outline it so it still reads
        pygame.draw.rect(s, p.theme["dim"], r, width=max(1, r.height // 6))


def _number(p: Painter, s: pygame.Surface, r: pygame.Rect, text: str, template: str, colour: Colour,
            bg: Colour, fill: bool = False) -> None:
    """A number in tabular cells, its size set by ``template`` so that it never changes as the value does."""
    shape = template if len(text) <= len(template) else "8" * len(text)
    px = p.type.fit(BOLD, shape, r.width, r.height, numeric=True)
    p.type.draw_number(s, r, BOLD, px, text, colour, bg, fill=fill)


def _score(p: Painter, s: pygame.Surface, r: pygame.Rect, f: Frame, bg: Colour, side: str) -> None:
    text = f.home_score if side == "home" else f.away_score
    colour = p.theme["dim"] if f.winner is not None and f.winner != side else p.theme["score"]
    _number(p, s, r, text, "88", colour, bg, fill=True)


def _clock(p: Painter, s: pygame.Surface, r: pygame.Rect, f: Frame, bg: Colour) -> None:
    colour = p.theme["clock_running"] if f.running else p.theme["clock_stopped"]
    _number(p, s, r, f.clock, "88:88", colour, bg, fill=True)


def _timeouts(p: Painter, s: pygame.Surface, r: pygame.Rect, f: Frame, bg: Colour, side: str) -> None:
    left, shown = f.home_timeouts if side == "home" else f.away_timeouts
    if not shown:
        return
    # One line at the team's edge, the label then the marks: the rows under it are the penalty board's.
    radius = max(3, r.height * 3 // 10)
    gap = radius * 3
    dots_w = (shown - 1) * gap + 2 * radius
    room = max(0, r.width - dots_w - radius * 2)
    px = p.type.fit(BOLD, f.timeouts_label, room, int(r.height * 0.7)) if f.timeouts_label else 6
    label_w = min(room, p.type.font(BOLD, px).size(f.timeouts_label)[0]) if f.timeouts_label else 0
    group = label_w + radius * 2 + dots_w
    x0 = r.left if side == "home" else r.right - group
    if f.timeouts_label:
        label = pygame.Rect(x0, r.top, label_w, r.height)
        blit_text(s, p.type.text(BOLD, px, f.timeouts_label, p.theme["dim"], bg), label, "left")
    x = x0 + group - dots_w + radius
    for i in range(shown):
        centre = (x + i * gap, r.centery)
        pygame.draw.circle(s, p.theme["text"], centre, radius, width=0 if i < left else max(2, radius // 4))


def _penalties(p: Painter, s: pygame.Surface, r: pygame.Rect, f: Frame, bg: Colour, side: str) -> None:
    paint_penalties(p.type, p.theme, s, r, f, bg, side)


def _not_eligible(p: Painter, s: pygame.Surface, r: pygame.Rect, f: Frame, bg: Colour, side: str) -> None:
    """The team's players who may not play, under a heading, on the team's side of the screen."""
    lines = f.home_not_eligible if side == "home" else f.away_not_eligible
    if not lines:
        return
    rows = 4  # the heading and three players; more are summed up on the last row
    if len(lines) > rows - 1:
        lines = (*lines[: rows - 2], f"+{len(lines) - rows + 2}")
    height = r.height // rows
    align = "left" if side == "home" else "right"
    heading = pygame.Rect(r.left, r.top, r.width, height)
    p.line(s, heading, f.not_eligible_label, p.theme["clock_stopped"], bg, align=align, fill=0.8)
    # One size for every row of both sides: the longest line sets it, so neither team's list looks louder.
    every = (*f.home_not_eligible, *f.away_not_eligible)
    px = min(p.type.fit(BOLD, text, r.width, int(height * 0.8)) for text in every)
    for i, text in enumerate(lines, 1):
        row = pygame.Rect(r.left, r.top + i * height, r.width, height)
        p.line(s, row, text, p.theme["text"], bg, align=align, fill=px * 1.17 / height)


def _shots(p: Painter, s: pygame.Surface, r: pygame.Rect, f: Frame, bg: Colour, side: str) -> None:
    row: Shots | None = f.home_shots if side == "home" else f.away_shots
    if row is None:
        return
    team = f.home if side == "home" else f.away
    name = pygame.Rect(r.left + r.height, r.top, r.width * 28 // 100, r.height)
    if row.next_up:  # who shoots next: a marker in front of the team's row
        tip = (r.left + r.height * 3 // 4, r.centery)
        pygame.draw.polygon(s, p.theme["countdown"], [(r.left + r.height // 8, r.top + r.height // 5), tip,
                                                      (r.left + r.height // 8, r.bottom - r.height // 5)])
    # Both rows' names in one size; short names when the long ones would be too small to read.
    box_h = int(name.height * 0.75)
    px = min(p.type.fit(NARROW, t.name, name.width, box_h) for t in (f.home, f.away))
    label = team.name
    if px < name.height * 0.4 and f.home.short and f.away.short:
        label = team.short or team.name
        px = min(p.type.fit(NARROW, t.short or t.name, name.width, box_h) for t in (f.home, f.away))
    p.line(s, name, label, p.theme["text"] if row.next_up else p.theme["dim"], bg, face=NARROW, align="left",
           fill=px * 1.17 / name.height)
    marks = row.marks[-10:]  # sudden death can run long: the latest ten
    area = pygame.Rect(name.right + r.height // 2, r.top, r.right - name.right - r.height // 2, r.height)
    step = min(r.height * 13 // 10, area.width // max(1, len(marks)))
    radius = min(r.height * 2 // 5, step * 2 // 5)
    for i, mark in enumerate(marks):
        c = (area.left + step * i + step // 2, r.centery)
        if mark == "scored":
            pygame.draw.circle(s, p.theme["scored"], c, radius)
        elif mark == "missed":
            pygame.draw.circle(s, p.theme["missed"], c, radius)
            d = int(radius * 0.55)
            for a, b in (((-d, -d), (d, d)), ((-d, d), (d, -d))):
                pygame.draw.line(s, p.theme["text"], (c[0] + a[0], c[1] + a[1]), (c[0] + b[0], c[1] + b[1]),
                                 max(3, radius // 4))
        else:
            pygame.draw.circle(s, p.theme["dim"], c, radius, width=max(2, radius // 6))


def _possession(p: Painter, s: pygame.Surface, r: pygame.Rect, f: Frame, bg: Colour) -> None:
    if not f.possession:
        return
    label = pygame.Rect(r.left, r.top, r.width, r.height // 5)
    p.line(s, label, f.possession_label, p.theme["dim"], bg)
    box = pygame.Rect(r.left, label.bottom, r.width, r.height - label.height)
    _number(p, s, box.inflate(0, -box.height // 8), f.possession, "88", p.theme["countdown"], bg)


def _notice(p: Painter, s: pygame.Surface, r: pygame.Rect, f: Frame, bg: Colour) -> None:
    if f.notice is not None and f.notice[0] == "operator":  # the official's line: small and plain, for them alone
        p.line(s, r.inflate(-r.height // 2, -r.height // 2), f.notice[1], p.theme["dim"], bg)
    elif f.notice is not None:
        p.line(s, r.inflate(-r.height, -r.height // 3), f.notice[1], p.theme["text"], bg)


def _help(p: Painter, s: pygame.Surface, r: pygame.Rect, f: Frame, bg: Colour) -> None:
    """The key map in two columns under its title."""
    rows = (len(f.help_lines) + 1) // 2
    line_h = min(r.height // 12, r.height // (rows + 2))
    p.line(s, pygame.Rect(r.left, r.top, r.width, line_h * 3 // 2), f.help_title, p.theme["countdown"], bg,
           align="left")
    half = r.width // 2
    for i, text in enumerate(f.help_lines):
        col, row = divmod(i, rows)
        cell = pygame.Rect(r.left + col * half, r.top + line_h * (row + 2), half - r.width // 40, line_h)
        p.line(s, cell, text, p.theme["text"], bg, align="left", fill=0.8)


def _text(field: str, colour: str, *, face: str = BOLD, align: str = "center", fill: float = 1.0) -> Painting:
    def paint(p: Painter, s: pygame.Surface, r: pygame.Rect, f: Frame, bg: Colour) -> None:
        p.line(s, r, getattr(f, field), p.theme[colour], bg, face=face, align=align, fill=fill)
    return paint


def _sided(fn: Callable[..., None], side: str) -> Painting:
    def paint(p: Painter, s: pygame.Surface, r: pygame.Rect, f: Frame, bg: Colour) -> None:
        fn(p, s, r, f, bg, side)
    return paint


Painting = Callable[[Painter, pygame.Surface, pygame.Rect, Frame, Colour], None]

# Each part: the frame's values it shows (compared frame to frame) and how it is painted.
PARTS: dict[str, tuple[Callable[[Frame], Any], Painting]] = {
    "top_left": (lambda f: f.top_left, _text("top_left", "dim", align="left", fill=0.6)),
    "title": (lambda f: f.title, _text("title", "text", fill=0.8)),
    "top_right": (lambda f: f.top_right, _text("top_right", "dim", align="right", fill=0.6)),
    "subtitle": (lambda f: f.subtitle, _text("subtitle", "countdown", fill=0.9)),
    "notice": (lambda f: f.notice, _notice),
    "link": (lambda f: f.link, _text("link", "offline", align="right", fill=0.45)),
    "home_bar": (lambda f: f.home.colour, _sided(_bar, "home")),
    "away_bar": (lambda f: f.away.colour, _sided(_bar, "away")),
    "home_name": (lambda f: (f.home, f.winner), _sided(_name, "home")),
    "away_name": (lambda f: (f.away, f.winner), _sided(_name, "away")),
    "home_score": (lambda f: (f.home_score, f.winner), _sided(_score, "home")),
    "away_score": (lambda f: (f.away_score, f.winner), _sided(_score, "away")),
    "clock": (lambda f: (f.clock, f.running), _clock),
    "clock_note": (lambda f: f.clock_note, _text("clock_note", "clock_stopped", fill=0.8)),
    "centre": (lambda f: f.centre, _text("centre", "text", fill=0.75)),
    "possession": (lambda f: (f.possession, f.possession_label), _possession),
    "home_timeouts": (lambda f: (f.home_timeouts, f.timeouts_label), _sided(_timeouts, "home")),
    "away_timeouts": (lambda f: (f.away_timeouts, f.timeouts_label), _sided(_timeouts, "away")),
    "home_penalties": (lambda f: (f.home_penalties, f.waiting_label), _sided(_penalties, "home")),
    "away_penalties": (lambda f: (f.away_penalties, f.waiting_label), _sided(_penalties, "away")),
    "big_label": (lambda f: f.big_label, _text("big_label", "text", fill=0.9)),
    "countdown": (lambda f: f.countdown, lambda p, s, r, f, bg: _number(p, s, r, f.countdown, "88:88",
                                                                         p.theme["countdown"], bg, fill=True)),
    "home_not_eligible": (lambda f: (f.home_not_eligible, f.away_not_eligible, f.not_eligible_label),
                          _sided(_not_eligible, "home")),
    "away_not_eligible": (lambda f: (f.home_not_eligible, f.away_not_eligible, f.not_eligible_label),
                          _sided(_not_eligible, "away")),
    "home_shots": (lambda f: (f.home_shots, f.home), _sided(_shots, "home")),
    "away_shots": (lambda f: (f.away_shots, f.away), _sided(_shots, "away")),
    "next_line": (lambda f: f.next_line, _text("next_line", "dim", fill=0.7)),
    "next_label": (lambda f: f.next_label, _text("next_label", "dim", fill=0.8)),
    "next_teams": (lambda f: f.next_teams, _text("next_teams", "text", face=NARROW, fill=0.9)),
    "next_when": (lambda f: f.next_when, _text("next_when", "countdown", fill=0.8)),
    "help": (lambda f: (f.help_title, f.help_lines), _help),
    "tables": (lambda f: (f.tables, f.table_titles, f.table_heads, f.page, f.page_word, f.scorers),
               lambda p, s, r, f, bg: paint_tables(p.type, p.theme, s, r, f, bg)),
}

"""Where each part of the screen goes, in fractions of the screen, so every resolution looks designed.

Boxes are given in percent of the width and height (x, y, w, h) of a 16:9 screen; other
shapes stretch them. Each mode has its own set; a part missing from a mode is not drawn.
"""

from __future__ import annotations

import pygame

Box = tuple[float, float, float, float]

# Shared by every mode: the top bar, the bottom notice band and the link mark in its corner.
_FRAME: dict[str, Box] = {
    "top_left": (1.5, 1, 24, 8),
    "title": (26, 0.5, 48, 9.5),
    "top_right": (74.5, 1, 24, 8),
    "notice": (19.5, 92, 61, 8),  # centred: as far from the left edge as the link mark's box from the right
    "link": (80.5, 92, 18, 8),  # a margin on the right like the names and the top bar's words
}

# In play: names over big scores on the sides, the clock in the middle, penalties below. The scores are as
# wide as their box allows and no taller, so the boxes stop where the digits do: what lies under them is the
# penalty board's, three rows a side whose times stand a tenth of the screen high (readable from the far stand).
_PLAY: dict[str, Box] = {
    "home_bar": (1.5, 11, 45, 1.6),
    "away_bar": (53.5, 11, 45, 1.6),
    "home_name": (1.5, 13, 45, 11),
    "away_name": (53.5, 13, 45, 11),
    "home_score": (1, 25, 25, 30),
    "away_score": (74, 25, 25, 30),
    "clock": (27.5, 25, 45, 25),
    "clock_note": (30, 50, 40, 5),
    "home_timeouts": (1.5, 55.5, 24, 5.5),
    "away_timeouts": (74.5, 55.5, 24, 5.5),
    "centre": (30, 55, 40, 6.5),
    "home_penalties": (1.5, 61.5, 47, 30),
    "away_penalties": (51.5, 61.5, 47, 30),
}

# Water polo keeps the shot clock where ice hockey shows 5 v 4: big, under the match clock.
_POSSESSION: dict[str, Box] = {
    "clock": (27.5, 25, 45, 19),
    "possession": (38, 46.5, 24, 15),
    "clock_note": (26, 48, 12, 7),
    "centre": (62, 48, 12, 7),  # 7 v 6 during an exclusion, beside the shot clock
}

# Before the start, when players may not play (sent off earlier): they are listed under their team, large,
# where time-outs, strength, the shot clock and penalties show once the match runs (none says anything
# before the start); the officials check the list against the line-up.
_PRE_MATCH: dict[str, Box] = {
    **{k: v for k, v in _PLAY.items() if not k.endswith(("_penalties", "_timeouts")) and k != "centre"},
    "home_not_eligible": (1.5, 57, 46, 34.5),
    "away_not_eligible": (52.5, 57, 46, 34.5),
}

# Intervals and time-outs: a small score line on top, the countdown fills the screen.
_BREAK: dict[str, Box] = {
    "home_bar": (1.5, 11, 30, 1.2),
    "away_bar": (68.5, 11, 30, 1.2),
    "home_name": (1.5, 12.5, 30, 9),
    "away_name": (68.5, 12.5, 30, 9),
    "home_score": (33, 11.5, 15, 13),
    "away_score": (52, 11.5, 15, 13),
    "big_label": (5, 26, 90, 12),
    "countdown": (5, 39, 90, 44),
    "subtitle": (5, 83, 90, 8),
}

# Shoot-out: shoot-out goals big on the sides; a row of marks per team below.
_SHOOTOUT: dict[str, Box] = {
    "home_bar": (1.5, 11, 45, 1.6),
    "away_bar": (53.5, 11, 45, 1.6),
    "home_name": (1.5, 13, 45, 11),
    "away_name": (53.5, 13, 45, 11),
    "home_score": (1, 26, 25, 36),
    "away_score": (74, 26, 25, 36),
    "centre": (27, 36, 46, 12),
    "home_shots": (1.5, 64, 97, 13),
    "away_shots": (1.5, 78, 97, 13),
}

# The end: scores, and how the match was decided between them.
_FINAL: dict[str, Box] = {
    "home_bar": (1.5, 11, 45, 1.6),
    "away_bar": (53.5, 11, 45, 1.6),
    "home_name": (1.5, 13, 45, 11),
    "away_name": (53.5, 13, 45, 11),
    "home_score": (1, 26, 25, 40),
    "away_score": (74, 26, 25, 40),
    "centre": (27, 38, 46, 14),
    "home_shots": (1.5, 66, 97, 8),
    "away_shots": (1.5, 74.5, 97, 8),
    "next_line": (3, 83.5, 94, 7),
}

# The end of a match with no shoot-out: the scores as tall as the screen allows above the next match's line.
_FINAL_PLAIN: dict[str, Box] = {
    **{k: v for k, v in _FINAL.items() if not k.endswith("_shots")},
    "home_score": (1, 24, 32, 56),
    "away_score": (67, 24, 32, 56),
    "centre": (33, 45, 34, 14),
}

# Between matches: the next match on top, pool tables below, a page at a time.
_BETWEEN: dict[str, Box] = {
    "next_label": (3, 11, 94, 6),
    "next_teams": (3, 17, 94, 10),
    "next_when": (3, 27, 94, 6),
    "tables": (2, 35, 96, 56),
}

# The key map over everything below the score line (the table's help key toggles it).
_HELP: dict[str, Box] = {
    **{k: v for k, v in _BREAK.items() if k.startswith(("home_", "away_"))},
    "help": (4, 26, 92, 65),
}

MODES: dict[str, dict[str, Box]] = {
    "help": _HELP,
    "play": _PLAY,
    "play_possession": {**_PLAY, **_POSSESSION},
    "pre_match": _PRE_MATCH,
    "interval": _BREAK,
    "timeout": _BREAK,
    "shootout": _SHOOTOUT,
    "final": _FINAL,
    "final_plain": _FINAL_PLAIN,
    "between": _BETWEEN,
}


def rect(box: Box, size: tuple[int, int]) -> pygame.Rect:
    """A percent box on a screen of ``size``; edges are rounded so that neighbours meet exactly."""
    w, h = size
    x0, y0 = round(box[0] * w / 100), round(box[1] * h / 100)
    x1, y1 = round((box[0] + box[2]) * w / 100), round((box[1] + box[3]) * h / 100)
    return pygame.Rect(x0, y0, x1 - x0, y1 - y0)


def layout(mode: str, size: tuple[int, int]) -> dict[str, pygame.Rect]:
    """Every part's rectangle on a screen of ``size`` in ``mode``."""
    boxes = {**_FRAME, **MODES[mode]}
    return {name: rect(box, size) for name, box in boxes.items()}

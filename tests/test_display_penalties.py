"""The penalty board read from the far stand: times a twelfth of the screen high or more, beside badge and number.

Each check draws a match the engine played (tests/display_scenes.py) and measures the ink on the picture:
where the digits of a penalty's time actually are, how tall they are, and how far from the player's
number and the badge, inside the layout's boxes, at 720p, 1080p and 4K.
"""

from __future__ import annotations

from dataclasses import replace

import pygame
import pytest

from display.content import PenaltyLine
from display.layout import layout
from display.penalties import ROWS, cells, rows_of
from display.scoreboard import Scoreboard, mode_of
from tests.display_scenes import scene

SIXTEEN_NINE = [(1280, 720), (1920, 1080), (3840, 2160)]


def ink(surface: pygame.Surface, rect: pygame.Rect, background: tuple[int, int, int]) -> pygame.Rect | None:
    """The bounding box of every pixel in ``rect`` that is not ``background`` (screen coordinates)."""
    area = rect.clip(surface.get_rect())
    same = pygame.mask.from_threshold(surface.subsurface(area), background, (1, 1, 1, 255))
    same.invert()
    boxes = same.get_bounding_rects()
    if not boxes:
        return None
    return boxes[0].unionall(boxes[1:]).move(area.topleft)


def drawn(sport: str, size: tuple[int, int]) -> tuple[Scoreboard, pygame.Surface]:
    surface = pygame.Surface(size)
    board = Scoreboard(surface)
    board.draw(scene(sport, "play").view)
    return board, surface


@pytest.mark.parametrize("size", SIXTEEN_NINE, ids=lambda s: f"{s[1]}p")
def test_ice_hockey_times_stand_a_twelfth_of_the_screen_high_beside_number_and_badge(size: tuple[int, int]) -> None:
    """Wolves AA have a minor, a major and a minor waiting: three rows, all inside the away board."""
    board, surface = drawn("ice-hockey", size)
    assert board.frame is not None
    lines = board.frame.away_penalties
    assert [(x.player, x.time) for x in lines] == [("4", "1:50"), ("17", "4:53"), ("22", "2:00")]
    box = layout(mode_of(board.frame), size)["away_penalties"]
    bg = board.theme["background"]
    for line, row in zip(lines, rows_of(box), strict=False):
        c = cells(board.type, row, "away")
        for part in (c.badge, c.number, c.time):
            assert box.contains(part)
        time = ink(surface, c.time, bg)
        number = ink(surface, c.number, bg)
        assert time is not None and number is not None, line
        assert time.height >= size[1] / 12, f"{line.time}: {time.height} px of {size[1]}"
        assert number.height >= 0.75 * size[1] / 12  # the number a little smaller, still readable from afar
        # Side by side on one line: the time ends just before the number, the number just before the badge.
        assert 0 < number.left - time.right <= row.height, (time, number)
        assert 0 <= c.badge.left - number.right <= row.height
        assert abs(time.centery - number.centery) <= row.height // 8
        assert abs(c.badge.centery - time.centery) <= row.height // 8
        # The away board is mirrored: the badge at the screen's right margin, under the team's name.
        assert c.badge.right == layout("play", size)["away_name"].right
    # The waiting one says so, in the room beside its time.
    waiting = cells(board.type, rows_of(box)[2], "away")
    word = ink(surface, waiting.note(board.type.number_width("bold", waiting.time_px, "2:00")), bg)
    assert word is not None and word.right < waiting.time.right


@pytest.mark.parametrize("size", SIXTEEN_NINE, ids=lambda s: f"{s[1]}p")
@pytest.mark.parametrize("sport", ["indoor-hockey", "water-polo", "indoor-football"])
def test_home_rows_read_badge_number_time_from_the_left_edge(sport: str, size: tuple[int, int]) -> None:
    board, surface = drawn(sport, size)
    assert board.frame is not None and board.frame.home_penalties
    rects = layout(mode_of(board.frame), size)
    row = rows_of(rects["home_penalties"])[0]
    c = cells(board.type, row, "home")
    bg = board.theme["background"]
    time, number = ink(surface, c.time, bg), ink(surface, c.number, bg)
    assert time is not None and number is not None
    assert time.height >= size[1] / 12
    assert c.badge.left == rects["home_name"].left
    assert 0 <= number.left - c.badge.right <= row.height and 0 < time.left - number.right <= row.height
    # The badge is the card's colour (green, yellow) or the panel's: never the background.
    assert surface.get_at(c.badge.center)[:3] != bg


@pytest.mark.parametrize("size", SIXTEEN_NINE, ids=lambda s: f"{s[1]}p")
def test_the_board_sits_under_the_scores_and_clock_and_above_the_notice_band(size: tuple[int, int]) -> None:
    """The rows use the space that stood empty: between the strength line and the notice band."""
    for mode in ("play", "play_possession"):
        rects = layout(mode, size)
        for side in ("home", "away"):
            board = rects[f"{side}_penalties"]
            assert board.top >= max(rects[k].bottom for k in ("home_score", "away_score", "clock", "centre"))
            assert board.bottom <= rects["notice"].top
            assert board.height * 100 >= 29 * size[1]  # three rows, each a tenth of the screen
            assert all(r.height >= size[1] / 11 for r in rows_of(board))


def test_more_penalties_than_rows_are_summed_up_on_the_last_row() -> None:
    board, surface = drawn("ice-hockey", (1920, 1080))
    assert board.frame is not None
    extra = (*board.frame.away_penalties, PenaltyLine("8", "2'", "minor", "2:00", True),
             PenaltyLine("9", "10'", "misconduct", "10:00", False))
    board.draw_frame(replace(board.frame, away_penalties=extra))
    box = layout("play", (1920, 1080))["away_penalties"]
    last = cells(board.type, rows_of(box)[ROWS - 1], "away")
    # The last row's badge reads "+3" and no number or time is drawn beside it.
    assert ink(surface, last.number, board.theme["background"]) is None
    assert ink(surface, last.time, board.theme["background"]) is None
    assert ink(surface, last.badge.inflate(-8, -8), board.theme["panel"]) is not None


def test_a_narrow_screen_keeps_every_row_inside_its_box() -> None:
    """At 4:3 the row's width, not its height, sets the time's size; nothing spills into the other side."""
    board, _surface = drawn("ice-hockey", (1024, 768))
    box = layout("play", (1024, 768))["away_penalties"]
    for row in rows_of(box):
        c = cells(board.type, row, "away")
        assert all(box.contains(r) for r in (c.badge, c.number, c.time))
        assert c.time.right <= c.number.left <= c.number.right <= c.badge.left

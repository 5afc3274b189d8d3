"""display/operator_screen.py: the official's view on a small monitor, drawn only when it changed."""

from __future__ import annotations

import os
from dataclasses import replace

import pygame

from display.operator import Feedback
from display.operator_screen import OperatorScreen, _halves
from tests.test_display_operator import VIEW

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")


def test_drawn_once_per_change_with_a_refusal_in_red_and_a_done_press_in_green() -> None:
    pygame.font.init()  # fonts only: the whole of pygame.init() opens the mixer, which later tests own
    screen = OperatorScreen(pygame.Surface((1024, 600)))
    assert screen.draw(VIEW) and not screen.draw(VIEW)
    refused = replace(VIEW, feedback=Feedback("refused", "Refused: the ice-hockey rules allow no time-outs"))
    assert screen.draw(refused)
    reds = pygame.mask.from_threshold(screen.surface, screen.theme["missed"], (8, 8, 8, 255)).count()
    screen.draw(VIEW)
    greens = pygame.mask.from_threshold(screen.surface, screen.theme["scored"], (8, 8, 8, 255)).count()
    screen.draw(replace(VIEW, feedback=None))
    link_only = pygame.mask.from_threshold(screen.surface, screen.theme["scored"], (8, 8, 8, 255)).count()
    assert reds > 500 and greens > link_only + 500  # the link's line is green too: the press's adds to it


def test_a_long_prompt_is_cut_where_its_next_part_begins() -> None:
    assert _halves("HOME #12 Minor - MODE: next kind, NEXT confirms, UNDO cancels") == [
        "HOME #12 Minor -", "MODE: next kind, NEXT confirms, UNDO cancels"]
    assert _halves("START starts the match") == ["START starts the match"]


def test_a_changed_line_is_drawn_again_alone_and_an_emptied_one_is_cleared() -> None:
    from display.operator_screen import layout

    pygame.font.init()
    screen = OperatorScreen(pygame.Surface((1024, 600)))
    screen.draw(VIEW)
    before = screen.surface.copy()
    ticked = replace(VIEW, board=VIEW.board.replace("12:34", "12:33"), penalties=())
    screen.draw(ticked)
    boxes = {line.text: pygame.Rect(line.box) for line in layout(VIEW, (1024, 600))}
    board, penalty = boxes[VIEW.board], boxes["AWAY #4 Major 4:12"]
    untouched = pygame.mask.from_threshold(screen.surface, (0, 0, 0), (1, 1, 1, 255), before, 1)
    changed = 1024 * 600 - untouched.count()
    assert 0 < changed <= board.w * board.h + penalty.w * penalty.h  # only those two lines' boxes
    assert pygame.mask.from_threshold(screen.surface.subsurface(penalty), screen.theme["background"],
                                      (1, 1, 1, 255)).count() == penalty.w * penalty.h  # the ended penalty: gone
    fresh = OperatorScreen(pygame.Surface((1024, 600)))
    fresh.draw(ticked)
    assert pygame.image.tobytes(fresh.surface, "RGB") == pygame.image.tobytes(screen.surface, "RGB")

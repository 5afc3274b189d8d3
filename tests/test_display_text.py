"""Type: tabular digits, fitting, and text rendered once."""

from __future__ import annotations

import pygame

from display.text import Typesetter
from display.theme import load_theme


def typesetter() -> Typesetter:
    pygame.font.init()
    theme = load_theme()
    return Typesetter({"bold": theme.bold_font, "condensed": theme.condensed_font})


def test_clock_digits_are_tabular_so_the_clock_does_not_jitter() -> None:
    t = typesetter()
    widths = {t.number_width("bold", 200, text) for text in ("11:11", "88:88", "10:07")}
    assert len(widths) == 1


def test_fit_respects_the_box() -> None:
    t = typesetter()
    px = t.fit("condensed", "South Africa Juniors", 600, 120)
    w, h = t.font("condensed", px).size("South Africa Juniors")
    assert w <= 600 and h <= 121
    assert t.font("condensed", px + 6).size("South Africa Juniors")[0] > 600 or px >= 100


def test_the_same_text_is_rendered_once() -> None:
    t = typesetter()
    a = t.text("bold", 80, "Half-time", (255, 255, 255), (0, 0, 0))
    b = t.text("bold", 80, "Half-time", (255, 255, 255), (0, 0, 0))
    assert a is b and t.renders == 1


def test_numbers_stay_in_their_box() -> None:
    t = typesetter()
    target = pygame.Surface((400, 300))
    target.fill((255, 0, 255))
    box = pygame.Rect(50, 50, 300, 100)
    px = t.fit("bold", "88:88", box.width, box.height, numeric=True)
    t.draw_number(target, box, "bold", px, "12:34", (255, 255, 255), (0, 0, 0))
    inside = pygame.mask.from_threshold(target.subsurface(box), (255, 0, 255), (1, 1, 1, 255)).count()
    assert inside < box.width * box.height  # the number was drawn ...
    target.fill((255, 0, 255), box)
    assert pygame.mask.from_threshold(target, (255, 0, 255), (1, 1, 1, 255)).count() == 400 * 300  # ... only there

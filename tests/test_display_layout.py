"""Every part of every mode lies on the screen and apart from the others, at every resolution."""

from __future__ import annotations

import itertools

import pytest

from display.layout import MODES, layout

SIZES = [(1280, 720), (1920, 1080), (3840, 2160), (1024, 768)]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("mode", sorted(MODES))
def test_parts_are_on_the_screen_and_do_not_overlap(mode: str, size: tuple[int, int]) -> None:
    rects = layout(mode, size)
    screen = (0, 0, *size)
    for name, r in rects.items():
        assert r.width > 0 and r.height > 0, name
        assert r.left >= 0 and r.top >= 0 and r.right <= screen[2] and r.bottom <= screen[3], name
    for (a, ra), (b, rb) in itertools.combinations(rects.items(), 2):
        assert not ra.colliderect(rb), f"{a} {ra} overlaps {b} {rb}"


def test_layout_is_proportional() -> None:
    small, big = layout("play", (1280, 720)), layout("play", (3840, 2160))
    for name in small:
        assert abs(big[name].width - 3 * small[name].width) <= 3, name
        assert abs(big[name].top - 3 * small[name].top) <= 3, name

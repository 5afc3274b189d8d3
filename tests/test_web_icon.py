"""The site's icons (server.web.icon): the committed PNGs are the script's drawing, at the sizes the pages and
the manifest name."""

from __future__ import annotations

import json
import os

import pytest

from server.web.icon import SIZES, STATIC, draw


@pytest.mark.parametrize("size", SIZES)
def test_the_committed_icon_is_what_the_script_draws(size: int) -> None:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    drawn = draw(size)
    stored = pygame.image.load(str(STATIC / f"icon-{size}.png"))
    assert stored.get_size() == drawn.get_size() == (size, size)
    assert pygame.image.tobytes(stored, "RGB") == pygame.image.tobytes(drawn, "RGB"), \
        "run: .venv/bin/python -m server.web.icon"
    corner, middle = stored.get_at((0, 0))[:3], stored.get_at((size // 2, size // 2))[:3]
    assert corner == (10, 10, 10) and middle != corner  # the header's black, the court's lines on it


def test_the_manifest_names_icons_that_exist() -> None:
    manifest = json.loads((STATIC / "manifest.webmanifest").read_text())
    for icon in manifest["icons"]:
        size = int(icon["sizes"].split("x")[0])
        assert icon["src"] == f"/static/icon-{size}.png" and size in SIZES

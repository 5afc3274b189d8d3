"""The site's icon (browser tab, phone home screen): a court's lines in white on the header's black.

    .venv/bin/python -m server.web.icon

writes server/web/static/icon-{32,180,192,512}.png with pygame (SDL's dummy video driver, no
screen needed). The PNGs are committed; run this again after changing the drawing.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pygame

STATIC = Path(__file__).parent / "static"
SIZES = (32, 180, 192, 512)
INK, PAPER, LIVE = (10, 10, 10), (255, 255, 255), (158, 0, 28)  # site.css --ink, --paper, --live


def draw(size: int) -> pygame.Surface:
    """One icon, drawn at 8x and scaled down smoothly so thin lines stay even at 32 px."""
    import pygame

    big = size * 8
    s = pygame.Surface((big, big))
    s.fill(INK)
    line = max(big // 22, 8)
    margin = big // 6
    court = pygame.Rect(margin, margin + big // 10, big - 2 * margin, big - 2 * margin - big // 5)
    pygame.draw.rect(s, PAPER, court, line, border_radius=big // 40)
    pygame.draw.line(s, PAPER, (big // 2, court.top), (big // 2, court.bottom - 1), line)
    pygame.draw.circle(s, PAPER, court.center, court.height // 4, line)
    pygame.draw.circle(s, LIVE, (court.right - line * 2, court.top + line * 2), big // 14)  # the live dot
    return pygame.transform.smoothscale(s, (size, size))


def main() -> int:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame  # drawing on surfaces needs no pygame.init(): no window, no sound device

    for size in SIZES:
        path = STATIC / f"icon-{size}.png"
        pygame.image.save(draw(size), str(path))
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Opening the screen: KMS/DRM full screen on a Pi with no desktop, a window elsewhere, SDL's dummy in tests."""

from __future__ import annotations

import os
from pathlib import Path

import pygame

WINDOW = (1280, 720)


def video_driver(environ: dict[str, str] | None = None, dri: Path = Path("/dev/dri")) -> str | None:
    """The SDL video driver to ask for: the one set, kmsdrm on a console with a GPU, else SDL's choice."""
    env = os.environ if environ is None else environ
    if env.get("SDL_VIDEODRIVER"):
        return env["SDL_VIDEODRIVER"]
    if not env.get("DISPLAY") and not env.get("WAYLAND_DISPLAY") and dri.exists():
        return "kmsdrm"  # a Pi booted to the console: draw straight to the HDMI output
    return None


def open_screen(size: tuple[int, int] | None = None, caption: str = "courtside") -> pygame.Surface:
    """The display surface: full screen at the screen's own resolution, or a resizable window of ``size``."""
    driver = video_driver()
    if driver is not None:
        os.environ["SDL_VIDEODRIVER"] = driver
    pygame.display.init()
    pygame.font.init()
    full = size is None and driver != "dummy" and (driver == "kmsdrm" or not _desktop())
    if full:
        surface = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
        pygame.mouse.set_visible(False)
    else:
        surface = pygame.display.set_mode(size or WINDOW, pygame.RESIZABLE)
    pygame.display.set_caption(caption)
    return surface


def _desktop() -> bool:
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))

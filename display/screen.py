"""Opening the screen: KMS/DRM full screen on a Pi with no desktop, a window elsewhere, SDL's dummy in tests.

A machine with no screen at all (no desktop, no GPU device, or SDL unable to open the one
there is) is refused with a :class:`ScreenError` that says what is missing. Left to itself
SDL falls back to its "offscreen" driver there, and a scoreboard would run on, drawing
into nothing.
"""

from __future__ import annotations

import os
from pathlib import Path

import pygame

from rules import CourtsideError

WINDOW = (1280, 720)
DRI = Path("/dev/dri")
# SDL drivers that show nothing on any screen: fine when asked for by name (tests, snapshots), never by default.
INVISIBLE = frozenset({"offscreen", "dummy"})


class ScreenError(CourtsideError, RuntimeError):
    """No screen can be opened here; the message says what is missing and what to do."""


def video_driver(environ: dict[str, str] | None = None, dri: Path = DRI) -> str | None:
    """The SDL video driver to ask for: the one set, kmsdrm on a console with a GPU, else SDL's choice."""
    env = os.environ if environ is None else environ
    if env.get("SDL_VIDEODRIVER"):
        return env["SDL_VIDEODRIVER"]
    if not env.get("DISPLAY") and not env.get("WAYLAND_DISPLAY") and dri.exists():
        return "kmsdrm"  # a Pi booted to the console: draw straight to the HDMI output
    if env.get("DISPLAY") and not env.get("WAYLAND_DISPLAY"):
        return "x11"  # SDL would try Wayland first and print its own complaint about XDG_RUNTIME_DIR
    return None


def screen_problem(environ: dict[str, str] | None = None, dri: Path = DRI) -> str | None:
    """Why this machine has no screen to draw on before SDL is even asked; None when it may have one."""
    env = os.environ if environ is None else environ
    if env.get("SDL_VIDEODRIVER") or env.get("DISPLAY") or env.get("WAYLAND_DISPLAY") or dri.exists():
        return None
    return (f"no screen: no desktop (DISPLAY and WAYLAND_DISPLAY are not set) and no graphics device ({dri} "
            "does not exist). On the Pi, plug in the HDMI screen and keep the KMS driver on (dtoverlay=vc4-kms-v3d "
            "in /boot/firmware/config.txt); on a desktop, run it inside the desktop session; "
            "`courtside display snapshot` draws a frame to a PNG without a screen")


def open_screen(size: tuple[int, int] | None = None, caption: str = "courtside") -> pygame.Surface:
    """The display surface: full screen at the screen's own resolution, or a resizable window of ``size``.

    Raises :class:`ScreenError` when there is no screen to open (see the module's docstring).
    """
    problem = screen_problem()
    if problem is not None:
        raise ScreenError(problem)
    driver = video_driver()
    if driver is not None:
        os.environ["SDL_VIDEODRIVER"] = driver
    try:
        pygame.display.init()
    except pygame.error as err:
        raise ScreenError(_sdl_failed(driver, str(err))) from None
    chosen = pygame.display.get_driver()
    if chosen in INVISIBLE and driver != chosen:
        pygame.display.quit()
        raise ScreenError(f"no screen: SDL found no display to draw on and fell back to its {chosen!r} driver, "
                          "which shows nothing. Check the HDMI cable and that the desktop session "
                          "(DISPLAY / WAYLAND_DISPLAY) is this one")
    pygame.font.init()
    full = size is None and driver != "dummy" and (driver == "kmsdrm" or not _desktop())
    try:
        if full:
            surface = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
            pygame.mouse.set_visible(False)
        else:
            surface = pygame.display.set_mode(size or WINDOW, pygame.RESIZABLE)
    except pygame.error as err:
        pygame.display.quit()
        raise ScreenError(_sdl_failed(chosen, str(err))) from None
    pygame.display.set_caption(caption)
    return surface


def _sdl_failed(driver: str | None, reason: str) -> str:
    if driver == "kmsdrm":
        return (f"no screen: the HDMI output cannot be opened through KMS/DRM ({reason}). Is a screen plugged in and "
                "switched on, and is no desktop or other program already drawing on it?")
    if driver == "x11":
        return f"no screen: the desktop's display DISPLAY={os.environ.get('DISPLAY', '')!r} cannot be opened ({reason})"
    named = f"SDL's {driver!r} video driver" if driver else "SDL"
    return f"no screen: {named} cannot open a display ({reason})"


def _desktop() -> bool:
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))

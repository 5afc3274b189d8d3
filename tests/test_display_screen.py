"""Which SDL video driver the screen asks for, and opening it under the dummy driver."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pygame
import pytest

from display.screen import DRI, open_screen, screen_problem, video_driver
from rules import examples


def test_console_with_a_gpu_draws_through_kms_drm(tmp_path: Path) -> None:
    dri = tmp_path / "dri"
    dri.mkdir()
    assert video_driver({}, dri) == "kmsdrm"
    assert video_driver({"DISPLAY": ":0"}, dri) == "x11"  # an X desktop: asked for by name, no Wayland probe
    assert video_driver({"WAYLAND_DISPLAY": "wayland-0"}, dri) is None
    assert video_driver({}, tmp_path / "none") is None
    assert video_driver({"SDL_VIDEODRIVER": "dummy"}, dri) == "dummy"


def test_open_screen_gives_a_window_of_the_size_asked_for() -> None:
    surface = open_screen((640, 360), "test")  # the tests run with SDL_VIDEODRIVER=dummy (conftest)
    try:
        assert surface.get_size() == (640, 360)
        assert pygame.display.get_caption()[0] == "test"
    finally:
        pygame.display.quit()


def _follow(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """``courtside display follow`` as a person starts it, in an environment with ``env``'s screen variables only.

    The broker's port has nothing listening: the screen must be refused before anything connects.
    """
    clean = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    tournament = Path(examples.__file__).with_name("ice-hockey.toml")
    return subprocess.run(
        [sys.executable, "-m", "courtside", "display", "follow", "--court", "1", "--broker", "mqtt://127.0.0.1:1",
         "--tournament", str(tournament)],
        env={**clean, **env}, capture_output=True, text=True, timeout=30)  # hanging on no screen fails here


def test_follow_on_a_machine_without_a_screen_says_so_and_exits() -> None:
    if DRI.exists():
        pytest.skip("this machine has a graphics device: SDL would open it")
    done = _follow({})
    assert done.returncode == 2
    assert done.stderr.startswith("courtside: no screen: no desktop (DISPLAY and WAYLAND_DISPLAY are not set) and "
                                  "no graphics device (/dev/dri does not exist)")
    assert "Traceback" not in done.stderr and done.stdout == ""


def test_follow_with_kms_drm_but_no_hdmi_output_says_so() -> None:
    if DRI.exists():
        pytest.skip("this machine has a graphics device: KMS/DRM may open")
    done = _follow({"SDL_VIDEODRIVER": "kmsdrm"})
    assert done.returncode == 2
    assert "courtside: no screen: the HDMI output cannot be opened through KMS/DRM" in done.stderr


def test_follow_with_a_desktop_that_is_not_there_names_it_without_sdls_noise() -> None:
    done = _follow({"DISPLAY": ":97"})
    assert done.returncode == 2
    assert "courtside: no screen: the desktop's display DISPLAY=':97' cannot be opened" in done.stderr
    assert "XDG_RUNTIME_DIR" not in done.stderr  # SDL's Wayland probe is not run for an X desktop


def test_sdls_silent_fallback_to_drawing_nowhere_is_refused() -> None:
    """A Wayland session that is not there: SDL falls back to its offscreen driver; the follower must not run on."""
    if DRI.exists():
        pytest.skip("this machine has a graphics device: SDL would fall back to KMS/DRM first")
    done = _follow({"WAYLAND_DISPLAY": "courtside-nowhere", "XDG_RUNTIME_DIR": tempfile.gettempdir()})
    assert done.returncode == 2
    assert "courtside: no screen: SDL found no display to draw on and fell back to its 'offscreen' driver" \
        in done.stderr


def test_screen_problem_names_what_is_missing(tmp_path: Path) -> None:
    assert screen_problem({}, tmp_path / "none") is not None
    assert screen_problem({"SDL_VIDEODRIVER": "dummy"}, tmp_path / "none") is None
    assert screen_problem({"DISPLAY": ":0"}, tmp_path / "none") is None
    (tmp_path / "dri").mkdir()
    assert screen_problem({}, tmp_path / "dri") is None

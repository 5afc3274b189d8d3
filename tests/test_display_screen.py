"""Which SDL video driver the screen asks for, and opening it under the dummy driver."""

from __future__ import annotations

from pathlib import Path

import pygame

from display.screen import open_screen, video_driver


def test_console_with_a_gpu_draws_through_kms_drm(tmp_path: Path) -> None:
    dri = tmp_path / "dri"
    dri.mkdir()
    assert video_driver({}, dri) == "kmsdrm"
    assert video_driver({"DISPLAY": ":0"}, dri) is None  # a desktop: SDL picks x11
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

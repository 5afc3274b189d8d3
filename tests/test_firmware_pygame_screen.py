"""The table with its pygame screen (SDL's dummy driver): keys are the buttons, the frame shows the match."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pygame = pytest.importorskip("pygame")

from firmware.buttonmap import load_button_map  # noqa: E402
from firmware.pygame_screen import PygameScreen, help_lines  # noqa: E402
from firmware.table import TableOptions, open_table  # noqa: E402
from rules.match.events import Goal  # noqa: E402
from tests.firmware_support import Board  # noqa: E402


@pytest.fixture
def screen(monkeypatch: pytest.MonkeyPatch) -> Iterator[PygameScreen]:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.delenv("DISPLAY", raising=False)
    s = PygameScreen(load_button_map().keys)
    yield s
    s.close()


def _key(key: int, text: str = "") -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, unicode=text, mod=0, scancode=0))


def test_keys_work_as_the_buttons_and_the_frame_shows_it(tmp_path: Path, screen: PygameScreen) -> None:
    from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

    table = open_table(TableOptions(rules="indoor-hockey", court="1", journal=tmp_path, speed=0,
                                    factory=MockFactory()), screen=screen)
    b = Board(table, None)  # type: ignore[arg-type]
    try:
        _key(pygame.K_SPACE, " ")
        b.loop.step()
        assert b.state.running
        b.at(30.0)
        _key(pygame.K_1, "1")
        _key(pygame.K_2, "2")
        _key(pygame.K_F4)
        b.loop.step()
        goal = b.loop.session.match.events[-1]
        assert isinstance(goal, Goal) and (goal.team, goal.player) == ("away", "12")
        frame = screen.board.frame
        assert frame is not None and (frame.home_score, frame.away_score) == ("0", "1")
        _key(pygame.K_F5)  # a penalty for home, shown as it is typed
        _key(pygame.K_4, "4")
        b.loop.step()
        typed = screen.board.frame
        assert typed is not None and typed is not frame and typed.notice is not None
        assert "HOME #4 Green card" in typed.notice[1]
        _key(pygame.K_RETURN)
        b.loop.step()
        assert b.loop.session.match.events[-1].type == "penalty_awarded"
        _key(pygame.K_F11)  # the help overlay is the screen's own: nothing reaches the table
        b.loop.step()
        assert screen.showing_help and b.loop.session.match.events[-1].type == "penalty_awarded"
    finally:
        table.close()


def test_the_help_lists_every_key_of_the_map() -> None:
    lines = help_lines(load_button_map().keys)
    assert "Space / F1: clock start" in lines and "Return / Enter: next" in lines
    assert lines[-1] == "F11 or ?: hide this help"

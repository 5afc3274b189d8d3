"""The table with its pygame screen (SDL's dummy driver): keys are the buttons, the frame shows the match."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

pygame = pytest.importorskip("pygame")

from firmware.buttonmap import ButtonMap, default_text, load_button_map, parse_button_map  # noqa: E402
from firmware.operator import help_lines  # noqa: E402
from firmware.pygame_screen import PygameScreen  # noqa: E402
from firmware.table import TableOptions, open_table  # noqa: E402
from rules.match.events import Goal  # noqa: E402
from tests.firmware_support import Board  # noqa: E402


@pytest.fixture
def screen(monkeypatch: pytest.MonkeyPatch) -> Iterator[PygameScreen]:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.delenv("DISPLAY", raising=False)
    s = PygameScreen(load_button_map())
    yield s
    s.close()


def map_with(form: str) -> ButtonMap:
    """The shipped button map with the official's view shown as ``form`` ("screen", "line")."""
    return parse_button_map(default_text().replace('view = "web"', f'view = "{form}"'), "buttons.toml")


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
        # What the official types is theirs (the page the table serves): the hall's scoreboard shows none of it.
        assert typed is not None and typed.notice is None
        assert "HOME #4 Green card" in b.loop.operator_view().entering
        _key(pygame.K_RETURN)
        b.loop.step()
        assert b.loop.session.match.events[-1].type == "penalty_awarded"
        _key(pygame.K_F11)  # the keys are on the official's view: not drawn over the hall's scoreboard
        b.loop.step()
        assert not screen.showing_help and b.loop.session.match.events[-1].type == "penalty_awarded"
    finally:
        table.close()


def test_the_help_lists_every_key_of_the_map() -> None:
    lines = help_lines(load_button_map().keys)
    assert "Space / F1: clock start" in lines and "Return / Enter: next" in lines
    assert lines[-1] == "F11 or ?: hide this help"


@contextmanager
def table_showing(tmp_path: Path, form: str) -> Iterator[tuple[PygameScreen, Board]]:
    """An ice-hockey table on mock pins whose pygame screen shows the official's view as ``form``."""
    from gpiozero.pins.mock import MockFactory

    screen = PygameScreen(map_with(form))
    table = open_table(TableOptions(rules="ice-hockey", court="1", journal=tmp_path, speed=0,
                                    factory=MockFactory()), screen=screen)
    try:
        yield screen, Board(table, None)  # type: ignore[arg-type]
    finally:
        table.close()
        screen.close()


def test_with_one_screen_the_official_s_line_is_small_and_plain_and_the_keys_show_on_f11(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    with table_showing(tmp_path, "line") as (screen, b):
        b.loop.step()
        frame = screen.board.frame
        assert frame is not None and frame.notice == ("operator", "F11 or ?: the keys and holds")  # the first minute
        _key(pygame.K_F7)  # a time-out: ice hockey in this tournament has none
        b.loop.step()
        frame = screen.board.frame
        assert frame is not None and frame.notice is not None and frame.notice[0] == "operator"  # never the red band
        assert frame.notice[1].startswith("Refused: ")
        _key(pygame.K_F11)
        b.loop.step()
        frame = screen.board.frame
        assert screen.showing_help and frame is not None
        assert any(line.startswith("NEXT; hold 1 s: end period") for line in frame.help_lines)  # holds too


def test_the_second_screen_shows_the_official_s_view_and_the_scoreboard_shows_none_of_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    with table_showing(tmp_path, "screen") as (screen, b):
        _key(pygame.K_SPACE, " ")
        b.loop.step()
        b.at(20.0)
        _key(pygame.K_F2)
        b.loop.step()
        _key(pygame.K_F10)  # UNDO: the clock's stop is taken back
        b.loop.step()
        shown = screen._operator
        assert shown is not None and shown.feedback is not None
        assert shown.feedback.text == "Undone: Clock stopped at 14:40 (period 1)"
        assert screen.board.frame is not None and screen.board.frame.notice is None
        window = screen.operator_window.get_surface()
        assert window.get_size() == (1024, 600)
        assert pygame.transform.average_color(window)[:3] != (0, 0, 0)  # drawn

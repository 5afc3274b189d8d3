"""The theme file: the shipped one loads; a wrong one is refused naming the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from display.theme import load_theme
from rules.errors import FileLineError


def test_shipped_theme_has_every_colour_and_its_fonts() -> None:
    theme = load_theme()
    assert theme["background"] == (0, 0, 0) and theme.bold_font.is_file() and theme.logo is None
    assert (theme.bold_font.parent / "LICENSE-DejaVu.txt").is_file()


def test_a_partial_theme_keeps_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "venue.toml"
    path.write_text('[colours]\nhome = "#00ff00"\n', encoding="utf-8")
    theme = load_theme(path)
    assert theme["home"] == (0, 255, 0) and theme["away"] == load_theme()["away"]


@pytest.mark.parametrize(("text", "where"), [
    ('[colours]\nhome = "green"\n', "colours.home"),
    ('[colours]\nglow = "#000000"\n', "colours.glow"),
    ('[fonts]\nbold = "Nope.ttf"\n', "fonts.bold"),
    ('[logo]\nfile = "missing.png"\n', "logo.file"),
    ('[sound]\n', "unknown section"),
    ('colours = [', "not valid TOML"),
])
def test_a_wrong_theme_is_refused_naming_the_key(tmp_path: Path, text: str, where: str) -> None:
    path = tmp_path / "venue.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(FileLineError, match=where) as err:
        load_theme(path)
    assert str(path) in str(err.value)


def test_the_logo_shows_between_matches_top_right(tmp_path: Path) -> None:
    import pygame

    from display.scoreboard import Scoreboard
    from tests.display_scenes import scene

    logo = pygame.Surface((200, 100))
    logo.fill((0, 255, 0))
    pygame.image.save(logo, str(tmp_path / "logo.png"))
    path = tmp_path / "venue.toml"
    path.write_text('[logo]\nfile = "logo.png"\n', encoding="utf-8")
    surface = pygame.Surface((1280, 720))
    Scoreboard(surface, load_theme(path)).draw(scene("indoor-hockey", "between").view)
    corner = surface.subsurface(pygame.Rect(1280 - 300, 0, 300, 76))
    assert pygame.mask.from_threshold(corner, (0, 255, 0), (8, 8, 8, 255)).count() > 1000  # scaled: near green
    Scoreboard(surface, load_theme(path)).draw(scene("indoor-hockey", "play").view)  # in play: no logo
    assert pygame.mask.from_threshold(surface, (0, 255, 0), (8, 8, 8, 255)).count() == 0

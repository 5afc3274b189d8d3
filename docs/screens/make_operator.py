"""Make docs/screens/operator-*.png: the table official's own view beside the hall's scoreboard, at the same
instant of a seed's hard passage played on a table with mock pins (tests/test_firmware_operator.py plays the same
passages), and the page the table serves, in Chromium at a phone's width.

    .venv/bin/python docs/screens/make_operator.py            # into docs/screens/
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import pygame

from display.operator_screen import OperatorScreen
from display.scoreboard import Scoreboard
from display.view import ScoreboardView
from firmware.operator_page import OperatorPage
from tests.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.firmware_support import Board, board
from tests.test_firmware_operator import Step, final, play

PASSAGES: dict[str, list[Step]] = {
    # Ice hockey: a major being typed after two coincidental minors, with a refused press just before.
    "ice-hockey": [Step(1, "press clock_start"), Step(60, "press clock_stop"), Step(61, "type 12"),
                   Step(62, "press penalty_home"), Step(63, "press next"), Step(64, "type 7"),
                   Step(65, "press penalty_away"), Step(66, "press next"), Step(67, "press clock_start"),
                   Step(200, "press clock_stop"), Step(201, "press timeout_home"), Step(202, "type 4"),
                   Step(203, "press penalty_away"), Step(204, "press mode")],
    # Water polo: the last minute, an exclusion running, the last press taken back.
    "water-polo": [Step(10, "press clock_start"), Step(20, "hold next"), Step(30, "press clock_start"),
                   Step(40, "hold next"), Step(50, "press clock_start"), Step(60, "hold next"),
                   Step(70, "press clock_start"), Step(430, "press clock_stop"), Step(431, "type 5"),
                   Step(432, "press penalty_home"), Step(433, "press next"), Step(434, "press clock_start"),
                   Step(440, "press clock_stop"), Step(441, "press undo")],
}


def venue_view(b: Board) -> ScoreboardView:
    """What the hall's screen is given at this instant (firmware.pygame_screen: no prompt, no notice)."""
    from dataclasses import replace

    return replace(b.loop.view(), prompt="", notices=())


def side_by_side(sport: str, b: Board, out: Path) -> Path:
    venue = pygame.Surface((1920, 1080))
    Scoreboard(venue).draw(venue_view(b))
    official = pygame.Surface((1024, 600))
    OperatorScreen(official).draw(b.loop.operator_view())
    picture = pygame.Surface((1920 + 40 + 1024, 1080))
    picture.fill((40, 40, 40))
    picture.blit(venue, (0, 0))
    picture.blit(official, (1960, 240))
    path = out / f"operator-{sport}-beside-the-scoreboard.png"
    pygame.image.save(picture, str(path))
    return path


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent)
    out = parser.parse_args().out
    pygame.init()
    with tempfile.TemporaryDirectory() as tmp:
        for sport, steps in PASSAGES.items():
            with board(Path(tmp) / sport, rules=sport) as b:
                if sport == "water-polo":
                    final(b, "Szolnok", "Eger")
                play(b, steps)
                print(side_by_side(sport, b, out))
                if sport == "water-polo":
                    phone(b, out)


def phone(b: Board, out: Path) -> None:
    from playwright.sync_api import sync_playwright

    page_server = OperatorPage("127.0.0.1", 0)
    try:
        page_server.show(b.loop.operator_view())
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
            page.goto(page_server.address)
            page.screenshot(path=str(out / "operator-page-phone.png"), full_page=True)
            print(out / "operator-page-phone.png")
            browser.close()
    finally:
        page_server.close()


if __name__ == "__main__":
    main()

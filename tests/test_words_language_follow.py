"""`courtside display follow` draws the court in the tournament file's language when no --language is given."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pygame

from display.snapshot import render
from display.view import Link, TeamLook
from rules.protocol import court_topic
from tests.display_scenes import scene
from tests.test_display_follow import TID, TOURNAMENT, live, publish, schedule


def test_a_slovak_tournament_file_gives_a_slovak_screen(mosquitto: Callable[..., Any], tmp_path: Path) -> None:
    broker = mosquitto()
    text = TOURNAMENT.read_text(encoding="utf-8")
    assert "\nlanguage" not in text
    slovak = tmp_path / TOURNAMENT.name  # the same stem: the same tournament id in the topics
    slovak.write_text(text.replace('ruleset = "indoor-hockey"', 'ruleset = "indoor-hockey"\nlanguage = "sk"', 1),
                      encoding="utf-8")
    view = scene("indoor-hockey", "last_minute").view  # the clock stopped: the frame does not move
    assert view.state is not None
    publish(broker.url, [(court_topic(TID, "hall-1", "schedule"), schedule()),
                         (court_topic(TID, "hall-1", "live"), live(view.state, view.ruleset))])
    out = tmp_path / "follow.png"
    done = subprocess.run(
        [sys.executable, "-m", "courtside", "display", "follow", "--court", "Hall 1", "--broker", broker.url,
         "--tournament", str(slovak), "--size", "1280x720", "--frames", "4", "--out", str(out)],
        env={**os.environ, "SDL_VIDEODRIVER": "dummy"}, capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.strip().splitlines()[-1])["refused"] == 0
    drawn = pygame.image.load(str(out))
    look = replace(view, home=TeamLook("Pembroke Wanderers"), away=TeamLook("Rot-Weiss Köln"), round="semi_final",
                   stage="SF1", link=Link(online=True))
    for language, same in (("sk", True), (None, False)):
        expected = render(replace(look, language=language), (1280, 720))
        equal = pygame.mask.from_threshold(drawn, (0, 0, 0), (1, 1, 1, 255), expected, 1).count() == 1280 * 720
        assert equal is same, language

"""Regenerate docs/screens/*.png: every phase of every sport at 1920x1080, drawn by the snapshot code.

Each example match (tests/display_scenes.py: played through the real engine) goes through the
same path as ``courtside display snapshot``: its state is written as JSON, read back with
``MatchState.from_dict`` and rendered off screen.

    .venv/bin/python docs/screens/make_screens.py            # into docs/screens/
    .venv/bin/python docs/screens/make_screens.py --out /tmp/screens --size 1280x720
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import replace
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from display.snapshot import parse_size, render, save
from display.view import Link, Notice, ScoreboardView
from rules.match import MatchState
from tests.display_scenes import scenes, top_scorers_of, with_not_eligible


def through_json(view: ScoreboardView) -> ScoreboardView:
    """The view with its state as the snapshot command reads it (replay's JSON)."""
    if view.state is None:
        return view
    return replace(view, state=MatchState.from_dict(json.loads(json.dumps(view.state.to_dict()))))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(Path(__file__).parent))
    parser.add_argument("--size", default="1920x1080")
    args = parser.parse_args()
    out, size = Path(args.out), parse_size(args.size)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for s in scenes():
        view = through_json(s.view)
        variants = {f"{s.sport}-{s.phase}": view}
        if s.sport == "water-polo" and s.phase == "play":
            # A single-screen venue (the button map's [operator] view = "line"): the official's line, small and
            # plain at the foot, and the link's offline mark; other venues show the official nothing here.
            variants["water-polo-play-operator-line-offline"] = replace(view, link=Link(online=False, waiting=12),
                                                                        notices=(Notice(
                "operator", "Refused: the clock is already running"),))
            variants["water-polo-play-recovered"] = replace(view, notices=(Notice("recovered", down_ms=263_000),))
        if s.phase == "pre_match" and s.sport in ("youth-football", "ice-hockey"):
            variants[f"{s.sport}-pre_match-not-eligible"] = with_not_eligible(view)
        if s.sport == "ice-hockey" and s.phase == "between" and view.between is not None:
            # The class's top scorers: the last page, after the tables' two at 1080p.
            variants["ice-hockey-between-scorers"] = replace(view, between=replace(
                view.between, scorers=top_scorers_of(s.sport), page=2))
        if s.sport == "ice-hockey" and s.phase == "play":
            variants["ice-hockey-play-help"] = replace(view, link=Link(online=False, waiting=3), help_lines=(
                "F1  start / stop the clock", "F2  goal home", "F3  goal away", "F4  penalty home",
                "F5  penalty away", "F6  time-out home", "F7  time-out away", "F8  horn", "F9  undo",
                "F10  next", "Enter  confirm the number", "H  this help"))
        for name, v in variants.items():
            path = out / f"{name}.png"
            save(render(v, size), str(path))
            written.append(path.name)
    print(f"wrote {len(written)} pictures to {out}")


if __name__ == "__main__":
    main()

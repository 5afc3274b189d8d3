"""The official's own view (issue 34): its cost to the table per frame, at 1080p.

A table with mock pins plays an ice-hockey match to 40 events (goals, penalties, clock stops, an undo); then,
frame by frame as the loop does at 20 frames a second while the clock runs, the view is built
(``TableLoop.operator_view``) and drawn on a 1920x1080 surface (display.operator_screen, drawn again only when the
view changed: every second while the clock runs, every frame in a down-clock's tenths) and the page's bytes made
(firmware.operator_page). Goal: under 2 ms per frame.

    .venv/bin/python -m bench.bench_operator
    .venv/bin/python -m bench.bench_operator --frames 200   # a quicker run
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame
from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

from display.operator_screen import OperatorScreen
from firmware.operator_page import page_html
from firmware.screen import HeadlessScreen
from firmware.table import TableOptions, open_table
from rules.match import ClockStarted, ClockStopped, Goal, PenaltyAwarded, Undo


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=1200)
    frames = parser.parse_args().frames
    pygame.init()
    with tempfile.TemporaryDirectory() as tmp:
        table = open_table(TableOptions(rules="ice-hockey", court="Rink", journal=Path(tmp), speed=0,
                                        factory=MockFactory()), screen=HeadlessScreen(echo=lambda _: None))
        loop = table.loop
        at = 0
        assert loop.apply(ClockStarted(at=at))
        while len(loop.session.match.events) < 40:  # a busy period: goals, penalties, stops and an undo
            at += 9_000
            for event in (Goal(at=at, team="home", player="9"), ClockStarted(at=at + 1),  # a goal stops it
                          PenaltyAwarded(at=at + 2, team="away", kind="minor", player="4"), ClockStopped(at=at + 3),
                          ClockStarted(at=at + 4)):
                assert loop.apply(event)
        assert loop.apply(Undo(at=at + 5, target=loop.session.match.events[-1].seq))
        assert loop.apply(ClockStarted(at=at + 6))
        screen = OperatorScreen(pygame.Surface((1920, 1080)))
        build, draw, page, total = [], [], [], []
        start_ms = at + 10  # the clock running, three penalties on the board
        warm = 100  # the fonts loaded and the board's words rendered once, as a running table has them
        for i in range(-warm, frames):
            now = start_ms + (i + warm) * 50  # 20 frames a second of match time
            state = loop.session.match.state_at(now)
            t0 = time.perf_counter()
            view = loop.operator_view(state)
            t1 = time.perf_counter()
            changed = screen.draw(view)
            t2 = time.perf_counter()
            page_html(view)
            t3 = time.perf_counter()
            if i < 0:
                continue
            build.append((t1 - t0) * 1000)
            if changed:
                draw.append((t2 - t1) * 1000)
            page.append((t3 - t2) * 1000)
            total.append((t3 - t0) * 1000)
        table.close()
    print(f"{frames} frames, {len(loop.session.match.events)} events in the log, 1920x1080")
    for name, values in (("view built", build), ("drawn (changed frames)", draw), ("page made", page),
                         ("per frame, all three", total)):
        print(f"{name:>24}: p50 {statistics.median(values):.3f} ms  mean {statistics.fmean(values):.3f} ms  "
              f"p99 {_pct(values, 0.99):.3f} ms  ({len(values)} frames)")


if __name__ == "__main__":
    main()

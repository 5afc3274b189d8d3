"""Screen benchmark: the cost of one scoreboard frame at 1920x1080, against the 16.7 ms of a 60 Hz screen.

Three frames, each drawn many times on SDL's dummy video driver (the drawing is the same
software blitting the Pi does into its KMS/DRM framebuffer; the flip to the screen is not
counted, it is the driver's):

- clock: only the clock moved (the usual frame while play runs: one part repainted from
  glyphs already made; the content of the frame is still worked out from the whole state);
- everything: score, names, period, clock, penalties, time-outs and notices all differ
  from the previous frame (two ice-hockey views alternate; their text is cached after the
  first round, as it is in a match, where names and labels repeat);
- everything, cold: the same, but with every text cache emptied first (the first frame
  after a match is loaded).

    .venv/bin/python -m bench.bench_display
    .venv/bin/python -m bench.bench_display --size 3840x2160 --frames 500
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from dataclasses import replace

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

from display.scoreboard import Scoreboard
from display.snapshot import parse_size
from display.view import Link, Notice, ScoreboardView, TeamLook
from tests.display_scenes import scene

BUDGET_MS = 1000 / 60


def timings(frames: int, step: Callable[[int], None]) -> tuple[list[float], list[float]]:
    """(CPU ms, wall ms) of each frame. CPU time is the figure: this machine's cores are shared,
    and a frame preempted by another process costs the Pi nothing of that."""
    cpu, wall = [], []
    for i in range(frames):
        c0, w0 = time.thread_time(), time.perf_counter()
        step(i)
        cpu.append((time.thread_time() - c0) * 1000)
        wall.append((time.perf_counter() - w0) * 1000)
    return cpu, wall


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def report(name: str, runs: tuple[list[float], list[float]]) -> None:
    cpu, wall = runs
    p50, p99 = statistics.median(cpu), pct(cpu, 0.99)
    print(f"{name:<18} CPU p50 {p50:6.3f} ms  p99 {p99:6.3f} ms  | wall p50 {statistics.median(wall):6.3f} ms  "
          f"p99 {pct(wall, 0.99):6.3f} ms  | p50 = {p50 / BUDGET_MS:5.1%} of 16.7 ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="1920x1080")
    parser.add_argument("--frames", type=int, default=2_000)
    args = parser.parse_args()
    size = parse_size(args.size)
    pygame.display.init()
    surface = pygame.display.set_mode(size)
    board = Scoreboard(surface)

    base = scene("ice-hockey", "play").view
    assert base.state is not None
    state = base.state
    board.draw(base)

    def clock_only(i: int) -> None:
        # A new clock value every frame (as in the last minute, where tenths change at 10 Hz).
        clock = 59_900 - 100 * (i % 590)
        changed = board.draw(replace(base, state=replace(state, clock_ms=clock, tenths=True)))
        assert len(changed) == 1

    other = scene("ice-hockey", "last_minute").view
    assert other.state is not None
    views: list[ScoreboardView] = [
        replace(base, notices=(Notice("refused", "the clock is already running"),), link=Link(False, 3)),
        replace(other, home=TeamLook("Bears AA"), away=TeamLook("Sharks A"), stage="B",
                state=replace(other.state, home_goals=7, away_goals=5, clock_ms=other.state.clock_ms,
                              home_timeouts_left=0, penalties=state.penalties)),
    ]

    def everything(i: int) -> None:
        board.draw(views[i % 2])

    def cold(i: int) -> None:
        board.type._texts.clear()
        board.type._glyphs.clear()
        board.draw(views[i % 2])

    print(f"scoreboard frame at {size[0]}x{size[1]}, {args.frames} frames each, SDL {pygame.get_sdl_version()}")
    report("clock only", timings(args.frames, clock_only))
    board.draw(views[1])
    report("everything", timings(args.frames, everything))
    report("everything, cold", timings(max(20, args.frames // 20), cold))
    pygame.display.quit()


if __name__ == "__main__":
    main()

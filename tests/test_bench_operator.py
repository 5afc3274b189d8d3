"""bench/bench_operator.py run small (CI runs a short version of each benchmark): it prints each figure it claims."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_a_short_run_times_the_view_the_drawing_and_the_page_per_frame() -> None:
    out = subprocess.run([sys.executable, "-m", "bench.bench_operator", "--frames", "60"], cwd=ROOT,
                         env={**os.environ, "SDL_VIDEODRIVER": "dummy"}, capture_output=True, text=True, timeout=300,
                         check=True).stdout
    assert "60 frames, 43 events in the log, 1920x1080" in out
    for figure in ("view built", "drawn (changed frames)", "page made", "per frame, all three"):
        assert f"{figure}: p50 " in out

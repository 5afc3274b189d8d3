"""bench/bench_match_page.py run small: its busy match is one the engine takes, and it prints each figure it claims."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bench.bench_match_page import busy_match
from rules import Match
from rules.ruleset import load_ruleset

ROOT = Path(__file__).resolve().parents[1]


def test_the_busy_match_has_its_events_goals_exclusions_and_time_outs() -> None:
    events = busy_match(120, "round_robin", "pool")
    assert len(events) == 120
    assert {"goal", "penalty_awarded", "clock_started"} <= {e.type for e in events}
    Match.replay(load_ruleset("water-polo"), events)  # the engine takes every one again


def test_the_benchmark_runs_and_prints_its_figures() -> None:
    out = subprocess.run([sys.executable, "-m", "bench.bench_match_page", "--events", "60", "--runs", "2"],
                         capture_output=True, text=True, timeout=300, check=True, cwd=ROOT).stdout
    assert out.startswith("60 events, ")
    for name in ("match region, timeline afresh", "match region, timeline kept", "report PDF"):
        assert name in out

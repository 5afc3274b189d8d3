"""bench/bench_cup_classes.py and bench/cup.py's cup of classes, run small: the benchmark's cup is a valid file
whose classes keep to their pitches, and the benchmark prints each figure it claims."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bench.cup import classes_cup_toml
from rules.tournament.cup import parse_cup

ROOT = Path(__file__).resolve().parents[1]


def test_the_generated_cup_of_classes_is_a_valid_file_on_two_sizes_of_pitch() -> None:
    cup = parse_cup(classes_cup_toml(teams=128, classes=4, small=4, large=6), "cup.toml")
    assert [c.name for c in cup] == ["P10", "F10", "P12", "F12"]
    assert [c.published for c in cup] == [False, False, True, True]
    small, large = cup.classes[0].tournament, cup.classes[3].tournament
    assert small.schedule.courts == [f"7v7 Pitch {n}" for n in range(1, 5)]
    assert large.schedule.courts == [f"11v11 Pitch {n}" for n in range(1, 7)]
    assert len(large.teams) == 32 and len(large.pools) == 8
    # An A and a B play-off: 7 matches each for 8 pools' winners and runners-up, each a final at the end.
    assert len(large.matches) == 14 and [m.round for m in large.matches].count("final") == 2


def test_the_benchmark_runs_and_prints_its_figures() -> None:
    out = subprocess.run([sys.executable, "-m", "bench.bench_cup_classes", "--teams", "64", "--classes", "4",
                          "--repeat", "1"], capture_output=True, text=True, timeout=300, check=True, cwd=ROOT).stdout
    assert "64 teams in 4 classes, 110 pitches (11v11, 7v7)" in out
    assert "drawing and scheduling:" in out and "the service ready" in out and "peak memory" in out

"""bench/bench_cup_live.py, small: a cup of classes with results stored and every court's match under way, pages
open on the instance's fan-out, and live states court after court: the benchmark prints each part of a state's
cost, and fails unless every open page ends holding the newest state of each of its regions."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_open_page_ends_with_the_newest_state_and_the_benchmark_prints_each_part_of_its_cost() -> None:
    out = subprocess.run([sys.executable, "-m", "bench.bench_cup_live", "--teams", "128", "--classes", "4",
                          "--courts", "10", "--stored", "100", "--viewers", "60", "--states", "24",
                          "--per-round", "3", "--results", "4"],
                         capture_output=True, text=True, timeout=300, check=True, cwd=ROOT).stdout
    assert "128 teams in 4 classes on 10 pitches, 100 results stored, 60 pages open, 24 live states, 3 a round" in out
    live, results = out.split("then 4 results, one a round: CPU ms per result, median (worst)\n")
    for part in ("loop", "round", "in all"):
        assert re.search(rf"^  {part} +[\d.]+ \( *[\d.]+\)$", live, re.M), out
        assert re.search(rf"^  {part} +[\d.]+ \( *[\d.]+\)$", results, re.M), out
    writes = re.search(r"^([\d.]+) writes to pages per live state; every open page holds the newest state", out,
                       re.M)
    assert writes is not None and float(writes.group(1)) > 1, out  # a court's page and the home pages, at least

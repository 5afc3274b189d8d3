"""bench/bench_cup_result.py, small: a cup of classes fed through the service's message path into its play-offs,
and the benchmark prints each part of a new result's cost that docs/benchmarks.md quotes."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_benchmark_stores_every_result_it_sends_and_prints_each_part_of_its_cost() -> None:
    # 128 teams in 4 classes: 192 pool matches, so the 200 stored and the 3 timed are play-off results.
    out = subprocess.run([sys.executable, "-m", "bench.bench_cup_result", "--teams", "128", "--classes", "4",
                          "--courts", "10", "--stored", "200", "--results", "3", "--statements", "--cards"],
                         capture_output=True, text=True, timeout=300, check=True, cwd=ROOT).stdout
    assert "128 teams in 4 classes on 10 pitches, 200 results stored, the next 3 one at a time" in out, out
    for part in ("loop", "publishing", "snapshot", "its page", "in all"):
        assert re.search(rf"^  {part} +[\d.]+ \( *[\d.]+\)$", out, re.M), out
    # The round trips each part makes, counted: a result's insert at least in the loop, one connection for the
    # publishing and one for the snapshot.
    counted = dict(re.findall(r"^  (loop|publishing|snapshot) +([\d.]+) statements +[\d.]+ checkouts$", out, re.M))
    assert set(counted) == {"loop", "publishing", "snapshot"} and float(counted["loop"]) >= 1, out
    assert re.search(r"^  publishing +[\d.]+ statements +1\.0 checkouts$", out, re.M), out
    assert re.search(r"^  snapshot +[\d.]+ statements +1\.0 checkouts$", out, re.M), out
    # Each statement the timed parts ran, by part: the new result's insert in the loop among them.
    assert re.search(r"^SQL statements, wall ms per result \([\d.]+ in all\):$", out, re.M), out
    assert re.search(r"^ +[\d.]+  loop +INSERT INTO results ", out, re.M), out

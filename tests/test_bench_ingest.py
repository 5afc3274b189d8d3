"""bench/bench_ingest.py, small: it feeds the loop's own message path and prints the figures
docs/benchmarks.md quotes (the campaign is the command there, not a test)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_ingest_bench_prints_a_cost_per_event_and_result_for_each_batch_size() -> None:
    out = subprocess.run([sys.executable, "-m", "bench.bench_ingest", "--pools", "2", "--batch", "1", "20"],
                         capture_output=True, text=True, timeout=240, cwd=ROOT, check=True).stdout
    for batch in (1, 20):
        assert re.search(rf"batches of {batch}: \d+ us an event, \d+ us a result; then 2 tables and 4 schedules "
                         r"published in [\d.]+ ms", out), out

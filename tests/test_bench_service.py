"""bench/bench_service.py, small: it runs against a real Mosquitto and server and prints every figure
docs/benchmarks.md quotes (the campaign itself is the command there, not a test)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_service_bench_prints_acked_ranked_cpu_and_latency_figures() -> None:
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_service.py"), "--pools", "4", "--latency", "3"],
                         capture_output=True, text=True, timeout=240, cwd=ROOT, check=True).stdout
    assert re.search(r"events .*: \d+ published .*bare paho subscriber [\d,]+/s; service [\d,]+/s acked", out)
    assert re.search(r"results .*: 57 published .*service [\d,]+/s acked after commit = \d+%; service CPU", out)
    assert re.search(r"results ranked: every pool's table showing all its results received after [\d,]+ ms = "
                     r"[\d,]+ results/s \(goal: at least 2,000/s: (met|NOT met)\)", out), out
    assert re.search(r"CPU: broker [\d.]+ s, bench's clients [\d.]+ s, service [\d.]+ s", out)
    assert re.search(r"latency: .*3 matches: p50 [\d.]+ ms, p99 [\d.]+ ms \(goal: p99 under 50 ms: (met|NOT met)\)",
                     out)

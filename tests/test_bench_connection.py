"""bench/bench_connection.py, small: against a real Mosquitto it prints the two figures docs/benchmarks.md
quotes (the campaign itself is the command there, not a test)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_connection_bench_prints_what_reading_and_publishing_a_message_cost() -> None:
    out = subprocess.run([sys.executable, "-m", "bench.bench_connection", "--messages", "200", "--runs", "1"],
                         capture_output=True, text=True, timeout=120, cwd=ROOT, check=True).stdout
    assert re.fullmatch(r"200 messages: read with its PUBACK [\d.]+ us CPU a message; "
                        r"an ack published \(QoS 0\) [\d.]+ us\n", out), out

"""The service's loop in-process, per message, by batch size (docs/benchmarks.md, "Service").

No broker and no paho thread: the bench's generated tournament (bench_service.tournament_file) on a temporary
SQLite file, every match's events and then its result fed to the loop's own message path
(``Service._messages``, what the loop runs for each batch it takes from its queue) in batches of N, then one
publishing of every changed pool's table and court's schedule into a client that is never connected. A
service that keeps up with its tables takes small batches, so the cost of a one-message batch is what each
message costs it then. Times are the process's CPU time (``time.process_time``), which the other work on a
shared machine disturbs far less than the clock on the wall.

    .venv/bin/python -m bench.bench_ingest [--pools 64] [--batch 1 5 20 200]
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import sys
import tempfile
import time
import uuid
from pathlib import Path

from bench.bench_service import played, tournament_file
from rules import protocol as p
from server.plan import Plan, load_plan
from server.service import Service
from server.store import Store


def messages(plan: Plan) -> tuple[list[tuple[str, bytes]], list[tuple[str, bytes]]]:
    """Every match's events, then every match's result, as a table sends them (topic, payload)."""
    events: list[tuple[str, bytes]] = []
    results: list[tuple[str, bytes]] = []
    t = plan.id
    for n in sorted(plan.fixtures, key=int):
        court = plan.court_id(plan.fixtures[n].court)
        lines, result = played(int(n))
        events += [(p.court_topic(t, court, "events"),
                    p.encode(p.event_message(id=uuid.uuid4().hex, court=court, match=n, event=e))) for e in lines]
        results.append((p.court_topic(t, court, "result"), p.encode(p.result_message(
            id=uuid.uuid4().hex, court=court, match=n, seq=lines[-1]["seq"], result=result))))
    return events, results


def run(pools: int, batch: int) -> tuple[float, float, float]:
    """CPU microseconds per event and per result in batches of ``batch``, and CPU milliseconds of the publishing."""
    folder = Path(tempfile.mkdtemp(prefix="bench-ingest-"))
    plan = load_plan(tournament_file(folder, pools, max(4, pools // 2)))
    store = Store.open(f"sqlite:///{folder / 'bench.db'}", plan)
    service = Service(store, "mqtt://127.0.0.1:9")  # never connected: what it publishes stays queued in paho
    events, results = messages(plan)
    gc.freeze()  # as `courtside server` does once it has started
    changed: tuple[set[str], set[str]] = (set(), set())
    started = time.process_time()
    for i in range(0, len(events), batch):
        service._messages(events[i:i + batch], *changed)
    between = time.process_time()
    for i in range(0, len(results), batch):
        service._messages(results[i:i + batch], *changed)
    ingested = time.process_time()
    service.publishing.changes(*changed)
    done = time.process_time()
    store.close()
    return ((between - started) * 1e6 / len(events), (ingested - between) * 1e6 / len(results),
            (done - ingested) * 1e3)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pools", type=int, default=64)
    ap.add_argument("--batch", type=int, nargs="+", default=[1, 5, 20, 200])
    args = ap.parse_args()
    for batch in args.batch:
        # The loop's log lines still cost what they cost (journald takes them from stderr), but not on screen.
        with open(os.devnull, "w") as quiet, contextlib.redirect_stderr(quiet):
            per_event, per_result, publish = run(args.pools, batch)
        print(f"batches of {batch}: {per_event:.0f} us an event, {per_result:.0f} us a result; then "
              f"{args.pools} tables and {max(4, args.pools // 2)} schedules published in {publish:.1f} ms (CPU)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

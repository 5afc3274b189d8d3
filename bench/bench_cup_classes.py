"""A cup of classes on shared pitches (issue 32): reading and checking its file, drawing every class, one schedule
for them all, and the service made ready on it.

    .venv/bin/python -m bench.bench_cup_classes [--teams 2048] [--classes 8] [--repeat 3]

Generates the cup (bench/cup.py ``classes_cup_toml``: half the classes on 50 small pitches, half on 60 large ones,
pools of four, an A and a B play-off each; about 4,000 matches over three days), then times ``parse_cup`` (the
file read and every field and cross-reference checked), ``draw_classes`` and ``plan_cup`` (draw and schedule).
Then, in the same process, the service's start on a fresh SQLite file: the plan loaded from the file
(``load_plan``), the store opened with its fixtures written (``Store.open``), and the pages' first snapshot
(``ServiceBackend.data()`` on a Service never connected to a broker); and the process's peak memory (max RSS).
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_schedule import best_of
from bench.cup import classes_cup_toml
from rules.tournament.cup import load_cup_rulesets, parse_cup
from rules.tournament.cup_plan import draw_classes, plan_cup

T = TypeVar("T")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--teams", type=int, default=2048)
    parser.add_argument("--classes", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    text = classes_cup_toml(teams=args.teams, classes=args.classes)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "cup.toml"
        path.write_text(text, encoding="utf-8")
        read, cup = best_of(args.repeat, lambda: parse_cup(text, str(path)))
        rulesets = load_cup_rulesets(cup, str(path))
        drawn, _ = best_of(args.repeat, lambda: draw_classes(cup, str(path)))
        both, plan = best_of(args.repeat, lambda: plan_cup(cup, rulesets, str(path)))
        matches = plan.schedule.matches
        sizes = sorted({m.court.split()[0] for m in matches})
        print(f"{args.teams} teams in {len(cup.classes)} classes, {len(cup.schedule.courts)} pitches "
              f"({', '.join(sizes)}), {len(matches)} matches over "
              f"{len({m.start.date() for m in matches})} days (best of {args.repeat}):")
        print(f"  reading and checking the file ({len(text) // 1024} KB): {read * 1000:.0f} ms")
        print(f"  drawing every class: {drawn * 1000:.0f} ms; drawing and scheduling: {both:.2f} s")

        from server.plan import load_plan
        from server.service import Service
        from server.store import Store
        from server.web.service_backend import ServiceBackend

        started = time.perf_counter()
        store = Store.open(f"sqlite:///{tmp}/courtside.db", load_plan(path))
        backend = ServiceBackend(Service(store, "mqtt://127.0.0.1:1", group=None))  # never started: no broker
        data = backend.data()
        ready = time.perf_counter() - started
        store.close()
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"  the service ready (plan, store with {len(data.schedule.matches)} fixtures, first snapshot): "
              f"{ready:.2f} s; peak memory of the process: {peak:.0f} MB")


if __name__ == "__main__":
    main()

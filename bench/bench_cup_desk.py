"""What a result costs the service as a big cup's day goes on (issue 32): a desk write, then the first snapshot the
pages build after it, after few results and after many.

    .venv/bin/python -m bench.bench_cup_desk [--teams 2048] [--courts 110] [--marks 40,640,3000] [--db URL]
                                             [--classes 8]

Generates the cup (bench/cup.py: pools of four; with ``--classes``, a cup of that many classes), opens the
service's store on a temporary SQLite file (or --db), and enters pool results at the desk (server.desk_commands, as
the service's loop runs them: checked and stored in one transaction) up to each mark. At each mark it times ten
more writes and the snapshot after each one (ServiceBackend.data(), the pages' first read after a change), on a
Service that is never connected to a broker: only the loop's desk path and the pages' reads are timed. Prints the
median and the worst of the ten, what the service's loop then publishes (the pool's table, the schedules of the
courts the write changed), the first page after each write (its pool's, read through the web app,
the snapshot included) and the home page after that; then, after ten more writes, what reading the desk's change
log costs the snapshot:
its newest 200 read again, as before, or followed (server.change_log).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from starlette.testclient import TestClient

from bench.cup import classes_cup_toml, cup_toml, pitches
from rules.standings import MatchResult
from server import queries
from server.change_log import ChangeLog
from server.desk import Affected
from server.desk_commands import CorrectResult, DeskCommands
from server.plan import load_plan
from server.rulings import Rulings
from server.service import Service
from server.store import Store
from server.web import create_app
from server.web.service_backend import ServiceBackend


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--teams", type=int, default=2048)
    parser.add_argument("--courts", type=int, default=110)
    parser.add_argument("--marks", default="40,640,3000")
    parser.add_argument("--db", default="")
    parser.add_argument("--classes", type=int, default=0)
    args = parser.parse_args()
    marks = [int(x) for x in args.marks.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "cup.toml"
        path.write_text(classes_cup_toml(teams=args.teams, classes=args.classes, **pitches(args.courts))
                        if args.classes else cup_toml(teams=args.teams, courts=args.courts), encoding="utf-8")
        started = time.perf_counter()
        plan = load_plan(path)
        store = Store.open(args.db or f"sqlite:///{Path(tmp) / 'cup.db'}", plan)
        print(f"{args.teams} teams, {len(plan.fixtures)} matches on {args.courts} pitches: plan and store in "
              f"{time.perf_counter() - started:.1f} s")
        service = Service(store, "mqtt://127.0.0.1:1", group=None)  # never started: no broker is needed
        backend = ServiceBackend(service)
        commands = DeskCommands(store, Rulings(store.engine))
        pool = [m for m in sorted(plan.fixtures.values(), key=lambda m: m.number) if m.round == "pool"]
        entered = 0
        log = ChangeLog(store)

        def enter() -> Affected:
            """The next pool match's result (its teams are read where it is stored: server.desk_commands)."""
            nonlocal entered
            m = pool[entered]
            affected = commands.run(CorrectResult(who="bench", why="sheet", number=m.number, confirmed=True,
                                                  result=MatchResult(pool=m.stage, home=m.home, away=m.away,
                                                                     home_goals=entered % 4, away_goals=entered % 3)))
            entered += 1
            return affected

        def publish(affected: Affected) -> None:
            """What the service's loop then sends: the pool's table, the schedules of the courts it changed."""
            courts = set(affected.courts) | (set(plan.courts) if affected.all_courts else set())
            service.publishing.changes(set(affected.pools), courts)

        client = TestClient(create_app(backend, lang="en", secure_cookies=False))
        for mark in marks:
            while entered < mark:
                enter()
            # The pages have read all along at a venue: the first snapshot at the mark is not timed (it catches up
            # with every result the loop above entered without one).
            backend._changed(set(), set())
            backend.data()
            client.get("/")
            writes, publishing, snapshots, pool_pages, home_pages = [], [], [], [], []
            for _ in range(10):
                t0 = time.perf_counter()
                stage = pool[entered].stage
                affected = enter()
                t1 = time.perf_counter()
                backend._changed(set(), set())  # what the service's loop tells the pages after a desk write
                backend.data()
                t2 = time.perf_counter()
                assert client.get(f"/pool/{stage}").status_code == 200  # the first page after it: its pool's
                t3 = time.perf_counter()
                assert client.get("/").status_code == 200  # and the next, the home page
                t4 = time.perf_counter()
                publish(affected)  # after the pages, as before this was timed: the progress is the snapshot's
                publishing.append((time.perf_counter() - t4) * 1000)
                writes.append((t1 - t0) * 1000)
                snapshots.append((t2 - t1) * 1000)
                pool_pages.append((t3 - t1) * 1000)
                home_pages.append((t4 - t3) * 1000)
            print(f"after {mark:>5} results: desk write {_ms(writes)}, first snapshot after it {_ms(snapshots)}")
            print(f"{'':>20}  the loop's publishing after it {_ms(publishing)}")
            print(f"{'':>20}  the first page after it (the pool's, the snapshot included) {_ms(pool_pages)}, "
                  f"the home page next {_ms(home_pages)}")
            whole, followed = [], []
            for _ in range(10):  # the desk's change log: its newest 200 read again, or followed (server.change_log)
                enter()
                t0 = time.perf_counter()
                queries.change_log(store)
                t1 = time.perf_counter()
                log.catch_up()
                whole.append((t1 - t0) * 1000)
                followed.append((time.perf_counter() - t1) * 1000)
            print(f"{'':>20}  the change log after a write: its newest 200 read {statistics.median(whole):5.2f} ms, "
                  f"followed {statistics.median(followed):5.2f} ms")
        client.close()
        store.close()


def _ms(figures: list[float]) -> str:
    return f"{statistics.median(figures):6.1f} ms (worst {max(figures):6.1f})"


if __name__ == "__main__":
    main()

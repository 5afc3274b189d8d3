"""What a table's new result costs the service in a big cup late in its day (issue 32's goal: "with 3,500 results
already stored, a new result costs the service under 20 ms of CPU").

    .venv/bin/python -m bench.bench_cup_result [--teams 2048] [--classes 8] [--courts 110] [--stored 3500]
                                               [--results 20] [--postgres]

Generates the cup of classes (bench/cup.py), opens the service's store on a temporary SQLite file (or, with
``--postgres``, a fresh database on 127.0.0.1:5432, dropped at the end), and feeds ``--stored`` matches' events
and results to the service's own message path (``Service._messages``, what its loop runs for each batch), pool
matches first and then the play-offs in their order, as the tables send them (the engine plays each match). Then,
one at a time, the next ``--results`` matches: their events (not timed: they come in over the match), then their
result alone, as a table sends it, and what the service does for it:

- the loop's batch: the result checked against its stored events, stored and acknowledged;
- the publishing: its pool's table (the class's progress worked out again) and the schedules of the courts it
  changed (``server.publishing.Publishing.changes``);
- the pages: the snapshot after it (``ServiceBackend.data()``) and the first page read after it (its pool's page,
  or a play-off match's bracket, through the web app).

Times are this process's CPU time (``time.process_time``), which other work on a shared machine disturbs far less
than the wall clock; the service is never connected to a broker (what it publishes stays queued in paho).

``--cards`` gives a yellow card in every tenth match and a red in every fortieth (the classes whose rulesets have
them): the register of suspensions then works after every result.

With ``BENCH_PROFILE=FILE`` in the environment the timed part's cProfile, timed by the process's CPU time as
the figures are (the database's wait left out), is written to FILE.

``--statements`` also counts the statements each timed part ran and the connections it took from the pool (on
PostgreSQL each checkout is a ping and its return a rollback: two round trips more), per result: figures that do
not move with the machine's speed. Then it lists each statement with its wall time per result (the database's own
time included, which the CPU figures leave out on PostgreSQL), the slowest first.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import gc
import os
import re
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

from sqlalchemy import event, text
from starlette.testclient import TestClient

from bench.cup import classes_cup_toml, pitches
from bench.postgres import fresh_database
from rules import protocol as p
from rules.match import Side
from rules.tournament.schedule import ScheduledMatch
from server.plan import Plan, load_plan
from server.service import Service
from server.store import Store
from server.web import create_app
from server.web.service_backend import ServiceBackend
from tests.service_support import played

Message = tuple[str, bytes]


def match_messages(plan: Plan, m: ScheduledMatch, n: int, cards: bool = False) -> tuple[list[Message], Message]:
    """A match's events and its result as its court's table sends them; a knock-out is won by one goal. With
    ``cards``, where the class's ruleset has them, a yellow card in every tenth match and a red in every fortieth."""
    court = plan.court_id(m.court)
    knockout = m.round != "pool"
    home, away = (n % 3 + 1, n % 3) if knockout else (n % 4, n % 3)
    ruleset = plan.ruleset_of(m.stage)
    given: list[tuple[Side, str, str]] = []
    if cards and "yellow" in ruleset.penalties.kinds and n % 10 == 0:
        given.append(("home", "yellow", str(n % 11 + 2)))
    if cards and "red" in ruleset.penalties.kinds and n % 40 == 5:
        given.append(("away", "red", "9"))
    lines, result = played(ruleset, home, away, kind="knockout" if knockout else "round_robin", round=m.round,
                           cards=given)
    events = [(p.court_topic(plan.id, court, "events"),
               p.encode(p.event_message(id=uuid.uuid4().hex, court=court, match=str(m.number), event=e)))
              for e in lines]
    return events, (p.court_topic(plan.id, court, "result"), p.encode(p.result_message(
        id=uuid.uuid4().hex, court=court, match=str(m.number), seq=lines[-1]["seq"], result=result)))


def in_playing_order(plan: Plan) -> list[ScheduledMatch]:
    """The pools' matches by their time, then the play-offs' (whose teams the pools decide) by theirs."""
    return sorted(plan.fixtures.values(), key=lambda m: (m.round != "pool", m.start, m.number))


@contextlib.contextmanager
def cpu_ms(into: list[float], times: StatementTimes | None = None, part: str | None = None) -> Iterator[None]:
    if times is not None:
        times.part = part
    started = time.process_time()
    yield
    into.append((time.process_time() - started) * 1000)
    if times is not None:
        times.part = None


class StatementTimes:
    """Each statement's wall time in the part being timed, summed by (part, statement); and each part's statements
    and checkouts counted."""

    def __init__(self, store: Store) -> None:
        self.part: str | None = None
        self.times: dict[tuple[str, str], float] = {}
        self.counts: dict[tuple[str, str], int] = {}  # (part, "statements" or "checkouts") -> how many
        event.listen(store.engine, "before_cursor_execute", self._before)
        event.listen(store.engine, "after_cursor_execute", self._after)
        event.listen(store.engine, "checkout", self._checkout)

    def _count(self, what: str) -> None:
        if self.part is not None:
            self.counts[(self.part, what)] = self.counts.get((self.part, what), 0) + 1

    def _checkout(self, *_a: Any) -> None:
        self._count("checkouts")

    def _before(self, conn: Any, *_a: Any) -> None:
        conn.info["started"] = time.perf_counter()

    def _after(self, conn: Any, _cursor: Any, statement: str, *_a: Any) -> None:
        self._count("statements")
        if self.part is not None:
            key = (self.part, re.sub(r"\b\d+\b", "N", " ".join(statement.split()))[:100])  # values written in
            self.times[key] = self.times.get(key, 0.0) + time.perf_counter() - conn.info["started"]


def run(teams: int, classes: int, courts_in_all: int, stored: int, results: int, db: str, folder: Path,
        statements: bool = False, cards: bool = False) -> tuple[dict[str, list[float]], StatementTimes | None]:
    cup = folder / "cup.toml"
    cup.write_text(classes_cup_toml(teams=teams, classes=classes, **pitches(courts_in_all)), encoding="utf-8")
    plan = load_plan(cup)
    store = Store.open(db or f"sqlite:///{folder / 'cup.db'}", plan)
    service = Service(store, "mqtt://127.0.0.1:9", group=None)  # never connected
    times = StatementTimes(store) if statements else None
    backend = ServiceBackend(service)
    client = TestClient(create_app(backend, lang="en", secure_cookies=False))
    order = in_playing_order(plan)
    if stored + results > len(order):
        raise SystemExit(f"the cup has {len(order)} matches: --stored plus --results is more")
    pools: set[str] = set()
    courts: set[str] = set()
    batch: list[Message] = []
    for n, m in enumerate(order[:stored]):
        events, result = match_messages(plan, m, n, cards)
        batch += [*events, result]
        if len(batch) >= 400 or n == stored - 1:
            service._messages(batch, pools, courts)
            batch = []
    service.publishing.changes(pools, courts)
    if store.engine.dialect.name == "postgresql":
        # As autovacuum does over a day: tables filled at once have no statistics, and the planner read every
        # event of the day for the ten new ones above the last id seen.
        with store.engine.begin() as c:
            c.execute(text("ANALYZE"))
    backend.data()
    client.get("/")
    gc.collect()
    gc.freeze()  # as `courtside server` does once it has started
    figures: dict[str, list[float]] = {"loop": [], "publishing": [], "snapshot": [], "its page": []}
    with profiled():
        for n, m in enumerate(order[stored:stored + results], start=stored):
            events, result = match_messages(plan, m, n, cards)
            pools, courts = set(), set()
            service._messages(events, pools, courts)
            service.publishing.changes(pools, courts)
            backend.data()
            pools, courts = set(), set()
            with cpu_ms(figures["loop"], times, "loop"):
                service._messages([result], pools, courts)
            with cpu_ms(figures["publishing"], times, "publishing"):
                service.publishing.changes(pools, courts)
            with cpu_ms(figures["snapshot"], times, "snapshot"):
                backend.data()
            page = f"/pool/{quote(m.stage)}" if m.round == "pool" else f"/bracket?class={quote(m.class_name)}"
            with cpu_ms(figures["its page"]):
                assert client.get(page).status_code == 200, page
    client.close()
    with store.session() as s:
        stored_now = len(store.results_by_match(s))
    store.close()
    if stored_now != stored + results:
        raise SystemExit(f"{stored_now} results stored, not {stored + results}: the service refused some")
    return figures, times


@contextlib.contextmanager
def profiled() -> Iterator[None]:
    """The timed part's cProfile, into the file BENCH_PROFILE names (if it does): for looking into a figure."""
    into = os.environ.get("BENCH_PROFILE")
    if into is None:
        yield
        return
    profile = cProfile.Profile(time.process_time)  # CPU time, as the figures: not the database's wait
    profile.enable()
    try:
        yield
    finally:
        profile.disable()
        profile.dump_stats(into)


def cup_arguments(ap: argparse.ArgumentParser, stored: int) -> None:
    """The cup's size, the results stored before the timed part, and the database: the cup benchmarks' own."""
    ap.add_argument("--teams", type=int, default=2048)
    ap.add_argument("--classes", type=int, default=8)
    ap.add_argument("--courts", type=int, default=110)
    ap.add_argument("--stored", type=int, default=stored)
    ap.add_argument("--postgres", action="store_true", help="a fresh PostgreSQL database, not a SQLite file")


@contextlib.contextmanager
def cup_database(postgres: bool, name: str) -> Iterator[tuple[str, Path]]:
    """A fresh PostgreSQL database (``name``, dropped at the end) or "" for a SQLite file in the folder; a
    temporary folder; the service's log lines (stderr) left out of the figures."""
    database = fresh_database(name) if postgres else contextlib.nullcontext("")
    with tempfile.TemporaryDirectory() as tmp, open(os.devnull, "w") as quiet, contextlib.redirect_stderr(quiet), \
            database as db:
        yield db, Path(tmp)


def print_parts(figures: dict[str, list[float]], width: int, digits: int) -> None:
    """Each part's median (worst), then their sum's."""
    total = [sum(parts) for parts in zip(*figures.values(), strict=True)]
    for name, values in [*figures.items(), ("in all", total)]:
        print(f"  {name:<{width}} {statistics.median(values):6.{digits}f} ({max(values):6.{digits}f})")


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    cup_arguments(ap, stored=3500)
    ap.add_argument("--results", type=int, default=20)
    ap.add_argument("--statements", action="store_true", help="each SQL statement's wall time per result")
    ap.add_argument("--cards", action="store_true", help="a yellow card every tenth match, a red every fortieth")
    args = ap.parse_args()
    with cup_database(args.postgres, "bench_cup_result") as (db, folder):
        figures, times = run(args.teams, args.classes, args.courts, args.stored, args.results, db, folder,
                             args.statements, args.cards)
    print(f"{args.teams} teams in {args.classes} classes on {args.courts} pitches, {args.stored} results stored, "
          f"the next {args.results} "
          f"one at a time: CPU ms per result, median (worst)")
    print_parts(figures, width=11, digits=1)
    if times is not None:
        print("Statements and connections taken from the pool, per result:")
        for part in ("loop", "publishing", "snapshot"):
            print(f"  {part:<11} {times.counts.get((part, 'statements'), 0) / args.results:5.1f} statements "
                  f"{times.counts.get((part, 'checkouts'), 0) / args.results:5.1f} checkouts")
        print(f"SQL statements, wall ms per result ({sum(times.times.values()) * 1000 / args.results:.1f} in all):")
        for (part, statement), seconds in sorted(times.times.items(), key=lambda item: -item[1]):
            print(f"  {seconds * 1000 / args.results:6.3f}  {part:<10}  {statement}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

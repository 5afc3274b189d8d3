"""What a busy match's page and report cost (issue 33: a match page with 200 events renders in under 20 ms on the
service; its PDF in under 1 s).

    .venv/bin/python -m bench.bench_match_page [--events 200] [--runs 20]

Plays a water-polo match on the engine to ``--events`` events (goals with their scorers, exclusions, time-outs),
stores them as a table would have (a SQLite store of the water-polo example), and times, on a Service never
connected to a broker: the match's region when its timeline is worked out afresh (a new event came: the log read
and replayed), the region again in the next snapshot (the timeline kept), and the report's PDF. Prints the median
and the worst of ``--runs``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules import (
    ClockStarted,
    Event,
    Goal,
    IllegalCommand,
    Match,
    PenaltyAwarded,
    Side,
    TimeoutStarted,
    event_to_dict,
)
from rules.ruleset import load_ruleset
from server.db.models import EventRow
from server.plan import load_plan
from server.report_pdf import ReportMatch, report_pdf
from server.service import Service
from server.store import Store
from server.web import create_app
from server.web.service_backend import ServiceBackend
from server.web.view import View

EXAMPLE = Path(__file__).resolve().parent.parent / "rules" / "examples" / "water-polo.toml"


def busy_match(count: int, stage: str, round: str) -> list[Event]:
    """A match of ``count`` events the engine takes: a press every few seconds of play, periods started as they
    end; goals with their scorers, exclusions and time-outs in turn."""
    match = Match(load_ruleset("water-polo"), stage="round_robin" if stage == "round_robin" else "knockout",
                  round=round)
    match.apply(ClockStarted(at=0))
    at, n = 0, 0
    while len(match.events) < count and n < count * 20:
        at += 4000
        n += 1
        side: Side = "home" if n % 2 else "away"
        tries: list[Event] = [Goal(at=at, team=side, player=str(2 + n % 11)),
                              PenaltyAwarded(at=at, team=side, kind="exclusion", player=str(3 + n % 10)),
                              TimeoutStarted(at=at, team=side), ClockStarted(at=at)]
        for event in tries[n % 3:] + tries[:n % 3]:
            try:
                match.apply(event)
                break
            except IllegalCommand:
                continue
    return list(match.events)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=200)
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    plan = load_plan(EXAMPLE)
    first = min(plan.fixtures.values(), key=lambda m: m.number)
    events = busy_match(args.events, first.kind, first.round)
    with tempfile.TemporaryDirectory() as tmp:
        store = Store.open(f"sqlite:///{tmp}/day.db", plan)
        with store.session.begin() as s:
            for e in events:
                s.add(EventRow(match_id=str(first.number), court=plan.court_id(first.court), seq=e.seq, type=e.type,
                               at=e.at, body=event_to_dict(e), message_id=f"m{e.seq}", received_at=datetime.now(UTC)))
        backend = ServiceBackend(Service(store, "mqtt://127.0.0.1:1", group=None))
        site = create_app(backend, lang="en").state.site
        region = f"match/{first.number}"
        fresh, kept, pdf = [], [], []
        for _ in range(args.runs):
            backend.timelines._kept.clear()  # a new event came: the log is read and replayed again
            site._kept.clear()
            backend._changed(set(), set())
            view = View(backend.data())
            t0 = time.perf_counter()
            html = site.region(view, region)
            fresh.append((time.perf_counter() - t0) * 1000)
            site._kept.clear()  # the next snapshot: the timeline kept, the region rendered again
            backend._changed(set(), set())
            view = View(backend.data())
            t0 = time.perf_counter()
            site.region(view, region)
            kept.append((time.perf_counter() - t0) * 1000)
            t0 = time.perf_counter()
            report_pdf(ReportMatch(home=first.home, away=first.away, number=str(first.number)),
                       plan.ruleset_of(first.stage), events)
            pdf.append((time.perf_counter() - t0) * 1000)
        lines = html.count("<li ")
        print(f"{len(events)} events, {lines} lines on the page ({len(html) / 1024:.1f} KB)")
        for name, times in (("match region, timeline afresh", fresh), ("match region, timeline kept", kept),
                            ("report PDF", pdf)):
            print(f"{name:32s} median {statistics.median(times):7.1f} ms, worst {max(times):7.1f} ms")
        store.close()


if __name__ == "__main__":
    main()

"""What a court's live state costs one service instance in a big cup, without the phones and tables that share the
cores with it in bench_viewers (issue 32's live goals: 110 courts each sending a state a second, 2,000 viewers).

    .venv/bin/python -m bench.bench_cup_live [--teams 2048] [--classes 8] [--courts 110] [--stored 3000]
                                             [--viewers 1000] [--states 300] [--per-round 1] [--results 0]
                                             [--postgres]

Generates the cup of classes (bench/cup.py), stores ``--stored`` results through the service's own message path
(as bench_cup_result does), and gives every court a live state of its next match. Then it opens ``--viewers``
pages on the instance's fan-out (server.web.fanout), spread as bench_viewers spreads one instance's share (four in
ten on a court's page, three on the home page, three on a pool's), each with a ``send`` that takes the write and
drops it: the sockets are left out, everything before them is in. Then ``--states`` live states, court after
court, ``--per-round`` of them between two rounds of the fan-out (a round takes what came since the last one):

- the loop's batch: the states checked and stored (``Service._messages``);
- the round (``Fanout._round``): the snapshot after them, the open regions that may have changed looked at, the
  changed ones rendered, and one write made for each page that shows one (a summary page, such as a cup's home
  page, at most every SUMMARY_S: the rounds are timed ROUND_S apart, as in a busy cup).

``--results N`` then stores N results one at a time, a round after each: a result's loop and the pages' round
after it (its pool's page, its court's, the home page's classes).

With ``BENCH_PROFILE=FILE`` in the environment the timed part's cProfile is written to FILE.

Times are this process's CPU time, per live state, median (worst) over the rounds.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
import uuid
from pathlib import Path
from typing import Any

from bench.bench_cup_result import cup_arguments, cup_database, in_playing_order, match_messages, print_parts, profiled
from bench.bench_viewers import layout
from bench.cup import classes_cup_toml, pitches
from rules import protocol as p
from rules.live import live_payload
from rules.match import ClockStarted, Match
from server.plan import Plan, load_plan
from server.service import Service
from server.store import Store
from server.web import create_app
from server.web.fanout import ROUND_S, SUMMARY_S, Fanout, digest_of
from server.web.pages import _with_nested
from server.web.service_backend import ServiceBackend

Message = tuple[str, bytes]


def live_message(plan: Plan, court: str, number: int, stage: str, clock_ms: int) -> Message:
    """The court's table's live state of match ``number``, its clock stopped at ``clock_ms``."""
    rules = plan.ruleset_of(stage)
    match = Match(rules, stage="round_robin", round="pool")
    match.apply(ClockStarted(at=0))
    payload = live_payload(match.state_at(clock_ms), rules, str(number))
    payload["board"]["running"] = False
    court_id = plan.court_id(court)
    return p.court_topic(plan.id, court_id, "live"), p.encode(p.build(
        id=uuid.uuid4().hex, type="live", court=court_id, match=str(number), payload=payload))


async def _drop(_message: Any) -> None:
    """A phone's connection that takes every write at once."""


PROFILE = os.environ.get("BENCH_PROFILE")  # a file: the timed part's cProfile, for looking into a figure


def run(teams: int, classes: int, courts_in_all: int, stored: int, viewers: int, states: int, per_round: int,
        db: str, folder: Path, results: int = 0) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    cup = folder / "cup.toml"
    cup.write_text(classes_cup_toml(teams=teams, classes=classes, **pitches(courts_in_all)), encoding="utf-8")
    plan = load_plan(cup)
    store = Store.open(db or f"sqlite:///{folder / 'cup.db'}", plan)
    service = Service(store, "mqtt://127.0.0.1:9", group=None)  # never connected
    backend = ServiceBackend(service)
    site = create_app(backend, lang="en", secure_cookies=False).state.site
    order = in_playing_order(plan)
    pools: set[str] = set()
    courts: set[str] = set()
    for start in range(0, stored, 400):
        batch = []
        for n, m in enumerate(order[start:min(stored, start + 400)], start=start):
            events, result = match_messages(plan, m, n)
            batch += [*events, result]
        service._messages(batch, pools, courts)
    service.publishing.changes(pools, courts)
    names = list(plan.courts.values())
    playing = {}
    for court in names:  # each court's next match, under way
        following = next((m for m in order[stored:] if m.court == court), None)
        if following is not None:
            playing[court] = following
    service._messages([live_message(plan, c, m.number, m.stage, 60_000) for c, m in playing.items()], set(), set())
    view = site.view()
    pages = [region for _, region, instance in layout(viewers * 2, 2, names, view.pools) if instance == 0]
    figures: dict[str, list[float]] = {"loop": [], "round": []}
    after_results: dict[str, list[float]] = {"loop": [], "round": []}

    async def play() -> None:
        fanout = Fanout(site, backend.changes)
        opened = []
        for region in pages:
            opened.append(fanout.open(_with_nested(site, [region]), _drop, site.view(), {}))
            await opened[-1].catch_up()
        if fanout._task is not None:  # this bench runs the rounds itself, one after each batch
            fanout._task.cancel()
        await fanout._round(now=-ROUND_S)
        rounds = 0

        async def timed(batch: list[Message], into: dict[str, list[float]], per: int) -> None:
            """The loop's batch, then the fan-out's round after it, as a busy cup's rounds come, ROUND_S apart."""
            nonlocal rounds
            started = time.process_time()
            service._messages(batch, set(), set())  # which tells the pages (Service.listeners), as the loop does
            loop_done = time.process_time()
            await fanout._round(now=rounds * ROUND_S)
            rounds += 1
            into["loop"].append((loop_done - started) * 1000 / per)
            into["round"].append((time.process_time() - loop_done) * 1000 / per)

        live = list(playing.items())
        with profiled():
            for k in range(0, states, per_round):
                await timed([live_message(plan, c, m.number, m.stage, 60_000 + 1000 * (k + i))
                             for i, (c, m) in enumerate(live[(k + j) % len(live)] for j in range(per_round))],
                            figures, per_round)
            # Then results, one at a time: each changes its pool's page, its court's, and the home page's classes.
            for k, m in enumerate(order[stored:stored + results]):
                events, result = match_messages(plan, m, stored + k)
                await timed([*events, result], after_results, 1)
        await fanout._round(now=rounds * ROUND_S + SUMMARY_S)  # what the summaries held back, written when due
        if fanout.fell_behind:
            raise SystemExit(f"{fanout.fell_behind} pages fell behind: a dropped write never waits")
        view = site.view()
        stale = sum(page.held[i] != digest_of(site.own(view, name))
                    for page in opened for i, name in enumerate(page.regions.names))
        if stale:
            raise SystemExit(f"{stale} regions of the open pages were not written their newest state")
        figures["writes"] = [fanout.written / states]

    asyncio.run(play())
    store.close()
    return figures, after_results


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    cup_arguments(ap, stored=3000)
    ap.add_argument("--viewers", type=int, default=1000, help="pages open on this instance")
    ap.add_argument("--states", type=int, default=300)
    ap.add_argument("--per-round", type=int, default=1, help="live states between two rounds of the fan-out")
    ap.add_argument("--results", type=int, default=0, help="then results, one a round")
    args = ap.parse_args()
    with cup_database(args.postgres, "bench_cup_live") as (db, folder):
        figures, after_results = run(args.teams, args.classes, args.courts, args.stored, args.viewers, args.states,
                                     args.per_round, db, folder, args.results)
    writes = figures.pop("writes")[0]
    print(f"{args.teams} teams in {args.classes} classes on {args.courts} pitches, {args.stored} results stored, "
          f"{args.viewers} pages open, {args.states} live states, {args.per_round} a round: CPU ms per live state, "
          f"median (worst)")
    print_parts(figures, width=7, digits=2)
    if args.results:
        print(f"then {args.results} results, one a round: CPU ms per result, median (worst)")
        print_parts(after_results, width=7, digits=2)
    print(f"{writes:.1f} writes to pages per live state; every open page holds the newest state of its regions")
    return 0


if __name__ == "__main__":
    sys.exit(main())

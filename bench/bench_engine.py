"""Match-engine benchmark: the cost of ``state_at`` on a log of 2,000 events.

The display asks for the state sixty times a second, so a query must cost
microseconds. The log is an ice-hockey game (the sport with the most timers):
short clock runs between stops, goals and a minor at every fortieth stoppage, so
penalties are running and waiting when the state is asked for. Prints the median
and 99th percentile of ``state_at`` at instants just after the last event, and
the cost of appending a press and of replaying the whole log.

    .venv/bin/python -m bench.bench_engine
    .venv/bin/python -m bench.bench_engine --penalty-every 10   # dozens of penalties queued
"""

from __future__ import annotations

import argparse
import statistics
import time

from rules.match import ClockStarted, ClockStopped, Event, Goal, Match, PenaltyAwarded, Side
from rules.ruleset import load_ruleset
from rules.words.state import clock_text, strength_text


def build_log(events: int, penalty_every: int = 40) -> list[Event]:
    log: list[Event] = []
    at, stops = 0, 0
    while len(log) < events:
        log.append(ClockStarted(at=at, seq=len(log) + 1))
        at += 1_000  # a second of play between whistles keeps the game inside its first period
        log.append(ClockStopped(at=at, seq=len(log) + 1))
        stops += 1
        at += 500
        if stops % penalty_every == 0:
            team: Side = "home" if stops % (2 * penalty_every) else "away"
            log.append(PenaltyAwarded(at=at, seq=len(log) + 1, team=team, kind="minor", player=str(stops % 23)))
        if stops % 37 == 0:
            log.append(Goal(at=at, seq=len(log) + 1, team="away" if stops % 2 else "home"))
    log = log[: events - 1]
    if isinstance(log[-1], ClockStarted):  # keep the count exact: a stoppage's goal instead of a start
        log[-1] = Goal(at=log[-2].at, seq=log[-1].seq, team="home")
    log.append(ClockStarted(at=at, seq=len(log) + 1))  # end with the clock running: timers move at every query
    return log


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=2_000)
    parser.add_argument("--queries", type=int, default=20_000)
    parser.add_argument("--penalty-every", type=int, default=40, help="a minor at every N-th stoppage")
    args = parser.parse_args()

    ruleset = load_ruleset("ice-hockey")
    log = build_log(args.events, args.penalty_every)
    started = time.perf_counter()
    match = Match.replay(ruleset, log, stage="knockout", on_field=5)
    replay_s = time.perf_counter() - started
    last = log[-1].at

    samples = []
    for i in range(args.queries):
        at = last + (i * 16_667) // 1_000 % 2_000  # frames of a 60 Hz display over two seconds
        t0 = time.perf_counter_ns()
        match.state_at(at)
        samples.append(time.perf_counter_ns() - t0)
    samples.sort()
    state = match.state_at(last + 1_000)

    appends = []
    at = last + 3_000
    for _ in range(200):
        t0 = time.perf_counter_ns()
        match.apply(ClockStopped(at=at))
        match.apply(ClockStarted(at=at + 10))
        appends.append((time.perf_counter_ns() - t0) / 2)
        at += 20

    print(f"log: {len(log)} events, {sum(isinstance(e, PenaltyAwarded) for e in log)} penalties;"
          f" at the query: {len(state.penalties)} on the board, strength {strength_text(state)}, clock {clock_text(state)}")
    print(f"state_at: median {statistics.median(samples) / 1000:.1f} us,"
          f" p99 {samples[int(len(samples) * 0.99)] / 1000:.1f} us over {len(samples)} queries")
    print(f"apply (append a press): median {statistics.median(appends) / 1000:.1f} us")
    print(f"replay of the whole log: {replay_s * 1000:.0f} ms")


if __name__ == "__main__":
    main()

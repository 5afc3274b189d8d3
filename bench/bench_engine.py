"""Match-engine benchmark: what a frame, a press, a replay and an undo cost (issue 7's goals).

The display asks for the state sixty times a second and a Raspberry Pi Zero 2 W is
about ten times slower than the development machine, so:

- ``state_at`` on a 40-minute indoor-hockey match of 2,000 events (short clock runs
  between stops through both halves, goals and cards at stoppages), asked at the
  instants of a 60 Hz display just after the last event with the clock running:
  goal at most 10 us;
- the same on a 30-minute ice-hockey match with 0, 20 and 60 penalties already served
  and two minors running: flat in the penalties served;
- appending a press at the end of 2,000 and of 10,000 events: at most 20 us, O(1);
- replaying 10,000 events: under 200 ms;
- an undo of a goal in the middle of 2,000 events (and its redo): under 5 ms.

    .venv/bin/python -m bench.bench_engine
    .venv/bin/python -m bench.bench_engine --queries 2000   # a quicker run

Times are the process's CPU time (``time.process_time_ns``), not the wall clock: the
machine is shared, and CPU time leaves out the time the process waits for a core.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from rules.match import ClockStarted, ClockStopped, Event, Goal, Match, PenaltyAwarded, Side, Undo
from rules.ruleset import Ruleset, load_ruleset

S = 1000


def build_match(ruleset: Ruleset, events: int, *, penalties: int = 0, goal_every: int = 37,
                penalty_kind: str = "minor", running: int = 0, running_kind: str = "minor") -> Match:
    """A match of exactly ``events`` events played through its periods, ending with the clock running.

    Clock runs are as long as fit the regular time for the number of events; ``penalties``
    awards (alternating sides, a new player each) come at the first stoppages so they are
    served by the end, and ``running`` more at the last stoppages so they run at the end;
    a goal at every ``goal_every``-th stoppage.
    """
    m = ruleset.match
    match = Match(ruleset, on_field=m.on_field or 5)
    stops = events // 2
    run = max(50, (m.periods * m.period_length - 5 * S) // max(1, stops))
    at, stoppage, awarded = 0, 0, 0
    while len(match.events) < events - 1:
        state = match.state_at(at)
        if state.phase == "interval":
            at += (state.interval_remaining_ms or 0) + 5 * S
            continue
        if state.phase not in ("pre_match", "play"):
            raise SystemExit(f"the log ran past the match ({state.phase}) at {len(match.events)} events")
        match.apply(ClockStarted(at=at))
        left = state.clock_ms if m.clock_direction == "down" else m.period_length - state.clock_ms
        if run >= left:  # the period runs out by itself: the horn, then the interval
            at += left + 10 * S
            continue
        at += run
        match.apply(ClockStopped(at=at))
        stoppage += 1
        at += 200
        team: Side = "home" if stoppage % 2 else "away"
        late = running and len(match.events) >= events - 3 * (running + 1)
        if (awarded < penalties or (late and awarded < penalties + running)) and len(match.events) < events - 2:
            kind = penalty_kind if awarded < penalties else running_kind
            match.apply(PenaltyAwarded(at=at, team=team, kind=kind, player=str(10 + awarded)))
            awarded += 1
        elif stoppage % goal_every == 0 and len(match.events) < events - 2:
            match.apply(Goal(at=at, team=team, player="9"))
    match.apply(ClockStarted(at=at))  # end with the clock running: timers move at every query
    return match


def _median_us(samples: list[int]) -> tuple[float, float]:
    samples.sort()
    return statistics.median(samples) / 1000, samples[int(len(samples) * 0.99)] / 1000


def frames(match: Match, queries: int) -> tuple[float, float]:
    """``state_at`` at the instants of a 60 Hz display over the two seconds after the last event."""
    last = match.last_at
    samples = []
    for i in range(queries):
        at = last + 1 + (i * 16_667) // 1_000 % 2_000
        t0 = time.process_time_ns()
        match.state_at(at)
        samples.append(time.process_time_ns() - t0)
    return _median_us(samples)


def appends(match: Match, count: int = 400) -> tuple[float, float]:
    """One press appended at the end (a stop, then a start), each timed."""
    samples = []
    at = match.last_at + 20
    for _ in range(count // 2):
        for command in (ClockStopped(at=at), ClockStarted(at=at + 10)):
            t0 = time.process_time_ns()
            match.apply(command)
            samples.append(time.process_time_ns() - t0)
        at += 20
    return _median_us(samples)


def timed_ms(action: Callable[[], object]) -> float:
    t0 = time.process_time()
    action()
    return (time.process_time() - t0) * 1000


def undo_in_the_middle(match: Match, repeat: int = 10) -> float:
    """Median ms of undoing a goal logged in the middle of the match (and of the redo that puts it back)."""
    goals = [e for e in match.events if isinstance(e, Goal)]
    target = goals[len(goals) // 2]
    samples = []
    for _ in range(repeat):
        for seq in (target.seq, 0):  # the undo, then the undo of that undo (its redo)
            command = Undo(at=match.last_at, target=seq or match.events[-1].seq)
            t0 = time.process_time()
            match.apply(command)
            samples.append((time.process_time() - t0) * 1000)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--queries", type=int, default=20_000)
    args = parser.parse_args()

    hockey = load_ruleset("indoor-hockey")
    ice = load_ruleset("ice-hockey")
    match = build_match(hockey, 2_000, penalties=10, penalty_kind="green")
    median, p99 = frames(match, args.queries)
    print(f"state_at, indoor hockey, 2,000 events over 40 min: median {median:.1f} us, p99 {p99:.1f} us")
    for served in (0, 20, 60):
        # Misconducts (10 min, not reducing strength) at the first stoppages, so sixty can be served
        # in a 30-minute game; then two minors running at the end.
        ice_match = build_match(ice, 2_000, penalties=served, penalty_kind="misconduct", running=2)
        state = ice_match.state_at(ice_match.last_at + 1)
        median, p99 = frames(ice_match, args.queries)
        print(f"state_at, ice hockey, 2,000 events, {served + 2 - len(state.penalties)} penalties served, "
              f"{len(state.penalties)} on the board: median {median:.1f} us, p99 {p99:.1f} us")
    for events in (2_000, 10_000):
        big = build_match(hockey, events, penalties=10, penalty_kind="green")
        median, p99 = appends(big)
        print(f"apply, a press appended after {events:,} events: median {median:.1f} us, p99 {p99:.1f} us")
    log: list[Event] = list(build_match(hockey, 10_000, penalties=10, penalty_kind="green").events)
    replays = [timed_ms(lambda: Match.replay(hockey, log)) for _ in range(3)]
    print(f"replay of 10,000 events: best of 3 {min(replays):.0f} ms")
    print(f"undo (and redo) of a goal in the middle of 2,000 events: median {undo_in_the_middle(match):.2f} ms")


if __name__ == "__main__":
    main()

"""Writes rules/examples/<sport>.jsonl: one example match per sport, played to its end, with its header.

The header carries the ruleset's digest, so after a change to a preset its example log
no longer replays (tests/test_replay.py says so); write them again with

    .venv/bin/python -m tests.example_logs
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from rules.match import (
    ClockStarted,
    ClockStopped,
    Goal,
    LogHeader,
    Match,
    MatchState,
    PenaltyAwarded,
    PossessionReset,
    SetPieceStarted,
    TimeoutStarted,
    format_log,
)
from rules.ruleset import load_ruleset
from rules.standings import parse_results_csv
from rules.tournament import progress
from server.plan import load_plan

OUT = Path(__file__).parent.parent / "rules" / "examples"
S = 1000
MIN = 60 * S


def _horn(m: Match) -> tuple[int, MatchState]:
    """Let the clock run out: the instant the period ends, found with next_due."""
    at = m.last_at
    period = m.state_at(at).period
    while True:
        due = m.next_due(at)
        assert due is not None, "the clock is not running"
        at = due
        state = m.state_at(at)
        if state.phase != "play" or state.period != period:
            return at, state


def _next_period(m: Match) -> int:
    at, state = _horn(m)
    start = at + (state.interval_remaining_ms or 0) + 5 * S
    m.apply(ClockStarted(at=start))
    return start


def _final(m: Match) -> None:
    at, _ = _horn(m)
    m.apply(ClockStopped(at=at + S))  # pressed a second after the final horn: a late press, nothing changes


def _indoor_hockey(m: Match) -> None:
    a = m.apply
    a(ClockStarted(at=0))
    a(Goal(at=4 * MIN + 12 * S, team="home", player="9"))
    a(ClockStopped(at=7 * MIN))
    a(PenaltyAwarded(at=7 * MIN + 10 * S, team="away", kind="green", player="14"))
    a(ClockStarted(at=7 * MIN + 40 * S))
    a(SetPieceStarted(at=11 * MIN, name="penalty_corner"))
    a(Goal(at=11 * MIN + 30 * S, team="away", player="5"))
    a(TimeoutStarted(at=15 * MIN, team="home"))
    a(ClockStarted(at=16 * MIN + 5 * S))
    t = _next_period(m)
    a(PenaltyAwarded(at=t + 6 * MIN, team="home", kind="yellow", player="3", length=5 * MIN))
    a(Goal(at=t + 13 * MIN, team="home", player="11"))
    _final(m)


def _water_polo(m: Match) -> None:
    a = m.apply
    a(ClockStarted(at=0))
    a(PenaltyAwarded(at=50 * S, team="away", kind="exclusion", player="6"))
    a(Goal(at=62 * S, team="home", player="4"))
    a(ClockStarted(at=80 * S))
    a(ClockStopped(at=3 * MIN))
    a(PossessionReset(at=3 * MIN, short=True))
    a(ClockStarted(at=3 * MIN + 15 * S))
    a(Goal(at=5 * MIN, team="away", player="9"))
    a(ClockStarted(at=5 * MIN + 20 * S))
    t = _next_period(m)
    a(Goal(at=t + 2 * MIN, team="home", player="7"))
    a(ClockStarted(at=t + 2 * MIN + 20 * S))
    t = _next_period(m)
    a(PenaltyAwarded(at=t + MIN, team="home", kind="exclusion", player="2"))
    a(Goal(at=t + 90 * S, team="away", player="3"))
    a(ClockStarted(at=t + 2 * MIN))
    t = _next_period(m)
    a(Goal(at=t + 4 * MIN, team="home", player="10"))
    a(ClockStarted(at=t + 4 * MIN + 20 * S))
    _final(m)


def _indoor_football(m: Match) -> None:
    a = m.apply
    a(ClockStarted(at=0))
    a(Goal(at=3 * MIN, team="away", player="7"))
    a(PenaltyAwarded(at=5 * MIN, team="home", kind="sin_bin", player="2"))
    a(Goal(at=9 * MIN + 50 * S, team="home", player="10"))
    t = _next_period(m)
    a(Goal(at=t + 7 * MIN, team="home", player="10"))
    _final(m)


def _youth_football(m: Match) -> None:
    a = m.apply
    a(ClockStarted(at=0))
    a(Goal(at=8 * MIN, team="home", player="9"))
    a(PenaltyAwarded(at=12 * MIN, team="away", kind="yellow", player="4"))
    t = _next_period(m)
    a(Goal(at=t + 8 * MIN, team="away", player="11"))
    _final(m)


def _ice_hockey(m: Match) -> None:
    a = m.apply
    a(ClockStarted(at=0))
    a(ClockStopped(at=2 * MIN))
    a(PenaltyAwarded(at=2 * MIN + 10 * S, team="home", kind="minor", player="4"))
    a(ClockStarted(at=2 * MIN + 40 * S))
    a(Goal(at=3 * MIN + 30 * S, team="away", player="17"))
    a(ClockStarted(at=4 * MIN))
    a(Goal(at=9 * MIN, team="home", player="8"))
    a(ClockStarted(at=9 * MIN + 30 * S))
    t = _next_period(m)
    a(ClockStopped(at=t + 3 * MIN))
    a(PenaltyAwarded(at=t + 3 * MIN + 10 * S, team="away", kind="minor", player="22"))
    a(ClockStarted(at=t + 3 * MIN + 30 * S))
    a(Goal(at=t + 4 * MIN, team="home", player="12"))
    a(ClockStarted(at=t + 4 * MIN + 30 * S))
    _final(m)


# Per sport: the round of the example tournament's match the log plays, and how it is played.
MATCHES: dict[str, tuple[str, Callable[[Match], None]]] = {
    "indoor-hockey": ("pool", _indoor_hockey),
    "water-polo": ("pool", _water_polo),
    "indoor-football": ("quarter_final", _indoor_football),
    "youth-football": ("pool", _youth_football),
    "ice-hockey": ("pool", _ice_hockey),
}


def scheduled_match(sport: str, round: str) -> dict[str, Any]:
    """The header fields of the first match of ``round`` in rules/examples/<sport>.toml, its teams as the example
    results make them (a knock-out match's placeholders resolved): every example log names a real match."""
    plan = load_plan(OUT / f"{sport}.toml")
    results_file = OUT / f"{sport}-results.csv"
    results = parse_results_csv(results_file.read_text(encoding="utf-8"), str(results_file))
    done = progress(plan.cup.classes[0].tournament, plan.rulesets[""], plan.entry_teams, results)
    match_id, m = min(((k, f) for k, f in plan.fixtures.items() if f.round == round), key=lambda x: x[1].number)
    teams = [done.slots[t].team if t in done.slots and done.slots[t].team else t for t in (m.home, m.away)]
    head: dict[str, Any] = {"round": m.round, "home": teams[0], "away": teams[1], "match_id": match_id,
                            "court": m.court}
    if sport == "ice-hockey":
        head["on_field"] = 5  # 5 v 5 (seed 004)
    return head


def example_log(sport: str) -> str:
    """The text of the example log of ``sport``, played now with the preset as it is."""
    round, play = MATCHES[sport]
    head = scheduled_match(sport, round)
    rules = load_ruleset(sport)
    match = Match(rules, round=head["round"], on_field=head.get("on_field"))
    play(match)
    header = LogHeader.for_match(rules, stage=match.stage, **head)
    return format_log(match.events, header)


def main() -> None:
    for sport in MATCHES:
        (OUT / f"{sport}.jsonl").write_text(example_log(sport), encoding="utf-8")
        print(f"wrote {OUT / f'{sport}.jsonl'}")


if __name__ == "__main__":
    main()

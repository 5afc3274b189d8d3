"""Scheduling benchmark: a youth-football tournament the size of the largest ones.

1,700 teams in pools of four and five (340 pools of five would be too tidy: this
uses 300 pools of four and 100 of five), single round robin, over 120 pitches,
with a minimum rest, playing days and a lunch break. Prints the wall time of
checking the file (``validate_tournament``: every field and cross-reference, and
the file's TOML text read by ``parse_tournament``) and of ``build_schedule``
(best of ``--repeat`` runs each) and the size of the result.
``--balance`` also has every team play its matches on different pitches.

    .venv/bin/python -m bench.bench_schedule
    .venv/bin/python -m bench.bench_schedule --balance
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from rules.ruleset import load_ruleset
from rules.tournament import build_schedule, parse_tournament, validate_tournament


def tournament_data(teams: int, pitches: int, fours: int, fives: int, balance: bool) -> dict[str, Any]:
    names = [f"Team {i:04d}" for i in range(1, teams + 1)]
    pools: list[dict[str, Any]] = []
    at = 0
    for number, size in enumerate([4] * fours + [5] * fives):
        pools.append({"name": f"P{number:03d}", "teams": names[at : at + size]})
        at += size
    assert at == teams, (at, teams)
    return {
        "name": "Benchmark cup",
        "ruleset": "youth-football",
        "teams": [{"name": n, "club": f"Club {i // 3}"} for i, n in enumerate(names)],
        "schedule": {
            "start": "2026-07-13T08:00",
            "courts": [f"Pitch {i}" for i in range(1, pitches + 1)],
            "slot": "50:00",
            "min_rest": "60:00",
            "day_start": "08:00",
            "day_end": "20:00",
            "breaks": [{"start": "2026-07-13T12:00", "end": "2026-07-13T12:40"}],
            "balance_courts": balance,
        },
        "pools": pools,
    }


def toml_text(data: dict[str, Any]) -> str:
    """The same tournament as the TOML file an organiser would write (for timing the reading)."""

    def value(v: Any) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, str):
            return '"' + v + '"'
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        if isinstance(v, dict):
            return "{ " + ", ".join(f"{k} = {value(x)}" for k, x in v.items()) + " }"
        return str(v)

    lines = [f"{k} = {value(v)}" for k, v in data.items() if not isinstance(v, dict | list)]
    lines += ["[schedule]"] + [f"{k} = {value(v)}" for k, v in data["schedule"].items()]
    for key in ("teams", "pools"):
        for item in data[key]:
            lines += [f"[[{key}]]"] + [f"{k} = {value(v)}" for k, v in item.items()]
    return "\n".join(lines) + "\n"


def best_of(repeat: int, run: Callable[[], Any]) -> tuple[float, Any]:
    best, result = float("inf"), None
    for _ in range(repeat):
        began = time.perf_counter()
        result = run()
        best = min(best, time.perf_counter() - began)
    return best, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--teams", type=int, default=1700)
    parser.add_argument("--pitches", type=int, default=120)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--balance", action="store_true", help="also spread each team's matches over the pitches")
    args = parser.parse_args()
    fives = args.teams % 4 + 100  # keeps the count exact: 4*fours + 5*fives == teams
    fours = (args.teams - 5 * fives) // 4
    data = tournament_data(args.teams, args.pitches, fours, fives, args.balance)
    text = toml_text(data)
    check, t = best_of(args.repeat, lambda: validate_tournament(data, "benchmark"))
    read, _ = best_of(args.repeat, lambda: parse_tournament(text, "benchmark.toml"))
    ruleset = load_ruleset("youth-football")
    best, schedule = best_of(args.repeat, lambda: build_schedule(t, ruleset, {}))
    print(
        f"checking the file: {check * 1000:.0f} ms (validate_tournament); "
        f"reading its {len(text) // 1024} KB of TOML and checking it: {read * 1000:.0f} ms (parse_tournament)"
    )
    print(
        f"{args.teams} teams, {fours} pools of 4 + {fives} of 5, {args.pitches} pitches"
        f"{', balanced' if args.balance else ''}: "
        f"{len(schedule.matches)} matches scheduled in {best:.2f} s (best of {args.repeat}); "
        f"last match ends {schedule.end:%a %H:%M}"
    )


if __name__ == "__main__":
    main()

"""How long the standings of a big tournament take: 2,000 teams in 250 pools of 8, fully played.

    .venv/bin/python -m bench.bench_standings [--rules NAME ...] [--repeat N]

Scores are drawn from a seeded generator (the same tournament every run, with
plenty of ties on points); the figure is the best of ``--repeat`` runs of
``rank_pools`` on one core, plus reading the same results from CSV text.
"""

from __future__ import annotations

import argparse
import csv
import io
import itertools
import random
import time
from collections.abc import Callable, Sequence

from rules.ruleset import PRESETS, load_ruleset
from rules.standings import MatchResult, parse_results_csv, rank_pools

POOLS = 250
TEAMS_PER_POOL = 8


def tournament(seed: int = 2026) -> list[MatchResult]:
    rng = random.Random(seed)
    results: list[MatchResult] = []
    for p in range(POOLS):
        pool = f"P{p:03d}"
        teams = [f"{pool}-T{t}" for t in range(TEAMS_PER_POOL)]
        for home, away in itertools.combinations(teams, 2):
            # low scores make level points, goal differences and head-to-heads common
            results.append(
                MatchResult(pool=pool, home=home, away=away, home_goals=rng.randint(0, 3), away_goals=rng.randint(0, 3))
            )
    return results


def as_csv(results: Sequence[MatchResult]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["pool", "home", "away", "home_goals", "away_goals"])
    writer.writerows([r.pool, r.home, r.away, r.home_goals, r.away_goals] for r in results)
    return out.getvalue()


def best_of(repeat: int, run: Callable[[], object]) -> float:
    times: list[float] = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rules", nargs="*", default=list(PRESETS), help="presets or ruleset files")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    results = tournament()
    text = as_csv(results)
    parse = best_of(args.repeat, lambda: parse_results_csv(text, "bench.csv", meetings=1))
    print(f"{len(results)} matches, {POOLS} pools of {TEAMS_PER_POOL}; best of {args.repeat} runs")
    print(f"  {'parse_results_csv':<37} {parse * 1000:8.1f} ms")
    for name in args.rules:
        ruleset = load_ruleset(name)
        standings = rank_pools(ruleset, results)
        seconds = best_of(args.repeat, lambda: rank_pools(ruleset, results))  # noqa: B023 - run at once
        print(
            f"  rank_pools {name:<26} {seconds * 1000:8.1f} ms"
            f"  ({len(standings.unresolved)} tie(s) left for an organiser's decision)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The server's case: one new result re-ranks its own 4-team pool, not the 250 others.

    .venv/bin/python -m bench.bench_rank_pool [--repeat N]

A 4-team pool with five of its six matches played gets its last result; the figure
is ``rank_pool`` for that pool alone (best of ``--repeat`` runs, per preset), given
either only the pool's results (what a server keeps per pool) or the whole
tournament's 7,000 results (``rank_pool`` picks the pool's own), beside
``rank_pools`` re-ranking every pool, which the server no longer needs to do.
"""

from __future__ import annotations

import argparse
import itertools
import random
import time
from collections.abc import Callable, Sequence
from functools import partial

from rules.ruleset import PRESETS, load_ruleset
from rules.standings import MatchResult, rank_pool, rank_pools


def pool_results(pool: str, rng: random.Random, size: int = 4) -> list[MatchResult]:
    teams = [f"{pool}-T{t}" for t in range(size)]
    return [
        MatchResult(pool=pool, home=h, away=a, home_goals=rng.randint(0, 3), away_goals=rng.randint(0, 3))
        for h, a in itertools.combinations(teams, 2)
    ]


def best_of(repeat: int, run: Callable[[], object]) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--repeat", type=int, default=200, help="runs per figure; the best is printed")
    args = parser.parse_args(argv)
    rng = random.Random(2026)
    pool = pool_results("A", rng)
    others = [r for p in range(250) for r in pool_results(f"P{p:03d}", rng, size=8)]
    everything = others + pool
    print(f"one 4-team pool re-ranked after its 6th result; best of {args.repeat} runs")
    for name in PRESETS:
        ruleset = load_ruleset(name)
        alone = best_of(args.repeat, partial(rank_pool, ruleset, "A", pool))
        among = best_of(args.repeat, partial(rank_pool, ruleset, "A", everything))
        full = best_of(max(1, args.repeat // 50), partial(rank_pools, ruleset, everything))
        print(
            f"  {name:<16} rank_pool {alone * 1e6:7.0f} us (pool's results) {among * 1e6:7.0f} us "
            f"(all {len(everything):,} results)   rank_pools (251 pools) {full * 1e3:6.1f} ms"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

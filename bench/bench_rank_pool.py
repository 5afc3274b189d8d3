"""The server's case: one new result re-ranks its own 4-team pool, not the 250 others.

    .venv/bin/python -m bench.bench_rank_pool [--repeat N]

A 4-team pool with five of its six matches played gets its last result; the figure
is ``rank_pool`` for that pool alone (best of ``--repeat`` runs, per preset), given
either only the pool's results (what a server keeps per pool) or the whole
tournament's 7,000 results (``rank_pool`` picks the pool's own), beside
``rank_pools`` re-ranking every pool, which the server no longer needs to do.

Then the cost of ties waiting for an organiser's decision (rules.standings.pending):
a 16-team pool whose top teams are level on everything (a tie of 6, then of 4, 3
and 2) and whose other teams are in pairs that the waiting decision settles one way
or the other (:func:`tied_pool`), so every outcome of the decision must be looked at
or the look stopped short.
"""

from __future__ import annotations

import argparse
import cProfile
import itertools
import pstats
import random
import time
from collections.abc import Callable, Sequence
from functools import partial

from bench import bench_standings
from rules.ruleset import PRESETS, load_ruleset
from rules.standings import MatchResult, rank_pool, rank_pools


def pool_results(pool: str, rng: random.Random, size: int = 4) -> list[MatchResult]:
    teams = [f"{pool}-T{t}" for t in range(size)]
    return [
        MatchResult(pool=pool, home=h, away=a, home_goals=rng.randint(0, 3), away_goals=rng.randint(0, 3))
        for h, a in itertools.combinations(teams, 2)
    ]


def tied_pool(top: int, pairs: int, pool: str = "T") -> list[MatchResult]:
    """``top`` teams level on everything (1-1 among themselves, the same totals against each pair
    below), above ``pairs`` pairs level on everything too, except that within each pair one team
    did better against the even-numbered top teams and the other against the odd ones: which top
    team the organiser's decision places first settles every pair, one way or the other."""
    tops = [f"T{i}" for i in range(top)]
    below = [f"U{j}" for j in range(2 * pairs)]
    results: list[MatchResult] = []

    def game(home: str, away: str, home_goals: int, away_goals: int) -> None:
        results.append(MatchResult(pool=pool, home=home, away=away, home_goals=home_goals, away_goals=away_goals))

    for i, team in enumerate(tops):
        for other in tops[i + 1 :]:
            game(team, other, 1, 1)
        for j, low in enumerate(below):
            game(team, low, 2 if (i % 2 == 0) == (j % 2 == 0) else 1, 0)
    for j, low in enumerate(below):
        for k in range(j + 1, len(below)):
            game(low, below[k], *((0, 0) if k // 2 == j // 2 else (1, 0)))
    return results


WAITING = {
    # issue 22's three 4-team pools whose places depend on a waiting decision (tests/test_standings_pending.py)
    "ice-hockey": "Berg 1-1 Dala|Ajax 1-1 Cruz|Berg 2-0 Ajax|Berg 3-0 Cruz|Dala 4-0 Ajax|Dala 1-0 Cruz",
    "water-polo": "Ajax 0-0 Berg|Ajax 0-0 Cruz|Ajax 2-2 Dala|Berg 1-1 Cruz|Berg 1-1 Dala|Cruz 1-1 Dala",
}


def scoresheet(pool: str, text: str) -> list[MatchResult]:
    """ "Berg 1-1 Dala|...": regular-time results, home team first."""
    results = []
    for line in text.split("|"):
        home, score, away = line.split(" ")
        home_goals, away_goals = score.split("-")
        results.append(MatchResult(pool=pool, home=home, away=away, home_goals=int(home_goals),
                                   away_goals=int(away_goals)))
    return results


def best_of(repeat: int, run: Callable[[], object]) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def calls(run: Callable[[], object]) -> int:
    """Python function calls ``run`` makes: a cost that the machine's load does not change."""
    profile = cProfile.Profile()
    profile.enable()
    run()
    profile.disable()
    return int(pstats.Stats(profile).total_calls)  # type: ignore[attr-defined]  # set by Stats, not declared


def count_calls() -> int:
    """``--calls``: the figures as function calls, for comparing two versions on a busy machine."""
    rng = random.Random(2026)
    pool = pool_results("A", rng)
    tournament = bench_standings.tournament()
    print("Python function calls (after one warm-up run of each)")
    for name in PRESETS:
        ruleset = load_ruleset(name)
        rank_pools(ruleset, tournament)
        cells = [f"4-team rank_pool {calls(partial(rank_pool, ruleset, 'A', pool)):>6,}",
                 f"rank_pools 2,000 teams {calls(partial(rank_pools, ruleset, tournament)):>9,}"]
        cells += [f"16 teams, tie of {top} {calls(partial(rank_pool, ruleset, 'T', tied_pool(top, pairs))):>8,}"
                  for top, pairs in ((6, 5), (2, 7))]
        print(f"  {name:<16} " + "   ".join(cells))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--repeat", type=int, default=200, help="runs per figure; the best is printed")
    parser.add_argument("--calls", action="store_true", help="count Python function calls instead of timing")
    args = parser.parse_args(argv)
    if args.calls:
        return count_calls()
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
    print(f"a 4-team pool whose places wait for a decision (every outcome ranked); best of {args.repeat} runs")
    for name, text in WAITING.items():
        seconds = best_of(args.repeat, partial(rank_pool, load_ruleset(name), "A", scoresheet("A", text)))
        print(f"  {name:<16} rank_pool {seconds * 1e6:7.0f} us")
    print(f"one 16-team pool with its top teams waiting for a decision; best of {max(1, args.repeat // 10)} runs")
    for name in PRESETS:
        ruleset = load_ruleset(name)
        cells = []
        for top, pairs in ((6, 5), (4, 6), (3, 6), (2, 7)):
            seconds = best_of(max(1, args.repeat // 10), partial(rank_pool, ruleset, "T", tied_pool(top, pairs)))
            cells.append(f"tie of {top} {seconds * 1e3:6.1f} ms")
        print(f"  {name:<16} " + "   ".join(cells))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

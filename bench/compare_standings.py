"""Tables of two versions of the ranking core, compared on the same random tie-heavy pools.

    .venv/bin/python bench/compare_standings.py dump NEW.json
    git archive COMMIT rules | tar -x -C /tmp/old
    PYTHONPATH=/tmp/old .venv/bin/python bench/compare_standings.py dump OLD.json
    .venv/bin/python bench/compare_standings.py diff OLD.json NEW.json

``dump`` ranks 3,000 seeded random pools of 3-6 teams (half the games drawn, low scores)
for each preset and the UEFA and FIFA example rulesets with whichever ``rules`` package
the path finds first, and writes every table (rank, team, reason, ties asked for).
``diff`` counts the tables that differ, and whether the old table had a tie waiting for
an organiser's decision (issue 22: only those may change).
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from rules.ruleset import load_ruleset
from rules.standings import MatchResult, rank_pool

ROOT = Path(__file__).resolve().parent.parent
RULESETS = ["indoor-hockey", "water-polo", "indoor-football", "youth-football", "ice-hockey",
            str(ROOT / "docs" / "rulesets" / "uefa.toml"), str(ROOT / "docs" / "rulesets" / "fifa.toml")]


def dump(path: str, pools: int = 3000) -> None:
    rng = random.Random(22)
    out: dict[str, object] = {}
    for name in RULESETS:
        ruleset = load_ruleset(name)
        for i in range(pools):
            teams = [f"T{k}" for k in range(rng.choice([3, 4, 4, 5, 6]))]
            results = []
            for home, away in itertools.combinations(teams, 2):
                if rng.random() < 0.5:
                    goals = rng.randint(0, 2)
                    results.append(MatchResult(pool="P", home=home, away=away, home_goals=goals, away_goals=goals))
                else:
                    results.append(MatchResult(pool="P", home=home, away=away, home_goals=rng.randint(0, 3),
                                               away_goals=rng.randint(0, 3)))
            table = rank_pool(ruleset, "P", results, teams=teams)
            out[f"{Path(name).stem}#{i}"] = {"rows": [[r.rank, r.team, r.reason] for r in table.rows],
                                             "unresolved": [list(u.teams) for u in table.unresolved]}
    Path(path).write_text(json.dumps(out), encoding="utf-8")


def diff(old_path: str, new_path: str) -> int:
    old = json.loads(Path(old_path).read_text(encoding="utf-8"))
    new = json.loads(Path(new_path).read_text(encoding="utf-8"))
    counts: Counter[str] = Counter()
    for key, before in old.items():
        after = new[key]
        if before == after:
            counts["same"] += 1
        elif not before["unresolved"]:
            counts["different, no tie was waiting (should never happen)"] += 1
        elif [r[:2] for r in before["rows"]] == [r[:2] for r in after["rows"]]:
            counts["a tie was waiting: same ranks, reasons or ties asked for differ"] += 1
        else:
            counts["a tie was waiting: ranks differ"] += 1
    print(f"{len(old)} tables")
    for what, n in counts.most_common():
        print(f"  {n:>6}  {what}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("action", choices=("dump", "diff"))
    parser.add_argument("files", nargs="+")
    args = parser.parse_args(argv)
    if args.action == "dump":
        dump(args.files[0])
        return 0
    return diff(args.files[0], args.files[1])


if __name__ == "__main__":
    raise SystemExit(main())

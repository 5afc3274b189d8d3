"""``courtside demo``: what a newcomer sees first, from the examples shipped in the package.

For now it ranks the shipped indoor-hockey pool results by the indoor-hockey
preset, each place with the reason it is there.
"""

from __future__ import annotations

import argparse
import sys
from importlib import resources
from typing import Any

from courtside.commands.standings import render_text
from rules.ruleset import load_ruleset
from rules.standings import parse_results_csv, rank_pools

EXAMPLE_RESULTS = "indoor-hockey-pools.csv"
EXAMPLE_RULES = "indoor-hockey"


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "demo", help="rank the example tournament results that ship with the package"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    ruleset = load_ruleset(EXAMPLE_RULES)
    text = resources.files("rules.examples").joinpath(EXAMPLE_RESULTS).read_text(encoding="utf-8")
    results = parse_results_csv(text, EXAMPLE_RESULTS, meetings=ruleset.ranking.meetings)
    print(f"courtside demo: the pools of an 8-team indoor-hockey tournament ({EXAMPLE_RESULTS}),")
    print(f"ranked by the {EXAMPLE_RULES!r} preset (see `courtside rules show {EXAMPLE_RULES}`).")
    print()
    sys.stdout.write(render_text(rank_pools(ruleset, results), ruleset.name))
    return 0

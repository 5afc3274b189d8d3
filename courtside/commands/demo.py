"""``courtside demo``: the whole system on one machine, the README's first command.

It prints the web address first, then starts an MQTT broker (embedded unless ``--broker``),
the standings service with its pages, and one referee table per court of a seed tournament.
``--autoplay`` lets simulated officials play the tournament through the tables' buttons and
ends with the final ranking; without it, court 1's table takes the keyboard until Ctrl-C.
``--tables-only`` keeps the old offline view: the example pools ranked, with reasons.
"""

from __future__ import annotations

import argparse
import sys
from importlib import resources
from pathlib import Path
from typing import Any

from courtside.commands.standings import render_text
from rules import PRESETS as SEED_TOURNAMENTS
from rules import DemoError, load_ruleset, parse_results_csv, rank_pools

EXAMPLE_RESULTS = "indoor-hockey-pools.csv"
EXAMPLE_RULES = "indoor-hockey"


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "demo", help="run a whole venue on this machine: broker, standings service and web pages, a table per court",
        description="The whole system on one machine. Prints the web address first, then starts an MQTT broker "
        "(embedded unless --broker), the standings service with its web pages, and one referee table per court of a "
        "seed tournament. --autoplay lets simulated officials play the tournament through the tables' buttons and "
        "ends with the final ranking; without it, court 1's table takes the keyboard until Ctrl-C.",
    )
    parser.add_argument("--tournament", default="indoor-hockey", metavar="NAME|FILE",
                        help=f"a seed tournament ({', '.join(SEED_TOURNAMENTS)}) or a tournament file")
    parser.add_argument("--broker", metavar="URL", help="use this MQTT broker instead of the embedded one")
    parser.add_argument("--headless", action="store_true", help="no scoreboard window (also when there is no screen)")
    parser.add_argument("--autoplay", action="store_true", help="simulated officials play the whole tournament")
    parser.add_argument("--speed", type=_speed, default=None, metavar="N",
                        help="with --autoplay: N times real time (default 20; 0: as fast as the tables go)")
    parser.add_argument("--seed", type=int, default=1, help="the officials' seed: the same seed plays the same day")
    parser.add_argument("--http-port", type=int, metavar="PORT", help="the web pages' port (default: a free one)")
    parser.add_argument("--lan", action="store_true",
                        help="serve the pages on every address of this machine, so phones on the venue's network can "
                        "open them (plain HTTP: the desk's password and session can be read on that network)")
    parser.add_argument("--keep", type=Path, metavar="DIR",
                        help="copy the demo's folder (database, journals, scripts, logs, results.csv) here at the end")
    parser.add_argument("--tables-only", action="store_true",
                        help="only print the example pool tables, ranked with reasons (no broker, no service)")
    parser.set_defaults(run=run)


def _speed(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not (value == 0 or 1 <= value <= 1000):
        raise argparse.ArgumentTypeError(f"{text}: the speed is from 1 (real time) to 1000, or 0 (as fast as it goes)")
    return value


def run(args: argparse.Namespace) -> int:
    if args.tables_only:
        return _tables_only()
    if args.speed is not None and not args.autoplay:
        raise SystemExit("courtside demo: --speed goes with --autoplay (the keyboard plays in real time)")
    _check_extras(args.broker is None)
    # Imported only when used: `courtside --help` and --tables-only need none of the demo's parts.
    from courtside.demo.run import run_demo
    from courtside.demo.venue import DemoOptions

    options = DemoOptions(
        tournament=args.tournament, broker=args.broker, headless=args.headless, autoplay=args.autoplay,
        speed=20.0 if args.speed is None else args.speed, seed=args.seed, http_port=args.http_port, keep=args.keep,
        lan=args.lan,
    )
    return run_demo(options)


# What the demo runs, by import name and the package that brings it (pyproject's demo extra).
NEEDED = {"paho": "paho-mqtt", "gpiozero": "gpiozero", "pygame": "pygame-ce", "sqlalchemy": "SQLAlchemy",
          "starlette": "starlette", "uvicorn": "uvicorn", "httpx": "httpx"}


def _check_extras(embedded_broker: bool) -> None:
    """A clear message instead of a traceback when the demo extra is not installed."""
    from importlib.util import find_spec

    missing = [package for module, package in NEEDED.items() if find_spec(module) is None]
    if embedded_broker and find_spec("amqtt") is None:
        missing.append("amqtt")
    if missing:
        raise DemoError(f"the demo needs {', '.join(missing)}: install the demo extra, "
                        "e.g. .venv/bin/pip install -e '.[demo]'")


def _tables_only() -> int:
    ruleset = load_ruleset(EXAMPLE_RULES)
    text = resources.files("rules.examples").joinpath(EXAMPLE_RESULTS).read_text(encoding="utf-8")
    results = parse_results_csv(text, EXAMPLE_RESULTS, meetings=ruleset.ranking.meetings)
    print(f"courtside demo: the pools of an 8-team indoor-hockey tournament ({EXAMPLE_RESULTS}),")
    print(f"ranked by the {EXAMPLE_RULES!r} preset (see `courtside rules show {EXAMPLE_RULES}`).")
    print()
    sys.stdout.write(render_text(rank_pools(ruleset, results), ruleset.name))
    return 0

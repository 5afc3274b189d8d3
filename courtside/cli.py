"""The ``courtside`` command: one subcommand per part of the product.

Each module in :mod:`courtside.commands` adds its own subcommand; this file only
collects them and turns library errors into a clear message and exit status 2.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from rules.errors import CourtsideError

# Modules under courtside.commands, each with ``register(subparsers)``.
COMMANDS = (
    "rules",
    "replay",
    "standings",
    "tournament",
    "demo",
    "users",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="courtside",
        description="Scoreboard system for the referee table of amateur and club tournaments.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"courtside.commands.{name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.run(args)
    except CourtsideError as err:
        print(f"courtside: {err}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    return status


if __name__ == "__main__":
    sys.exit(main())

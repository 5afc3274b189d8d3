"""The ``courtside`` command: one subcommand per part of the product.

Start-up is cheap whatever the commands need: ``courtside --help`` imports none of
them. COMMANDS names each subcommand and its one-line help; the module
``courtside.commands.<name>`` (with ``register(subparsers)``) is imported only when
that command is the one being run (or its own ``--help`` is asked for).
Errors of the library become a clear message and exit status 2.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import Any

# name -> one-line help. The module courtside.commands.<name> is imported only when chosen,
# so adding a command costs `courtside --help` nothing. Add yours as `"name": "what it does",`.
COMMANDS: dict[str, str] = {
    "rules": "list, show or check rulesets",
    "replay": "replay a match's event log and print its state",
    "report": "a match's report (PDF) from its event log alone",
    "standings": "rank every pool of a results file",
    "tournament": "draw, schedule and follow a tournament",
    "demo": "run a whole venue on this machine: broker, standings service and web pages, a table per court",
    "users": "desk accounts of the standings service",
    "database": "back up the service's database, or restore a backup",
    "server": "the standings service: results over MQTT, standings, schedules, web pages",
    "table": "run the referee table: buttons, horn, journal and screen",
    "display": "the venue scoreboard: a frame to a PNG, or a screen following a court over MQTT",
}


class _Version(argparse.Action):
    """``--version``: reads the installed package's version only when asked (importlib.metadata is not free)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS, **kwargs: Any) -> None:
        super().__init__(option_strings, dest=dest, nargs=0, help="print the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        from importlib.metadata import PackageNotFoundError, version

        try:
            number = version("courtside")
        except PackageNotFoundError:
            number = "unknown (not installed)"
        print(f"courtside {number}")
        parser.exit()


def chosen(argv: Sequence[str]) -> str | None:
    """The subcommand named on the command line: the first word that is not an option."""
    return next((arg for arg in argv if not arg.startswith("-")), None)


def build_parser(argv: Sequence[str] = ()) -> argparse.ArgumentParser:
    """The parser, with the full arguments of the command ``argv`` chooses and one-line stubs for the others."""
    parser = argparse.ArgumentParser(
        prog="courtside",
        description="Scoreboard system for the referee table of amateur and club tournaments.",
        epilog="`courtside COMMAND --help` describes a command and the files it reads.",
    )
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    name = chosen(argv)
    for command, help_text in COMMANDS.items():
        if command == name:
            importlib.import_module(f"courtside.commands.{command}").register(sub)
        else:
            sub.add_parser(command, help=help_text)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_in = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(args_in)
    args = parser.parse_args(args_in)
    from rules import CourtsideError

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

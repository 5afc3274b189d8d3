"""``courtside rules list|show|check``: the shipped presets and a user's own file."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from rules import PRESETS, load_ruleset, preset_text, read_ruleset_file


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "rules",
        help="list, show or check rulesets",
        description="A ruleset is a TOML file of everything that differs between tournaments: match format, "
        "time-outs, penalties, points and the ranking criteria. Five presets ship with courtside.",
    )
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")

    p = actions.add_parser("list", help="list the shipped presets, with their sport and format")
    p.set_defaults(run=_list)

    p = actions.add_parser(
        "show",
        help="print a preset as TOML, with its comments (no NAME: list the presets)",
        description="Print a shipped preset as TOML, every setting commented with its rule; save it to start "
        "your own ruleset file. Without NAME, list the presets.",
    )
    p.add_argument("name", nargs="?", choices=PRESETS, metavar="NAME", help=f"a preset: {', '.join(PRESETS)}")
    p.set_defaults(run=_show)

    p = actions.add_parser("check", help="validate a ruleset file, naming every problem with its key")
    p.add_argument(
        "file", metavar="RULESET.toml", help="a ruleset TOML file (UTF-8), like the ones `courtside rules show` prints"
    )
    p.set_defaults(run=_check)


def _list(args: argparse.Namespace) -> int:
    for name in PRESETS:
        ruleset = load_ruleset(name)
        print(f"{name:<16} {ruleset.sport:<16} {ruleset.description}")
    return 0


def _show(args: argparse.Namespace) -> int:
    if args.name is None:
        print("Presets (courtside rules show NAME prints one):")
        return _list(args)
    sys.stdout.write(preset_text(args.name))
    return 0


def _check(args: argparse.Namespace) -> int:
    ruleset = read_ruleset_file(args.file)
    print(f"{args.file}: ok ({ruleset.name}, {ruleset.sport})")
    return 0

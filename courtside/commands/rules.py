"""``courtside rules list|show|check``: the shipped presets and a user's own file."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from rules.ruleset import PRESETS, load_ruleset, preset_text, read_ruleset_file


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser("rules", help="list, show or check rulesets")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")

    p = actions.add_parser("list", help="list the shipped presets")
    p.set_defaults(run=_list)

    p = actions.add_parser("show", help="print a preset as TOML, with its comments")
    p.add_argument("name", choices=PRESETS, metavar="NAME")
    p.set_defaults(run=_show)

    p = actions.add_parser("check", help="validate a ruleset file")
    p.add_argument("file")
    p.set_defaults(run=_check)


def _list(args: argparse.Namespace) -> int:
    for name in PRESETS:
        ruleset = load_ruleset(name)
        print(f"{name:<16} {ruleset.sport:<16} {ruleset.description}")
    return 0


def _show(args: argparse.Namespace) -> int:
    sys.stdout.write(preset_text(args.name))
    return 0


def _check(args: argparse.Namespace) -> int:
    ruleset = read_ruleset_file(args.file)
    print(f"{args.file}: ok ({ruleset.name}, {ruleset.sport})")
    return 0

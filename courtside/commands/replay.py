"""``courtside replay``: rebuild a match from its event log and print the state as JSON.

The central server runs this to check the result a table sends; an official runs
it to settle a dispute about what the clock showed at a given moment.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import Any

from courtside.files import read_text
from rules.errors import EventLogError, IllegalCommand
from rules.match import Match, numbered_events
from rules.ruleset import load_ruleset


def _seconds(text: str) -> float:
    """``--at``: a finite, non-negative number of seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"{text!r}: give a number of seconds from 0 up")
    return value


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "replay", help="replay a match's event log and print its state as JSON",
        description="Replay an event log (JSON lines, docs/events.md) and print the match state as JSON, "
        "at --at seconds or at the instant of the log's last event.",
    )
    parser.add_argument("--rules", required=True, metavar="NAME_OR_FILE", help="a preset name or a ruleset file")
    parser.add_argument("--events", required=True, metavar="FILE.jsonl", help="the match's event log")
    parser.add_argument("--at", type=_seconds, metavar="SECONDS", help="instant to show (seconds on the log's clock)")
    parser.add_argument("--stage", choices=("round_robin", "knockout"), default="round_robin",
                        help="whether the match may end level (default: round_robin)")
    parser.add_argument("--round", metavar="ROUND", help='the round, e.g. "semi_final" (time-outs may depend on it)')
    parser.add_argument("--on-field", type=int, metavar="N",
                        help="players a side on the field, to show 5 v 4 (default: the ruleset's match.on_field)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    ruleset = load_ruleset(args.rules)
    source = str(args.events)
    text = read_text(source)
    match = Match(ruleset, stage=args.stage, round=args.round, on_field=args.on_field)
    for line, event in numbered_events(text, source):
        try:
            match.apply(event)
        except IllegalCommand as err:
            raise EventLogError(source, line, f"seq {event.seq} ({event.type}) refused: {err.reason}") from None
    at = match.last_at if args.at is None else round(args.at * 1000)
    json.dump(match.state_at(at).to_dict(), sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0

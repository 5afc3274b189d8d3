"""``courtside replay``: rebuild a match from its event log and print the state, in words or as JSON.

The central server runs this to check the result a table sends; an official runs
it to settle a dispute about what the clock showed at a given moment.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from rules import Match, load_ruleset, read_log, read_text, state_text

MAX_MATCH_SECONDS = 24 * 60 * 60
"""No match lasts a day, breaks and extra time included: an instant (``--at``) beyond it is refused."""


def match_instant(text: str) -> float:
    """An instant of a match in seconds, for ``--at``: finite, not negative, within a day.

    Meant as an option's ``type``: argparse shows the reason and exits with status 2.
    """
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 <= seconds <= MAX_MATCH_SECONDS:  # also false for nan
        raise argparse.ArgumentTypeError(f"{text!r} is not an instant of a match (0 to {MAX_MATCH_SECONDS} seconds)")
    return seconds


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "replay", help="replay a match's event log and print its state",
        description="Replay an event log (JSON lines, docs/events.md) and print the match state at --at seconds "
        "or at the instant of the log's last event. A log with a header needs no other option; the options "
        "below override the header (a ruleset whose content differs from the header's is refused).",
    )
    parser.add_argument("--events", required=True, metavar="FILE.jsonl", help="the match's event log (JSON lines)")
    parser.add_argument("--rules", metavar="NAME_OR_FILE",
                        help="a preset name or a ruleset TOML file (default: the one the log's header names)")
    parser.add_argument("--at", type=match_instant, metavar="SECONDS",
                        help="instant to show (seconds on the log's clock, 0 to a day)")
    parser.add_argument("--stage", choices=("round_robin", "knockout"),
                        help="whether the match may end level (default: the header's, else round_robin)")
    parser.add_argument("--round", metavar="ROUND", help='the round, e.g. "semi_final" (default: the header\'s)')
    parser.add_argument("--on-field", type=int, metavar="N",
                        help="players a side on the field, to show 5 v 4 (default: the header's, else the ruleset's)")
    parser.add_argument("--format", choices=("text", "json"), default="text",
                        help="text: the board in words; json: MatchState.to_dict() (what display snapshot reads)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    source = str(args.events)
    ruleset = load_ruleset(args.rules) if args.rules is not None else None
    log = read_log(read_text(source), source)
    match = Match.from_log(log, load_ruleset, source=source, ruleset=ruleset, stage=args.stage, round=args.round,
                           on_field=args.on_field)
    at = match.last_at if args.at is None else round(args.at * 1000)
    state = match.state_at(at)
    if args.format == "json":
        json.dump(state.to_dict(), sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        header = log.header  # its teams' names, where the table wrote them (a table's own log has them)
        teams = (header.home, header.away) if header is not None and header.home and header.away else None
        print(state_text(state, match.ruleset, teams=teams))
    return 0

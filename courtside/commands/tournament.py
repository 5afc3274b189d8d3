"""``courtside tournament draw|schedule|show``: a tournament file's draw, fixture list and progress."""

from __future__ import annotations

import argparse
import json
import secrets
import sys
from typing import Any

from courtside.render import (
    draw_json,
    draw_text,
    progress_json,
    progress_text,
    schedule_json,
    schedule_part,
    schedule_text,
)
from rules import (
    MAX_DECISIONS_BYTES,
    MAX_RESULTS_BYTES,
    Tournament,
    TournamentError,
    build_schedule,
    load_tournament_ruleset,
    make_draw,
    pool_teams,
    progress,
    read_decisions_csv,
    read_results_csv,
    read_text,
    read_tournament_file,
)
from rules.standings.csvfile import MAX_ROWS

TOURNAMENT_FILE = "the tournament TOML file (docs/tournaments.md), e.g. rules/examples/indoor-hockey.toml"


def _seed(text: str) -> int:
    """``--seed``: a whole number from 0 up to 2**53, like draw.seed in the file."""
    if not (text.isascii() and text.isdigit()) or len(text) > 16 or int(text) > 2**53:
        raise argparse.ArgumentTypeError(f"{text[:20]!r} is not a draw seed (a whole number from 0 to 2**53)")
    return int(text)


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "tournament",
        help="draw, schedule and follow a tournament",
        description="A tournament file (TOML, docs/tournaments.md) declares the teams, courts, times and stages; "
        "rules/examples/ has one per shipped ruleset.",
    )
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")

    p = actions.add_parser("draw", help="draw the pools; prints the seed that reproduces the draw")
    p.add_argument("file", metavar="TOURNAMENT.toml", help=TOURNAMENT_FILE)
    p.add_argument("--seed", type=_seed, help="draw with this seed (default: the file's draw.seed, else a new one)")
    p.add_argument("--format", choices=("text", "json"), default="text", help="text for people, json for programs")
    p.set_defaults(run=_draw)

    p = actions.add_parser("schedule", help="build the fixture list across courts and times")
    p.add_argument("file", metavar="TOURNAMENT.toml", help=TOURNAMENT_FILE)
    p.add_argument("--seed", type=_seed, help="use this draw seed instead of the file's draw.seed")
    p.add_argument("--day", metavar="YYYY-MM-DD", help="only this day's matches")
    p.add_argument("--court", metavar="NAME", help="only this court's matches (its name in the file)")
    p.add_argument("--by", choices=("day", "court"), default="day",
                   help="list the matches by day (default) or court by court, each in playing order")
    p.add_argument("--format", choices=("text", "json"), default="text", help="text for people, json for programs")
    p.set_defaults(run=_schedule)

    p = actions.add_parser("show", help="standings, resolved placeholders and what is still open")
    p.add_argument("file", metavar="TOURNAMENT.toml", help=TOURNAMENT_FILE)
    p.add_argument(
        "--results",
        metavar="RESULTS.csv",
        help="the results CSV (pool,home,away,home_goals,away_goals,...; the one `courtside standings` reads); "
        "without it, the tournament before its first match: the draw and empty tables",
    )
    p.add_argument(
        "--decisions",
        metavar="DECISIONS.csv",
        help="the organiser's decisions CSV (pool,method,order: lots, penalty competitions)",
    )
    p.add_argument("--seed", type=_seed, help="use this draw seed instead of the file's draw.seed")
    p.add_argument("--format", choices=("text", "json"), default="text", help="text for people, json for programs")
    p.set_defaults(run=_show)


def _load(path: str) -> Tournament:
    return read_tournament_file(path)


def _emit(args: argparse.Namespace, text: str, data: dict[str, Any]) -> None:
    if args.format == "json":
        json.dump(data, sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(text)


def _draw(args: argparse.Namespace) -> int:
    t = _load(args.file)
    if not t.drawn_pools:
        raise TournamentError(args.file, "pools", "every pool lists its teams; there is nothing to draw")
    seed = args.seed if args.seed is not None else t.draw.seed
    if seed is None:
        seed = secrets.randbelow(1_000_000)  # a new draw; printed so it can be recorded and reproduced
    draw = make_draw(t, seed)
    _emit(args, draw_text(t, draw), draw_json(t, draw))
    return 0


def _schedule(args: argparse.Namespace) -> int:
    t = _load(args.file)
    ruleset = load_tournament_ruleset(t, args.file)
    schedule = build_schedule(t, ruleset, pool_teams(t, args.file, args.seed))
    shown = schedule_part(schedule, day=args.day, court=args.court)
    _emit(args, schedule_text(t, shown, by=args.by, of=len(schedule.matches)), schedule_json(t, shown))
    return 0


def _show(args: argparse.Namespace) -> int:
    t = _load(args.file)
    ruleset = load_tournament_ruleset(t, args.file)
    numbered = read_results_csv(read_text(args.results, max_bytes=MAX_RESULTS_BYTES, max_lines=MAX_ROWS),
                                args.results) if args.results else []
    results = [result for _, result in numbered]
    decided = (
        read_decisions_csv(read_text(args.decisions, max_bytes=MAX_DECISIONS_BYTES, max_lines=MAX_ROWS), args.decisions)
        if args.decisions
        else []
    )
    entry = pool_teams(t, args.file, args.seed)
    lines = tuple(line for line, _ in numbered)
    state = progress(
        t,
        ruleset,
        entry,
        results,
        [decision for _, decision in decided],
        results_source=args.results or "results",
        source=args.file,
        result_lines=lines,
        decisions_source=args.decisions or "decisions",
        decision_lines=[line for line, _ in decided],
    )
    _emit(args, progress_text(t, state), progress_json(t, state))
    return 0

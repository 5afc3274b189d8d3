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
    Cup,
    TournamentClass,
    TournamentError,
    draw_classes,
    load_cup_rulesets,
    make_draw,
    plan_cup,
    progress,
    read_cup_file,
    read_decisions_csv,
    read_results_csv,
    read_text,
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
    p.add_argument("--class", dest="class_name", metavar="CLASS",
                   help="only this class of a cup (its name in the file's [[classes]], e.g. P12)")
    p.add_argument("--format", choices=("text", "json"), default="text", help="text for people, json for programs")
    p.set_defaults(run=_draw)

    p = actions.add_parser("schedule", help="build the fixture list across courts and times")
    p.add_argument("file", metavar="TOURNAMENT.toml", help=TOURNAMENT_FILE)
    p.add_argument("--seed", type=_seed, help="use this draw seed instead of the file's draw.seed")
    p.add_argument("--class", dest="class_name", metavar="CLASS",
                   help="only this class of a cup (its name in the file's [[classes]], e.g. P12)")
    p.add_argument("--day", metavar="YYYY-MM-DD", help="only this day's matches")
    p.add_argument("--court", metavar="NAME", help="only this court's matches (its name in the file)")
    p.add_argument("--by", choices=("day", "court", "class"), default="day",
                   help="list the matches by day (default), court by court or class by class, each in playing order")
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
    p.add_argument("--class", dest="class_name", metavar="CLASS",
                   help="only this class of a cup (its name in the file's [[classes]], e.g. P12)")
    p.add_argument("--seed", type=_seed, help="use this draw seed instead of the file's draw.seed")
    p.add_argument("--format", choices=("text", "json"), default="text", help="text for people, json for programs")
    p.set_defaults(run=_show)


def _load(path: str) -> Cup:
    return read_cup_file(path)


def _classes(args: argparse.Namespace, cup: Cup) -> list[TournamentClass]:
    """The class ``--class`` names, or every class; a class the file does not have is refused with its classes."""
    chosen = getattr(args, "class_name", None)
    if chosen is None:
        return list(cup.classes)
    found = cup.class_named(chosen) if cup.has_classes else None
    if found is None:
        known = ", ".join(c.name for c in cup.classes) if cup.has_classes else "none: the file declares no classes"
        raise TournamentError(args.file, "--class", f"{chosen!r} is not one of the file's classes ({known})")
    return [found]


def _seeds(args: argparse.Namespace, cup: Cup, chosen: list[TournamentClass]) -> dict[str, int | None]:
    """``--seed`` is one class's draw: with several classes it needs ``--class``."""
    if args.seed is None:
        return {}
    if len(chosen) > 1:
        raise TournamentError(args.file, "--seed", "a seed draws one class: name it with --class")
    return {chosen[0].name: args.seed}


def _emit(args: argparse.Namespace, text: str, data: dict[str, Any]) -> None:
    if args.format == "json":
        json.dump(data, sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(text)


def _emit_classes(args: argparse.Namespace, parts: list[tuple[str, str, dict[str, Any]]]) -> None:
    """One class as before; several one after another (text) or as a list under "classes" (JSON)."""
    if len(parts) == 1:
        _emit(args, parts[0][1], parts[0][2])
        return
    _emit(args, "\n".join(text for _, text, _ in parts), {"classes": [data for _, _, data in parts]})


def _draw(args: argparse.Namespace) -> int:
    cup = _load(args.file)
    chosen = [c for c in _classes(args, cup) if c.tournament.drawn_pools]
    if not chosen:
        raise TournamentError(args.file, "pools", "every pool lists its teams; there is nothing to draw")
    seeds = _seeds(args, cup, chosen)
    parts = []
    for c in chosen:
        seed = seeds.get(c.name, c.tournament.draw.seed)
        if seed is None:
            seed = secrets.randbelow(1_000_000)  # a new draw; printed so it can be recorded and reproduced
        draw = make_draw(c.tournament, seed)
        parts.append((c.name, draw_text(c.tournament, draw, c.name), draw_json(c.tournament, draw, c.name)))
    _emit_classes(args, parts)
    return 0


def _schedule(args: argparse.Namespace) -> int:
    cup = _load(args.file)
    chosen = _classes(args, cup)
    plan = plan_cup(cup, load_cup_rulesets(cup, args.file), args.file, _seeds(args, cup, chosen))
    if args.by == "class" and not cup.has_classes:
        raise TournamentError(args.file, "--by", "the file declares no classes; list by day or court")
    shown = schedule_part(plan.schedule, day=args.day, court=args.court, class_name=args.class_name)
    _emit(args, schedule_text(cup.name, shown, by=args.by, of=len(plan.schedule.matches)),
          schedule_json(cup.name, shown))
    return 0


def _show(args: argparse.Namespace) -> int:
    cup = _load(args.file)
    chosen = _classes(args, cup)
    rulesets = load_cup_rulesets(cup, args.file)
    numbered = read_results_csv(read_text(args.results, max_bytes=MAX_RESULTS_BYTES, max_lines=MAX_ROWS),
                                args.results) if args.results else []
    decided = (
        read_decisions_csv(read_text(args.decisions, max_bytes=MAX_DECISIONS_BYTES, max_lines=MAX_ROWS), args.decisions)
        if args.decisions
        else []
    )
    for line, result in numbered if cup.has_classes else ():  # a result names its pool or match, and so its class
        if cup.class_of_stage(result.pool) is None:
            raise TournamentError(args.results, f"line {line}",
                                  f"{result.pool!r} is neither a pool nor a match of any class of the file")
    entry = draw_classes(cup, args.file, _seeds(args, cup, chosen))
    parts = []
    for c in chosen:
        mine = [(line, r) for line, r in numbered if cup.owns(c, r.pool)]
        decisions = [(line, d) for line, d in decided if cup.owns(c, d.pool)]
        state = progress(
            c.tournament,
            rulesets[c.name],
            entry[c.name],
            [r for _, r in mine],
            [d for _, d in decisions],
            results_source=args.results or "results",
            source=args.file,
            result_lines=[line for line, _ in mine],
            decisions_source=args.decisions or "decisions",
            decision_lines=[line for line, _ in decisions],
        )
        parts.append((c.name, progress_text(c.tournament, state, c.name), progress_json(c.tournament, state, c.name)))
    _emit_classes(args, parts)
    return 0

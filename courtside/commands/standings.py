"""``courtside standings``: rank every pool of a results file by a ruleset.

    courtside standings (--rules NAME_OR_FILE | --tournament FILE [--class CLASS]) --results FILE
                        [--decisions FILE] [--fair-play FILE] [--format text|json]

Ties that only lots or a penalty competition can break are listed with what
they need; the organiser's decisions file (``pool,method,order``) resolves them.
A ruleset that ranks by fair play reads the teams' disciplinary points from
``--fair-play`` (``pool,team,points`` or ``pool,team,kind,count[,person]``); a tie
that needs them for a team the file does not list stays unresolved.

With ``--tournament`` the ruleset is the tournament file's; a cup of classes ranks one class (``--class``) by its
own ruleset, reading only its pools' rows of the cup's results file.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from rules import (
    MAX_DECISIONS_BYTES,
    MAX_RESULTS_BYTES,
    Cup,
    Decision,
    MatchResult,
    PoolTable,
    ResultsError,
    Ruleset,
    Standings,
    TournamentClass,
    TournamentError,
    load_cup_rulesets,
    load_ruleset,
    parse_fair_play_csv,
    parse_results_csv,
    rank_pool,
    rank_pools,
    read_cup_file,
    read_decisions_csv,
    read_text,
)
from rules.standings.csvfile import MAX_ROWS
from rules.standings.possible import impossible


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "standings",
        help="rank every pool of a results file",
        description="Rank every pool of a results CSV (pool,home,away,home_goals,away_goals[,outcome,winner,"
        "home_shootout,away_shootout]) by a ruleset; every place says why it is there.",
    )
    by = parser.add_mutually_exclusive_group(required=True)
    by.add_argument(
        "--rules",
        metavar="NAME_OR_FILE",
        help="a preset name (see courtside rules list) or a ruleset TOML file",
    )
    by.add_argument(
        "--tournament",
        metavar="FILE",
        help="a tournament file: rank by its ruleset (a cup of classes: the --class's)",
    )
    parser.add_argument(
        "--class", dest="class_name", metavar="CLASS",
        help="with --tournament: the class to rank (its pools' rows of the results file, by its ruleset)",
    )
    parser.add_argument(
        "--results",
        required=True,
        metavar="FILE",
        help="results CSV file: pool,home,away,home_goals,away_goals[,outcome,winner,home_shootout,away_shootout]",
    )
    parser.add_argument(
        "--decisions", metavar="FILE", help="the organiser's decisions CSV file: pool,method,order (e.g. A,lots,X>Y)"
    )
    parser.add_argument(
        "--fair-play",
        metavar="FILE",
        help="disciplinary points CSV: pool,team,points or pool,team,kind,count[,person] (cards, counted by the "
        "ruleset's [ranking.fair_play])",
    )
    parser.add_argument("--format", choices=("text", "json"), default="text", help="text tables (default) or JSON")
    parser.set_defaults(run=run)


def _check_decisions(decisions: list[tuple[int, Decision]], results: list[MatchResult], source: str) -> None:
    teams: dict[str, set[str]] = {}
    for r in results:
        teams.setdefault(r.pool, set()).update(r.teams)
    for line, decision in decisions:
        if decision.pool not in teams:
            raise ResultsError(source, line, f"the decision names pool {decision.pool!r}, which has no results")
        strangers = [t for t in decision.order if t not in teams[decision.pool]]
        if strangers:
            raise ResultsError(
                source, line, f"the decision for pool {decision.pool} names {', '.join(strangers)}, not in that pool"
            )


def _check_fair_play(fair_play: dict[str, dict[str, int]], results: list[MatchResult], source: str) -> None:
    teams: dict[str, set[str]] = {}
    for r in results:
        teams.setdefault(r.pool, set()).update(r.teams)
    for pool, points in fair_play.items():
        if pool not in teams:
            raise ResultsError(source, None, f"the file names pool {pool!r}, which has no results")
        strangers = sorted(set(points) - teams[pool])
        if strangers:
            raise ResultsError(source, None, f"{', '.join(strangers)}: not a team of pool {pool}")


def _class_of(args: argparse.Namespace) -> tuple[Ruleset, TournamentClass | None, Cup | None]:
    """The ruleset to rank by, and with ``--tournament`` the class (and its cup) whose pools are ranked."""
    if args.tournament is None:
        if args.class_name is not None:
            raise TournamentError("--class", "", "a class is one of a tournament file's: give --tournament FILE")
        return load_ruleset(args.rules), None, None
    cup = read_cup_file(args.tournament)
    if not cup.has_classes:
        if args.class_name is not None:
            raise TournamentError(args.tournament, "--class", "the file declares no classes")
        chosen = cup.classes[0]
    elif args.class_name is None:
        raise TournamentError(args.tournament, "--class", "the file's classes rank apart, each by its own ruleset: "
                              f"name one ({', '.join(c.name for c in cup.classes)})")
    else:
        found = cup.class_named(args.class_name)
        if found is None:
            raise TournamentError(args.tournament, "--class", f"{args.class_name!r} is not one of the file's classes "
                                  f"({', '.join(c.name for c in cup.classes)})")
        chosen = found
    return load_cup_rulesets(cup, args.tournament)[chosen.name], chosen, cup


def run(args: argparse.Namespace) -> int:
    ruleset, chosen, cup = _class_of(args)
    pools = others = None
    if chosen is not None and cup is not None and cup.has_classes:
        pools = [p.name for p in chosen.tournament.pools]
        others = [stage for c in cup.classes for stage in (
            *(p.name for p in c.tournament.pools), *(m.name for m in c.tournament.matches)) if stage not in pools]
    results = parse_results_csv(
        read_text(args.results, max_bytes=MAX_RESULTS_BYTES, max_lines=MAX_ROWS),
        args.results,
        meetings=ruleset.ranking.meetings,
        level_allowed="round_robin" in ruleset.match.level_allowed_in,
        check=lambda result: _pool_match_problem(ruleset, result),
        pools=pools,
        others=others or (),
    )
    decisions: list[Decision] = []
    if args.decisions:
        text = read_text(args.decisions, max_bytes=MAX_DECISIONS_BYTES, max_lines=MAX_ROWS)
        numbered = read_decisions_csv(text, args.decisions)
        _check_decisions(numbered, results, args.decisions)
        decisions = [decision for _, decision in numbered]
    fair_play = None
    if args.fair_play:
        text = read_text(args.fair_play, max_bytes=MAX_DECISIONS_BYTES, max_lines=MAX_ROWS)
        fair_play = parse_fair_play_csv(text, args.fair_play, ruleset.ranking.fair_play)
        _check_fair_play(fair_play, results, args.fair_play)
    standings = rank_pools(ruleset, results, decisions=decisions, fair_play=fair_play)
    if decisions:
        _warn_unused(decisions, results, ruleset, standings, fair_play)
    if args.format == "json":
        json.dump(standings.to_json(), sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(render_text(standings, ruleset.name))
    return 0


def _pool_match_problem(ruleset: Ruleset, result: MatchResult) -> str | None:
    problem = impossible(ruleset.match, result, "round_robin")
    if problem is not None and result.outcome in ("overtime", "shootout") and impossible(
        ruleset.match, result, "knockout"
    ) is None:
        # The row of a knock-out match: a tournament's results file holds those too.
        problem += "; for a whole tournament's results use `courtside tournament show FILE --results RESULTS`"
    return problem


def _warn_unused(decisions: list[Decision], results: list[MatchResult], ruleset: Ruleset, decided: Standings,
                 fair_play: dict[str, dict[str, int]] | None = None) -> None:
    """Say which decisions order no tie: a stale file should not pass unnoticed.

    A decision is used when the table changes without it. Comparing with the table
    before any decision would not do: one decision can bring out a tie that only
    the next one settles (penalty shots place a team, and the teams left are level
    again), and it can dissolve a tie another decision was written for.
    """
    for d in decisions:
        said = f"{d.pool},{d.method},{'>'.join(d.order)}"
        if d.method not in ruleset.ranking.criteria:
            print(f"courtside: warning: decision {said} not used: the ruleset has no {d.method!r}", file=sys.stderr)
            continue
        others = [o for o in decisions if o is not d]
        known = None if fair_play is None else fair_play.get(d.pool)
        if rank_pool(ruleset, d.pool, results, decisions=others, fair_play=known) == decided.pools[d.pool]:
            print(f"courtside: warning: decision {said} not used: those teams are not a tie", file=sys.stderr)


def _rank_cells(table: PoolTable) -> list[str]:
    ranks = [row.rank for row in table.rows]
    return [f"={r}" if ranks.count(r) > 1 else str(r) for r in ranks]


def render_text(standings: Standings, ruleset_name: str) -> str:
    """Each pool as a table with its reasons, then the ties waiting for a decision."""
    out: list[str] = [] if standings.pools else ["No matches in the results file.", ""]
    for name, table in standings.pools.items():
        width = max([4, *(len(row.team) for row in table.rows)])
        out.append(f"Pool {name} ({ruleset_name})")
        out.append(f"{'#':>3}  {'Team':<{width}}   P   W   D   L   GF   GA    GD  Pts  Why")
        for cell, row in zip(_rank_cells(table), table.rows, strict=True):
            gd = f"{row.goal_difference:+d}" if row.goal_difference else "0"
            out.append(
                f"{cell:>3}  {row.team:<{width}} {row.played:>3} {row.won:>3} {row.drawn:>3} {row.lost:>3}"
                f" {row.goals_for:>4} {row.goals_against:>4} {gd:>5} {row.points:>4}  {row.reason}"
            )
        out.append("")
    decided = [tie for tie in standings.unresolved if not tie.data]
    if decided:
        out.append("Unresolved ties (add a line to the decisions file: pool,method,order):")
        for tie in decided:
            out.append(f"  pool {tie.pool}: {', '.join(tie.teams)} need {tie.needs}")
        out.append("")
    data = [tie for tie in standings.unresolved if tie not in decided]
    if data:
        out.append("Ties waiting for data (give it with --fair-play FILE):")
        for tie in data:
            out.append(f"  pool {tie.pool}: {', '.join(tie.teams)} need {tie.needs}")
        out.append("")
    return "\n".join(out)

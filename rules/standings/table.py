"""Pool tables: rows with totals, rank and reason, and the ties left for the organiser."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from rules.errors import ResultsError
from rules.record import Record, field
from rules.ruleset import Ruleset
from rules.schema import as_data
from rules.standings.decisions import Decision, decision_problem
from rules.standings.pending import settle
from rules.standings.reasons import settled_words
from rules.standings.results import MatchResult, result_problem
from rules.standings.scoring import PoolData
from rules.words.standings import Words, reason_text


class TableRow(Record):
    rank: int
    team: str
    played: int
    won: int
    drawn: int
    lost: int
    goals_for: int
    goals_against: int
    goal_difference: int
    points: int
    reason: str


class Unresolved(Record):
    """Teams the results leave level; ``needs`` says what the organiser must decide."""

    pool: str
    teams: tuple[str, ...]
    needs: str
    needs_words: Words | None = field(default=None, compare=False)  # ``needs`` as phrases (rules.words.standings)
    method: str = field(default="", compare=False)  # the decision's method ("lots"); "" when the ruleset has none
    data: bool = field(default=False, compare=False)  # waits for data (fair-play points), not a decision


class PoolTable(Record):
    pool: str
    rows: tuple[TableRow, ...]
    unresolved: tuple[Unresolved, ...]
    reason_words: dict[str, Words] = field(default_factory=dict, compare=False)
    """Each team's ``reason`` as data (catalog phrases), for words in another language:
    ``rules.words.standings.reason_text(table.reason_words[team], words_for("sv"))``. Empty for
    a table rebuilt from its English rows (a screen's copy from the service)."""


class Standings(Record):
    pools: dict[str, PoolTable]
    unresolved: tuple[Unresolved, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "pools": {name: [as_data(row) for row in table.rows] for name, table in self.pools.items()},
            "unresolved": [
                {"pool": u.pool, "teams": list(u.teams), "needs": u.needs} for u in self.unresolved
            ],
        }


def _check(ruleset: Ruleset, pool: str, results: Sequence[MatchResult], teams: Sequence[str]) -> None:
    where = f"pool {pool}"
    if len(set(teams)) != len(teams):
        twice = sorted(t for t, n in Counter(teams).items() if n > 1)
        raise ResultsError(where, None, f"team(s) {', '.join(twice)} listed twice")
    known = set(teams)
    meetings: Counter[frozenset[str]] = Counter()
    limit = ruleset.ranking.meetings
    for r in results:
        problem = result_problem(r)
        if problem is not None:
            raise ResultsError(where, None, f"{r.home} v {r.away}: {problem}")
        for team in r.teams:
            if team not in known:
                raise ResultsError(where, None, f"{r.home} v {r.away}: {team!r} is not one of the pool's teams")
        pairing = frozenset(r.teams)
        meetings[pairing] += 1
        if meetings[pairing] > limit:
            raise ResultsError(
                where, None, f"{r.home} v {r.away} is entered {meetings[pairing]} times; the ruleset allows {limit}"
            )


def rank_pool(
    ruleset: Ruleset,
    pool: str,
    results: Sequence[MatchResult],
    *,
    teams: Sequence[str] | None = None,
    decisions: Sequence[Decision] = (),
    fair_play: Mapping[str, int] | None = None,
) -> PoolTable:
    """Rank one pool. Only ``results`` of ``pool`` count; ``teams`` lists every
    team of the pool (a team yet to play still has a row), by default the teams
    in its results. Ties the results cannot break share a rank and appear in
    ``unresolved`` unless one of ``decisions`` orders exactly those teams. ``fair_play`` gives
    each team's disciplinary points for a ruleset that ranks by them; a tie that reaches the
    criterion with a team missing stays unresolved."""
    mine = [r for r in results if r.pool == pool]
    if teams is None:
        teams = list(dict.fromkeys(t for r in mine for t in r.teams))
    _check(ruleset, pool, mine, teams)
    for decision in decisions:
        problem = decision_problem(decision)
        if problem is not None:
            raise ResultsError(f"decision for pool {decision.pool}", None, problem)
    data = PoolData.build(ruleset, pool, mine, teams)
    if fair_play is not None:
        strangers = sorted(set(fair_play) - set(teams))
        if strangers:
            raise ResultsError(where_fair_play(pool), None, f"{', '.join(strangers)}: not a team of pool {pool}")
    settled = settle(ruleset, data, decisions, fair_play)
    words = settled_words(settled)
    reasons = {team: reason_text(w) for team, w in words.items()}
    rows: list[TableRow] = []
    for group in settled.placing:
        rank = len(rows) + 1
        for team in group:
            record = data.overall[team]
            rows.append(
                TableRow(
                    rank=rank,
                    team=team,
                    played=record.played,
                    won=record.won,
                    drawn=record.drawn,
                    lost=record.lost,
                    goals_for=record.goals_for,
                    goals_against=record.goals_against,
                    goal_difference=record.goal_difference,
                    points=record.points,
                    reason=reasons[team],
                )
            )
    unresolved = tuple(
        Unresolved(pool=pool, teams=tie.teams, needs=tie.needs, needs_words=tie.needs_words, method=tie.method,
                   data=tie.data)
        for tie in settled.ties
    )
    return PoolTable(pool=pool, rows=tuple(rows), unresolved=unresolved, reason_words=words)


def where_fair_play(pool: str) -> str:
    return f"disciplinary points for pool {pool}"


def rank_pools(
    ruleset: Ruleset,
    results: Sequence[MatchResult],
    *,
    decisions: Sequence[Decision] = (),
    fair_play: Mapping[str, Mapping[str, int]] | None = None,
) -> Standings:
    """Rank every pool that appears in ``results``, in order of first appearance; ``fair_play``
    gives each pool's teams' disciplinary points (pool -> team -> points)."""
    by_pool: dict[str, list[MatchResult]] = {}
    for r in results:
        by_pool.setdefault(r.pool, []).append(r)
    known = fair_play or {}
    strangers = sorted(set(known) - set(by_pool))
    if strangers:
        raise ResultsError(where_fair_play(strangers[0]), None, f"pool {strangers[0]} has no results")
    tables = {pool: rank_pool(ruleset, pool, mine, decisions=decisions, fair_play=known.get(pool) if fair_play
                              is not None else None) for pool, mine in by_pool.items()}
    unresolved = tuple(u for table in tables.values() for u in table.unresolved)
    return Standings(pools=tables, unresolved=unresolved)

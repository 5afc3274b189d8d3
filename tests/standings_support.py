"""Helpers for the standings tests: results written the way a scoresheet reads."""

from __future__ import annotations

import re
from collections.abc import Sequence

from rules.ruleset import RankingRules, Ruleset, load_ruleset, parse_part
from rules.standings import MatchResult, PoolTable

_LINE = re.compile(r"(.+?) (\d+)-(\d+) (.+)")


def played(pool: str, *lines: str) -> list[MatchResult]:
    """``played("A", "Ajax 2-1 PSV", ...)``: regular-time results, home team first."""
    out: list[MatchResult] = []
    for line in lines:
        m = _LINE.fullmatch(line)
        assert m is not None, line
        out.append(
            MatchResult(pool=pool, home=m[1], away=m[4], home_goals=int(m[2]), away_goals=int(m[3]))
        )
    return out


def with_ranking(base: str, criteria: Sequence[str], tie_mode: str = "uefa") -> Ruleset:
    """A preset with its ranking replaced (points and match format kept)."""
    ruleset = load_ruleset(base)
    ranking = parse_part(RankingRules, {"criteria": list(criteria), "tie_mode": tie_mode}, "ranking")
    return ruleset.replace(ranking=ranking)


def order(table: PoolTable) -> list[str]:
    return [row.team for row in table.rows]


def row(table: PoolTable, team: str) -> dict[str, object]:
    found = [r for r in table.rows if r.team == team]
    assert len(found) == 1
    return vars(found[0])

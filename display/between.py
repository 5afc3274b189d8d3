"""What the screen shows between matches, from the tournament file and the results the table knows.

The table (firmware/) knows its tournament file and the results of the matches it has played
(and, once the MQTT link lands, the central server's tables); :func:`pool_tables` ranks every
first-round pool with the shipped rules, so the screen between matches shows the same tables
`courtside tournament show` prints.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules import MatchResult, PoolTable, Ruleset, Tournament, pool_teams, rank_pool


def pool_tables(tournament: Tournament, ruleset: Ruleset, results: Sequence[MatchResult],
                source: str = "tournament") -> tuple[PoolTable, ...]:
    """Every first-round pool's table, in the file's order: each team has a row, played or not."""
    teams = pool_teams(tournament, source)
    return tuple(rank_pool(ruleset, pool.name, results, teams=teams[pool.name])
                 for pool in tournament.entry_pools if pool.name in teams)

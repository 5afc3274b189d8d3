"""rules/pool_table.py: a pool's table on the wire, from the standings the engine ranks to what a screen reads."""

from __future__ import annotations

from typing import Any

import pytest

from rules import protocol as p
from rules.errors import ProtocolError
from rules.pool_table import PublishedRow, PublishedTable, pool_table_payload, read_pool_table
from rules.ruleset import load_ruleset
from rules.standings import MatchResult, rank_pool

HOCKEY = load_ruleset("indoor-hockey")
TEAMS = ["Köln", "Praha", "Minsk"]


def _ranked() -> Any:
    results = [MatchResult(pool="A", home="Köln", away="Praha", home_goals=3, away_goals=1),
               MatchResult(pool="A", home="Praha", away="Minsk", home_goals=2, away_goals=2)]
    return rank_pool(HOCKEY, "A", results, teams=TEAMS)


def test_a_ranked_table_reads_back_as_it_was_ranked() -> None:
    table = _ranked()
    payload = pool_table_payload("A", table.rows, [], played=2, expected=3, complete=False,
                                 unresolved=[u.needs for u in table.unresolved])
    read = read_pool_table(p.parse(p.encode(p.build(id="t", type="table", payload=payload))).payload)
    assert read.pool == "A" and (read.played, read.expected, read.complete) == (2, 3, False)
    assert [(r.team, r.points, r.rank, r.goal_difference, r.reason) for r in read.rows] == [
        (r.team, r.points, r.rank, r.goal_difference, r.reason) for r in table.rows]
    assert read.rows[0].team == "Köln" and read.rows[0].reason


def test_before_a_match_is_played_each_team_waits_on_nothing() -> None:
    payload = pool_table_payload("C", None, [("Köln", ""), ("1A", "winner of pool A, not known yet")], played=0,
                                 expected=1, complete=False, unresolved=[])
    read = read_pool_table(payload)
    assert read == PublishedTable(pool="C", played=0, expected=1, complete=False, rows=(
        PublishedRow(rank=0, team="Köln", played=0, won=0, drawn=0, lost=0, goals_for=0, goals_against=0,
                     goal_difference=0, points=0),
        PublishedRow(rank=0, team="1A", played=0, won=0, drawn=0, lost=0, goals_for=0, goals_against=0,
                     goal_difference=0, points=0, reason="winner of pool A, not known yet")))


def test_parse_hands_on_the_table_it_read() -> None:
    payload = pool_table_payload("A", _ranked().rows, [], played=2, expected=3, complete=False, unresolved=[])
    message = p.parse(p.encode(p.build(id="t", type="table", payload=payload)), topic="courtside/v2/cup/pool/A/table")
    assert message.body == read_pool_table(payload)


@pytest.mark.parametrize(("change", "where"), [
    ({"rows": "none"}, "payload"),
    ({"rows": [{"team": 3}]}, r"payload\.rows\[0\]"),
    ({"rows": [{"team": "Köln", "rank": -1}]}, r"payload\.rows\[0\]\.rank"),
    ({"complete": "yes"}, r"payload\.complete"),
    ({"unresolved": [1]}, r"payload\.unresolved"),
    ({"played": True}, r"payload\.played"),
])
def test_a_wrong_table_is_refused_by_where(change: dict[str, Any], where: str) -> None:
    payload = {**pool_table_payload("A", _ranked().rows, [], played=2, expected=3, complete=False, unresolved=[]),
               **change}
    with pytest.raises(ProtocolError, match=where):
        read_pool_table(payload)

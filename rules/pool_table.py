"""A pool's table on the wire: the service publishes it (retained) on ``pool/{pool}/table``; venue screens show
it between matches. One record type, one builder, one reader (docs/asyncapi.yaml, TableMessage).

Its rows are the standings' ``TableRow`` as plain values. The record is this module's own, not
``rules.standings.PoolTable``: a table's start imports the protocol, and the standings package would cost it
about 20 ms more (docs/benchmarks.md, "Start-up").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from rules.errors import ProtocolError, whole_number
from rules.record import Record


class PublishedRow(Record):
    """One team's line of a published table, its place explained (``reason``, in the tournament's words)."""

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
    reason: str = ""


class PublishedTable(Record):
    pool: str
    rows: tuple[PublishedRow, ...]
    played: int  # matches played of the pool's ``expected``
    expected: int
    complete: bool
    unresolved: tuple[str, ...] = ()  # what each tie the results leave open needs, in words


_COUNTS = ("rank", "played", "won", "drawn", "lost", "goals_for", "goals_against", "points")


class _Row(Protocol):
    """A ranked row as the standings give it (``rules.standings.TableRow``), not imported: see above."""

    @property
    def rank(self) -> int: ...
    @property
    def team(self) -> str: ...
    @property
    def points(self) -> int: ...


def pool_table_payload(pool: str, rows: Sequence[_Row] | None, teams: list[tuple[str, str]], *, played: int,
                       expected: int, complete: bool, unresolved: list[str]) -> dict[str, Any]:
    """The payload of a pool's table: its ranked ``rows``, or before any can be ranked (None) each of its
    ``teams`` (name, why it waits) on 0 points."""
    lines = [{key: getattr(r, key) for key in PublishedRow.__record_fields__} for r in rows] if rows is not None else [
        {"rank": 0, "team": team, "played": 0, "won": 0, "drawn": 0, "lost": 0, "goals_for": 0, "goals_against": 0,
         "goal_difference": 0, "points": 0, "reason": needs} for team, needs in teams]
    return {"pool": pool, "rows": lines, "played": played, "expected": expected, "complete": complete,
            "unresolved": unresolved}


def read_pool_table(payload: Any, where: str = "payload") -> PublishedTable:
    """The table of a ``table`` payload, checked; a wrong key or value raises ProtocolError naming it. Keys a
    later version may add are ignored, so an older screen keeps working."""
    if not isinstance(payload, dict) or not isinstance(payload.get("pool"), str) \
            or not isinstance(payload.get("rows"), list):
        raise ProtocolError(where, "a table has its 'pool' and its 'rows'")
    rows = []
    for i, r in enumerate(payload["rows"]):
        at = f"{where}.rows[{i}]"
        if not isinstance(r, dict) or not isinstance(r.get("team"), str) or not isinstance(r.get("reason", ""), str):
            raise ProtocolError(at, "a row has its 'team' and counts")
        counts = {key: whole_number(f"{at}.{key}", r.get(key)) for key in _COUNTS}
        difference = r.get("goal_difference")
        if not isinstance(difference, int) or isinstance(difference, bool):
            raise ProtocolError(f"{at}.goal_difference", "must be a whole number")
        rows.append(PublishedRow(team=r["team"], goal_difference=difference, reason=r.get("reason", ""), **counts))
    unresolved = payload.get("unresolved", [])
    if not isinstance(unresolved, list) or not all(isinstance(u, str) for u in unresolved):
        raise ProtocolError(f"{where}.unresolved", "must be a list of sentences")
    complete = payload.get("complete")
    if not isinstance(complete, bool):
        raise ProtocolError(f"{where}.complete", "must be true or false")
    return PublishedTable(pool=payload["pool"], rows=tuple(rows), played=whole_number(f"{where}.played",
                          payload.get("played")), expected=whole_number(f"{where}.expected", payload.get("expected")),
                          complete=complete, unresolved=tuple(unresolved))


__all__ = ["PublishedRow", "PublishedTable", "pool_table_payload", "read_pool_table"]

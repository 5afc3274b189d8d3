"""What the service publishes, as the protocol's payloads: a pool's table and a court's schedule.

Built from the store's plain views (``rules.tournament.PoolState``, ``server.queries.FixtureView``);
docs/asyncapi.yaml describes them and tests check captured ones against it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import bindparam, select

from rules import CONTINUES, CourtMatch, CourtSchedule, PoolState, Suspended, court_schedule_payload, of_standings
from rules.pool_table import pool_table_payload
from server import queries
from server.db.models import Conflict
from server.store import Store

# The settled reports of matches without a result, latest last: built once (a statement built per call is
# compiled again each time, and this runs for every schedule published while a match is being played).
_SETTLED = (select(Conflict.match_id, Conflict.settlement)
            .where(Conflict.match_id.in_(bindparam("ids", expanding=True)), Conflict.settled_at.is_not(None))
            .order_by(Conflict.id))


def table_payload(state: PoolState) -> dict[str, Any]:
    """A pool's table as published (rules.pool_table): ranked, or before then its teams as far as they are known."""
    table = state.table
    return pool_table_payload(state.name, table.rows if table is not None else None,
                              [(slot.team or slot.text, slot.needs or "") for slot in state.teams],
                              played=state.played, expected=state.expected, complete=state.complete,
                              unresolved=[u.needs for u in table.unresolved] if table is not None else [])


def schedule_payload(store: Store, court: str, fixtures: list[queries.FixtureView] | None = None,
                     suspended: Mapping[str, list[dict[str, Any]]] | None = None) -> dict[str, Any]:
    """``suspended``: match id -> who may not play it (``Register.suspended``); a match with nobody has no key."""
    fixtures = queries.court_schedule(store, court) if fixtures is None else fixtures
    continues = continuing(store, [f.match_id for f in fixtures if f.status == "live"])
    suspended = suspended or {}
    kept = store.kept_views.court_matches
    matches = []
    for f in fixtures:
        # Each match as the court's table gets it, made again only when its view (kept by server.queries while
        # it is the same), its suspensions or its settlement change: a result changes one match of a court's 40.
        made_of = (suspended.get(f.match_id, ()), continues.get(f.match_id))
        last = kept.get(f.match_id)
        if last is None or last[0] is not f or last[1] != made_of:
            last = kept[f.match_id] = (f, made_of, CourtMatch(
                match=f.match_id, number=f.number, stage=f.stage, round=f.round, kind=f.kind,
                home=f.home_label, away=f.away_label, home_known=f.home is not None, away_known=f.away is not None,
                start=f.start, end=f.end, status=f.status,  # type: ignore[arg-type]
                result=None if f.result is None else of_standings(f.result),
                suspended=tuple(Suspended(**s) for s in made_of[0]),
                continues=made_of[1],  # type: ignore[arg-type]
                class_name=f.class_name,
            ))
        matches.append(last[2])
    return court_schedule_payload(CourtSchedule(court_name=store.plan.courts[court], matches=tuple(matches)))


def continuing(store: Store, match_ids: list[str]) -> dict[str, str]:
    """Of ``match_ids`` (matches played but without a result: an abandoned one's result is held, not stored),
    those the organiser settled to be played on, and how: "resume" or "replay" (seed 004). The latest settled
    report of a match decides (abandoned again after its resumption, it is settled again)."""
    if not match_ids:
        return {}
    latest: dict[str, str | None] = {}
    with store.session() as s:
        for match_id, settlement in s.execute(_SETTLED, {"ids": sorted(set(match_ids))}):
            latest[match_id] = settlement
    return {m: how for m, how in latest.items() if how in CONTINUES}

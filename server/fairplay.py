"""Disciplinary (fair-play) points for a pool's table, from the cards in the match logs the service holds.

Only for a ruleset that ranks by fair play (``ranking.fair_play``). Each played match's log is
replayed as the disciplinary register replays it (``server.discipline.cards_of``) and its cards
counted by ``rules.standings.fairplay.match_points``. A team that has played a match whose result
came without a log (entered at the desk, a walk-over) has no known total: it is left out, so a tie
that needs its points stays unresolved rather than counting that match as clean.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from rules import Ruleset, match_points
from server import discipline
from server.db.models import EventRow

if TYPE_CHECKING:
    from server.store import Store

_EVENTS = (select(EventRow.match_id, EventRow.body).where(EventRow.match_id.in_(bindparam("ids", expanding=True)))
           .order_by(EventRow.match_id, EventRow.seq))


def pool_fair_play(store: Store, s: Session, rows: Iterable[Any], teams: Sequence[str],
                   ruleset: Ruleset) -> dict[str, int]:
    """``teams``' disciplinary points over the pool's stored results ``rows`` (match_id, home, away), by the
    pool's class's ``ruleset``."""
    rows = list(rows)
    bodies: dict[str, list[dict[str, Any]]] = {r.match_id: [] for r in rows}
    if rows:
        for event in s.connection().execute(_EVENTS, {"ids": list(bodies)}):
            bodies[event.match_id].append(event.body)
    fixtures = store.fixtures(s)
    totals = dict.fromkeys(teams, 0)
    unknown: set[str] = set()
    for r in rows:
        f = fixtures.get(r.match_id)
        if f is None or not bodies[r.match_id]:
            unknown.update((r.home, r.away))
            continue
        cards = discipline.cards_of(ruleset, bodies[r.match_id], f.kind, f.round, r.match_id)
        side = {"home": r.home, "away": r.away}
        counted = match_points(ruleset, [(str(c["team"]), c.get("player"), str(c["kind"])) for c in cards])
        for which, points in counted.items():
            totals[side[which]] = totals.get(side[which], 0) + points
    return {team: points for team, points in totals.items() if team not in unknown}


def pools_fair_play(store: Store, s: Session, rows: Iterable[Any], pools: Sequence[str]) -> dict[str, dict[str, int]]:
    """The teams' disciplinary points (pool -> team -> points) of one class's ``pools`` over the stored results
    ``rows``."""
    plan = store.plan
    by_pool: dict[str, list[Any]] = {name: [] for name in pools}
    for r in rows:
        if r.stage in by_pool and r.outcome != "abandoned":
            by_pool[r.stage].append(r)
    return {name: pool_fair_play(store, s, mine, plan.entry_teams.get(name, ()), plan.ruleset_of(name))
            for name, mine in by_pool.items()}

"""A pool's table as the loop publishes it after a batch: a first-round pool re-ranked on its own, from its own
results and decisions (two reads for all the pools a batch changed); a later pool, whose teams come from other
pools, from the tournament's whole progress (:meth:`server.store.Store.progress`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from rules import Decision, MatchResult, PoolState, Slot, rank_pool
from server.db.models import DecisionRow, ResultRow
from server.fairplay import pool_fair_play
from server.progresses import to_match_result
from server.store import Store

# Prepared once: the loop re-ranks the pools a batch changed after every batch.
_POOL_RESULTS = (select(ResultRow.__table__).where(ResultRow.stage.in_(bindparam("pools", expanding=True)))
                 .order_by(ResultRow.recorded_at, ResultRow.match_id))
_POOL_DECISIONS = (select(DecisionRow.pool, DecisionRow.method, DecisionRow.order)
                   .where(DecisionRow.pool.in_(bindparam("pools", expanding=True))).order_by(DecisionRow.id))


def pool_state(store: Store, s: Session, name: str) -> PoolState:
    """One pool's state (see :func:`pool_states`)."""
    return pool_states(store, s, [name])[name]


def pool_states(store: Store, s: Session, names: Iterable[str]) -> dict[str, PoolState]:
    """The named pools' states: a first-round pool re-ranked on its own (only its results, as the progress
    would rank it; the first-round pools' results and decisions in two reads for all of them); a later
    pool (its teams come from other pools) through the whole progress."""
    plan = store.plan
    names = [n for n in names if plan.pool(n) is not None]
    first = [n for n in names if n in plan.entry_teams]
    out: dict[str, PoolState] = {}
    if len(first) < len(names):
        progress = store.progress(s)
        out.update({n: progress.pools[n] for n in names if n not in plan.entry_teams})
    if not first:
        return out
    connection = s.connection()
    results: dict[str, list[MatchResult]] = {n: [] for n in first}
    rows: dict[str, list[Any]] = {n: [] for n in first}  # for the fair-play points (server.fairplay)
    for r in connection.execute(_POOL_RESULTS, {"pools": first}):
        if r.outcome != "abandoned":
            results[r.stage].append(to_match_result(r))
            rows[r.stage].append(r)
    decisions: dict[str, list[Decision]] = {n: [] for n in first}
    for r in connection.execute(_POOL_DECISIONS, {"pools": first}):
        decisions[r.pool].append(Decision(pool=r.pool, method=r.method, order=tuple(r.order)))
    for name in first:
        pool = plan.pool(name)
        assert pool is not None
        ruleset = plan.ruleset_of(name)
        meets = 2 if pool.double else 1
        if meets > ruleset.ranking.meetings:  # as rules.tournament.progression does for a double round robin
            ruleset = ruleset.replace(ranking=ruleset.ranking.replace(meetings=meets))
        teams = plan.entry_teams[name]
        own = results[name]
        fair_play = pool_fair_play(store, s, rows[name], teams, ruleset) \
            if ruleset.ranking.fair_play is not None else None
        table = rank_pool(ruleset, name, own, teams=teams, decisions=decisions[name], fair_play=fair_play)
        out[name] = PoolState(name=name, teams=tuple(Slot(text=t, team=t) for t in teams), played=len(own),
                              expected=store.stage_sizes.get(name, 0), table=table)
    return out

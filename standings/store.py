"""The service's store: the database engine, the tournament plan, and the tournament's progress.

Every read and write goes through a short session (``with store.session() as s``); the
tournament's progress (tables, resolved placeholders) is derived from the stored results and
decisions by ``rules.tournament.progress`` and cached until the stored facts change, so the web
pages and the loop can ask for it as often as they like. Several processes may share one
database: the cache key is read from the database, not kept in memory alone.
"""

from __future__ import annotations

import threading
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session, sessionmaker

from rules.standings import Decision, MatchResult, rank_pool
from rules.tournament import PoolState, Progress, Slot, progress
from standings.db import open_database
from standings.db.models import Change, DecisionRow, Fixture, ResultRow
from standings.openmatches import OpenMatches
from standings.plan import Plan


def utcnow() -> datetime:
    return datetime.now(UTC)


def to_match_result(row: Any) -> MatchResult:
    winner = {"home": row.home, "away": row.away}.get(row.winner or "")
    return MatchResult(
        pool=row.stage, home=row.home, away=row.away, home_goals=row.home_goals, away_goals=row.away_goals,
        outcome=row.outcome, winner=winner,
        home_shootout=row.home_shootout, away_shootout=row.away_shootout,
    )


class Store:
    def __init__(self, engine: Engine, plan: Plan) -> None:
        self.engine = engine
        self.plan = plan
        self.session = sessionmaker(engine, expire_on_commit=False)
        self._lock = threading.Lock()
        self._cached: tuple[tuple[object, ...], Progress] | None = None
        self.entry_team_names = frozenset(t for teams in plan.entry_teams.values() for t in teams)
        self.stage_sizes: dict[str, int] = {}  # stage -> how many matches it has
        for m in plan.fixtures.values():
            self.stage_sizes[m.stage] = self.stage_sizes.get(m.stage, 0) + 1
        self.matches = OpenMatches()  # the loop's memory of each match's stored events (standings.openmatches)

    @classmethod
    def open(cls, url: str, plan: Plan) -> Store:
        store = cls(open_database(url), plan)
        store.sync_fixtures()
        return store

    def close(self) -> None:
        self.engine.dispose()

    def sync_fixtures(self) -> None:
        """Put the plan's fixtures in the database; a match the organiser moved keeps its court and time."""
        with self.session.begin() as s:
            known = set(s.scalars(select(Fixture.match_id)))
            for match_id, m in self.plan.fixtures.items():
                if match_id in known:
                    continue
                s.add(Fixture(
                    match_id=match_id, number=m.number, stage=m.stage, round=m.round,
                    kind=self.plan.stage_kind(match_id), home=m.home, away=m.away,
                    court=self.plan.court_id(m.court), court_name=m.court, start=m.start, end=m.end,
                ))

    # -- the tournament's progress ------------------------------------------------------------

    def _revision(self, s: Session) -> tuple[object, ...]:
        results = s.execute(select(func.count(), func.max(ResultRow.recorded_at))).one()
        decisions = s.execute(select(func.count(DecisionRow.id))).scalar()
        changes = s.execute(select(func.max(Change.id))).scalar()
        return (*results, decisions, changes)

    def results(self, s: Session) -> list[ResultRow]:
        return list(s.scalars(select(ResultRow).order_by(ResultRow.recorded_at, ResultRow.match_id)))

    def decisions(self, s: Session) -> list[Decision]:
        rows = s.scalars(select(DecisionRow).order_by(DecisionRow.id))
        return [Decision(pool=r.pool, method=r.method, order=tuple(r.order)) for r in rows]

    def progress(self, s: Session | None = None) -> Progress:
        if s is None:
            with self.session() as own:
                return self.progress(own)
        key = self._revision(s)
        with self._lock:
            if self._cached is not None and self._cached[0] == key:
                return self._cached[1]
        p = self.compute_progress(s)
        with self._lock:
            self._cached = (key, p)
        return p

    def compute_progress(self, s: Session) -> Progress:
        results = [to_match_result(r) for r in self.results(s) if r.outcome != "abandoned"]
        plan = self.plan
        return progress(plan.tournament, plan.ruleset, plan.entry_teams, results, self.decisions(s),
                        results_source="the service's results", source=plan.source)

    def forget_progress(self) -> None:
        with self._lock:
            self._cached = None


class UnknownTeams(LookupError):
    """The fixture's teams are not known yet (a placeholder the results do not resolve)."""


def teams_of(store: Store, s: Session, match_id: str) -> tuple[str, str]:
    """The two teams of a fixture now, from the file and the results so far."""
    from standings.queries import resolve  # queries reads the store; the import would loop at load

    f = s.get(Fixture, match_id)
    if f is None:
        raise LookupError(match_id)
    if f.home in store.entry_team_names and f.away in store.entry_team_names:
        return f.home, f.away  # a first-round pool's match: no need to work out the tournament
    p = store.progress(s)
    home, away = resolve(store, p, f.stage, f.home), resolve(store, p, f.stage, f.away)
    if home is None or away is None:
        raise UnknownTeams(f"match {match_id}: {f.home} v {f.away} are not known yet")
    return home, away


def result_row(
    store: Store, s: Session, match_id: str, result: dict[str, object], *, source: str, court: str | None,
    seq: int | None,
) -> ResultRow:
    """A results row for ``result`` (the protocol's result payload: goals, outcome, winner side)."""
    f = s.get(Fixture, match_id)
    assert f is not None
    home, away = teams_of(store, s, match_id)
    return ResultRow(
        match_id=match_id, stage=f.stage, home=home, away=away,
        home_goals=int(result["home_goals"]),  # type: ignore[call-overload]
        away_goals=int(result["away_goals"]),  # type: ignore[call-overload]
        outcome=str(result["outcome"]), winner=result.get("winner"),
        home_shootout=result.get("home_shootout"), away_shootout=result.get("away_shootout"),
        seq=seq, court=court, source=source, recorded_at=utcnow(),
    )


def result_dict(row: ResultRow) -> dict[str, object]:
    out: dict[str, object] = {"home_goals": row.home_goals, "away_goals": row.away_goals, "outcome": row.outcome,
                              "winner": row.winner}
    if row.home_shootout is not None or row.away_shootout is not None:
        out["home_shootout"], out["away_shootout"] = row.home_shootout, row.away_shootout
    return out


def pool_state(store: Store, s: Session, name: str) -> PoolState:
    """One pool's state: a first-round pool re-ranked on its own (only its results, as the progress
    would rank it); a later pool (its teams come from other pools) through the whole progress."""
    plan = store.plan
    pool = plan.tournament.pool(name)
    if pool is None or name not in plan.entry_teams:
        return store.progress(s).pools[name]
    teams = plan.entry_teams[name]
    # Plain rows (this runs after every batch that stored a result of the pool): same attributes as ResultRow.
    own = [to_match_result(r) for r in s.execute(select(ResultRow.__table__).where(ResultRow.stage == name)
                                                 .order_by(ResultRow.recorded_at, ResultRow.match_id))
           if r.outcome != "abandoned"]
    rows = s.execute(select(DecisionRow.pool, DecisionRow.method, DecisionRow.order).where(DecisionRow.pool == name)
                     .order_by(DecisionRow.id))
    decisions = [Decision(pool=r.pool, method=r.method, order=tuple(r.order)) for r in rows]
    ruleset = plan.ruleset
    meets = 2 if pool.double else 1
    if meets > ruleset.ranking.meetings:  # as rules.tournament.progression does for a double round robin
        ruleset = ruleset.model_copy(update={"ranking": ruleset.ranking.model_copy(update={"meetings": meets})})
    table = rank_pool(ruleset, name, own, teams=teams, decisions=decisions)
    expected = sum(1 for m in plan.fixtures.values() if m.stage == name)
    return PoolState(name=name, teams=tuple(Slot(text=t, team=t) for t in teams), played=len(own),
                     expected=expected, table=table)

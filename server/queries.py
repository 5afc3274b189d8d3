"""What the web pages (issue 12) and the service read: plain, frozen views of the stored tournament.

Names here are stable; each takes the :class:`~server.store.Store` first.

- :func:`tournament_progress` -> ``rules.tournament.Progress`` (pools, knock-out matches, final ranking)
- :func:`pool_tables` -> ``{pool: rules.tournament.PoolState}`` (``.table`` is the ranked ``PoolTable``)
- :func:`schedule` / :func:`court_schedule` / :func:`team_schedule` -> ``[FixtureView]``, teams resolved
- :func:`fixture` -> one ``FixtureView``
- :func:`results` -> ``[ResultView]``; :func:`match_events` -> the stored event lines of one match,
  :func:`stored_events` -> the same as the engine's events
- :func:`live_states` / :func:`live_state` -> ``LiveView`` per court (the table's last live message)
- :func:`court_presence` -> ``[PresenceView]`` (online/offline, last message, delay against the schedule)
- :func:`open_conflicts` / :func:`conflicts` -> ``[ConflictView]``; :func:`change_log` -> ``[ChangeView]``
- :func:`team_sheets` -> ``{team: rules.TeamSheet}``, the desk's changes over the file's
"""

from __future__ import annotations

from collections.abc import Collection
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Row, bindparam, select
from sqlalchemy.orm import Session

from rules import (
    CourtsideError,
    Event,
    PoolState,
    Progress,
    ProtocolError,
    Result,
    ScheduledFields,
    ScheduledMatch,
    TeamSheet,
    event_from_dict,
    parse_sheet_csv,
    read_result,
    winner_team,
)
from rules.link_payloads import LivePayload, read_live_payload
from server.db.models import Change, Conflict, EventRow, Fixture, Live, Presence, ResultRow, TeamSheetRow
from server.ingest import through_of
from server.progresses import resolve
from server.result_feed import added_since
from server.store import Store


@dataclass(frozen=True, kw_only=True)
class ResultView:
    match_id: str
    stage: str
    home: str
    away: str
    home_goals: int
    away_goals: int
    outcome: str
    winner: str | None  # the winning team's name; None for a draw or an abandoned match
    home_shootout: int | None
    away_shootout: int | None
    source: str  # "table" | "organiser"
    recorded_at: datetime


@dataclass(frozen=True, kw_only=True, slots=True)
class FixtureView(ScheduledFields):
    """A scheduled match as the day has made it: the core's record as stored (the organiser's moves applied), its
    teams as far as results name them, its status and its result. Its schedule's fields are the record's own."""

    scheduled: ScheduledMatch
    court: str  # the court's id (an address, the wire); its name is the scheduled match's
    home: str | None  # the team once known
    away: str | None
    status: str  # scheduled | live | finished | conflict
    result: ResultView | None

    @property
    def court_name(self) -> str:
        return self.scheduled.court

    @property
    def home_slot(self) -> str:
        """As the file says: a team or a placeholder ("2A", "winner SF1")."""
        return self.scheduled.home

    @property
    def away_slot(self) -> str:
        return self.scheduled.away

    @property
    def home_label(self) -> str:
        return self.home or self.scheduled.home

    @property
    def away_label(self) -> str:
        return self.away or self.scheduled.away


@dataclass(frozen=True, kw_only=True)
class LiveView:
    court: str
    match_id: str | None
    live: LivePayload  # the table's last live message, read
    updated_at: datetime


@dataclass(frozen=True, kw_only=True)
class PresenceView:
    court: str
    court_name: str
    state: str  # online | offline | unknown
    since: datetime | None
    last_message_at: datetime | None
    last_type: str | None
    last_match: str | None


@dataclass(frozen=True, kw_only=True)
class ConflictView:
    id: int
    match_id: str
    court: str | None
    result: Result  # what its table sent (checked when it came), or the score an abandoned match stopped at
    reason: str
    received_at: datetime
    settled_at: datetime | None
    settled_by: str | None
    settlement: str | None


@dataclass(frozen=True, kw_only=True)
class ChangeView:
    id: int
    at: datetime
    who: str
    action: str
    match_id: str | None
    pool: str | None
    why: str
    before: dict[str, Any] | None
    after: dict[str, Any] | None


def result_view(row: Any) -> ResultView:
    return ResultView(
        match_id=row.match_id, stage=row.stage, home=row.home, away=row.away, home_goals=row.home_goals,
        away_goals=row.away_goals, outcome=row.outcome,
        winner=winner_team(row.winner, row.home, row.away),
        home_shootout=row.home_shootout, away_shootout=row.away_shootout, source=row.source,
        recorded_at=row.recorded_at,
    )


def tournament_progress(store: Store) -> Progress:
    return store.progress()


def pool_tables(store: Store) -> dict[str, PoolState]:
    return dict(store.progress().pools)


def _team(store: Store, progress: Progress | None, stage: str, text: str) -> str | None:
    if text in store.entry_team_names:
        return text
    return resolve(store, progress, stage, text) if progress is not None else None


def _fixture_views(store: Store, *, courts: Collection[str] | None = None,
                   match_id: str | None = None, session: Session | None = None) -> list[FixtureView]:
    """The fixtures (all, or those on ``courts``, or one) in schedule order, teams and status as stored now;
    read in ``session`` if given (a snapshot's :meth:`Store.reading`)."""
    with nullcontext(session) if session is not None else store.session() as s:
        fixtures = store.fixtures(s)
        if match_id is not None:
            chosen = [fixtures[match_id]] if match_id in fixtures else []
        elif courts is not None:
            names = {store.plan.courts.get(c) for c in courts}  # a scheduled match names its court by name
            chosen = [f for f in fixtures.values() if f.court in names]
        else:
            chosen = list(fixtures.values())
        # The results as the result feed keeps them (server.result_feed: only what was stored since is read), for a
        # court's schedule too: the same objects as the pages' snapshot's, so a view one made the other keeps. The
        # rows read for a court alone never compared equal to them, and each made the court's views again.
        every = len(chosen) == len(fixtures)
        rows = store.results(s) if every else []  # in the order stored: what the whole schedule's views follow
        results = store.results_by_match(s)
        conflicted = set(s.scalars(_CONFLICTED))
        if every:  # the matches with an event (server.event_marks: only the newest events read) and no result
            started = store.event_marks.read(s.connection()).keys() - results.keys()
        else:
            unfinished = [f.match_id for f in chosen if f.match_id not in results]
            started = set(s.scalars(select(EventRow.match_id).where(EventRow.match_id.in_(unfinished)).distinct())) \
                if unfinished else set()
        # The progress is worked out only if a fixture still names a placeholder ("2A", "winner SF1").
        named = store.placeholder_matches(s)
        waiting = any(i not in results for i in named) if every else \
            any(f.match_id in named and f.match_id not in results for f in chosen)
        # Each class's own: a result changes its class's progress only, so the other classes' views are kept.
        by_class = store.class_progress(s) if waiting else None
    made = _Views(store, results, conflicted, started, named, by_class)
    if not every:
        return [made.view(f) for f in chosen]
    return _every_view(store, made, fixtures, chosen, rows)


_CONFLICTED = select(Conflict.match_id).where(Conflict.settled_at.is_(None))


@dataclass(frozen=True)
class _Every:
    """The whole schedule's views as last made, and what from: the next call makes only those whose inputs moved."""

    fixtures: dict[str, Any]  # the store's, the same object until a move
    rows: list[Any]  # the results in the order stored
    conflicted: set[str]
    started: set[str]
    by_class: dict[str, Progress] | None
    views: list[FixtureView]
    index: dict[str, int]  # match id -> its place in ``views``
    waiting_of: dict[str, frozenset[str]]  # class name -> its matches that name a placeholder


def _every_view(store: Store, made: _Views, fixtures: dict[str, Any], chosen: list[Any],
                rows: list[Any]) -> list[FixtureView]:
    """Every match's view. After a result, most of a cup's 4,000 are as they were: the views of the matches whose
    result, status or class's progress moved are made again, the others kept in place (a pass over all of them
    after every result cost more than the rest of the snapshot's schedule)."""
    last = store.kept_views.every
    added = added_since(last.rows, rows) if last is not None and last.fixtures is fixtures else None
    if last is None or added is None:
        waiting_of: dict[str, set[str]] = {}
        for i in made.named:
            waiting_of.setdefault(fixtures[i].class_name, set()).add(i)
        views = [made.view(f) for f in chosen]
        store.kept_views.every = _Every(fixtures, rows, made.conflicted, made.started, made.by_class, views,
                                  {f.match_id: n for n, f in enumerate(chosen)},
                                  {name: frozenset(ids) for name, ids in waiting_of.items()})
        return list(views)
    moved = {r.match_id for r in added} | (made.conflicted ^ last.conflicted) \
        | (made.started ^ last.started)
    now, then = made.by_class or {}, last.by_class or {}
    for name in now.keys() | then.keys():
        if now.get(name) is not then.get(name):
            moved |= last.waiting_of.get(name, frozenset())
    views = list(last.views)
    for i in moved:
        if i in last.index:
            views[last.index[i]] = made.view(fixtures[i])
    store.kept_views.every = _Every(fixtures, rows, made.conflicted, made.started, made.by_class, views, last.index,
                              last.waiting_of)
    return list(views)


class _Views:
    """Makes a match's view from what one read found, or keeps the one made last from the same."""

    def __init__(self, store: Store, results: dict[str, Any], conflicted: set[str], started: set[str],
                 named: frozenset[str], by_class: dict[str, Progress] | None) -> None:
        self.store, self.results, self.conflicted, self.started = store, results, conflicted, started
        self.named, self.by_class = named, by_class

    def view(self, f: Any) -> FixtureView:
        store, kept = self.store, self.store.kept_views.fixtures
        result = self.results.get(f.match_id)
        progress = None
        if self.by_class is not None and result is None and f.match_id in self.named:
            progress = self.by_class[f.class_name]  # the stored record names its class ("" for none)
        status = ("conflict" if f.match_id in self.conflicted else "finished" if result is not None
                  else "live" if f.match_id in self.started else "scheduled")
        # What the view is made of; the same as last time, the same view.
        made_of = (f, result, status, progress)
        last = kept.get(f.match_id)
        # The fixture and the progress by identity (the store keeps both until they change), the result by identity
        # (a snapshot's rows are the feed's, the same object until the result is written again) or else by value.
        same = last is not None and last[0][0] is f and last[0][2] == status and (
            last[0][1] is result or last[0][1] == result)
        if same and last is not None and last[0][3] is progress:
            return last[1]
        home = result.home if result else _team(store, progress, f.stage, f.home)
        away = result.away if result else _team(store, progress, f.stage, f.away)
        if same and last is not None and (last[1].home, last[1].away) == (home, away):
            # A result elsewhere in its class: its placeholders name the same teams (or none yet), the same view.
            # Every waiting match of the class was made again after each of its results, and its rows on the pages.
            kept[f.match_id] = (made_of, last[1])
            return last[1]
        view = FixtureView(
            scheduled=f, court=store.plan.court_id(f.court), home=home, away=away, status=status,
            result=result_view(result) if result else None,
        )
        kept[f.match_id] = (made_of, view)
        return view


def schedule(store: Store, session: Session | None = None) -> list[FixtureView]:
    return _fixture_views(store, session=session)


def court_schedule(store: Store, court: str) -> list[FixtureView]:
    return _fixture_views(store, courts={court})


def court_schedules(store: Store, courts: set[str], session: Session | None = None) -> dict[str, list[FixtureView]]:
    """Several courts' schedules from one read (the service publishes a batch's courts together), in ``session``
    if given."""
    out: dict[str, list[FixtureView]] = {court: [] for court in courts}
    for f in _fixture_views(store, courts=courts, session=session):
        out[f.court].append(f)
    return out


def fixture(store: Store, match_id: str) -> FixtureView | None:
    found = _fixture_views(store, match_id=match_id)
    return found[0] if found else None


def team_schedule(store: Store, team: str) -> list[FixtureView]:
    return [f for f in _fixture_views(store) if team in (f.home, f.away)]


def results(store: Store) -> list[ResultView]:
    with store.session() as s:
        return [result_view(r) for r in store.results(s)]


def match_events(store: Store, match_id: str, session: Session | None = None) -> list[dict[str, Any]]:
    with nullcontext(session) if session is not None else store.session() as s:
        return [dict(e.body) for e in s.scalars(select(EventRow).where(EventRow.match_id == match_id)
                                                .order_by(EventRow.seq))]


def stored_events(store: Store, match_id: str, session: Session | None = None) -> list[Event]:
    """The match's stored events as the engine takes them (raises EventLogError for one this version cannot read:
    an older version's log), read in ``session`` if given."""
    return [event_from_dict(b, f"match {match_id}") for b in match_events(store, match_id, session)]


def team_sheets(store: Store, connection: Connection | None = None) -> dict[str, TeamSheet]:
    """The file's team sheets, each one the desk changed replaced by that (checked when it was stored); each
    stored text read once (the snapshot asks after every result). Read on ``connection`` if given."""
    with on_connection(store, connection) as c:
        changed: dict[str, str] = {team: text for team, text in c.execute(_SHEETS)}
    if not changed:
        return store.plan.sheets
    out = dict(store.plan.sheets)
    read = store.kept_views.sheets
    for team, text in changed.items():
        last = read.get(team)
        if last is None or last[0] != text:
            try:
                last = read[team] = (text, parse_sheet_csv(text, f"{team}'s sheet", team))
            except CourtsideError:
                last = read[team] = (text, None)  # stored only once checked: a sheet this version cannot read
        if last[1] is not None:
            out[team] = last[1]
    return out


_SHEETS = select(TeamSheetRow.team, TeamSheetRow.sheet)


_LIVE_STAMPS = select(Live.court, Live.updated_at)
_LIVE_OF = select(Live.court, Live.match_id, Live.state, Live.updated_at).where(
    Live.court.in_(bindparam("courts", expanding=True)))


def live_states(store: Store, kept: dict[str, LiveView] | None = None,
                connection: Connection | None = None) -> dict[str, LiveView]:
    """Each court's last live state as stored; one a table of an older version stored, which this version cannot
    read, is left out until that court's next message replaces it. ``kept``: the states read last time, by court:
    only the courts whose state was stored since are read again (a big cup's pages ask after every live state,
    and each court's JSON was read and checked again each time). Read on ``connection`` if given."""
    kept = kept or {}
    with on_connection(store, connection) as c:
        stamps = c.execute(_LIVE_STAMPS).all()
        stale = [court for court, at in stamps if court not in kept or kept[court].updated_at != at]
        rows = c.execute(_LIVE_OF, {"courts": stale}).all() if stale else []
    out = {court: kept[court] for court, _ in stamps if court in kept and court not in stale}
    for court, match_id, state, updated_at in rows:
        try:
            live = read_live_payload(state)
        except ProtocolError:
            continue
        out[court] = LiveView(court=court, match_id=match_id, live=live, updated_at=updated_at)
    return out


def on_connection(store: Store, connection: Connection | None) -> AbstractContextManager[Connection]:
    """``connection``, or one of the pool's for this read: a snapshot makes its light reads on one connection, as
    each checkout costs PostgreSQL a ping and a rollback."""
    return nullcontext(connection) if connection is not None else store.engine.connect()


def live_state(store: Store, court: str) -> LiveView | None:
    return live_states(store).get(court)


def court_presence(store: Store, connection: Connection | None = None) -> list[PresenceView]:
    """Each court's presence; a court whose row is as last read keeps its view (the pages ask after every live
    state, and 110 courts' views made again each time cost a millisecond). Read on ``connection`` if given."""
    with on_connection(store, connection) as c:  # plain rows, compared as tuples
        rows = {r.court: r for r in c.execute(_PRESENCE)}
    kept = store.kept_views.presence
    out = []
    for court, name in store.plan.courts.items():
        r = rows.get(court)
        last = kept.get(court)
        if last is None or last[0] != r:
            last = kept[court] = (r, PresenceView(
                court=court, court_name=name, state=r.state if r else "unknown", since=r.since if r else None,
                last_message_at=r.last_message_at if r else None, last_type=r.last_type if r else None,
                last_match=r.last_match if r else None,
            ))
        out.append(last[1])
    return out


_PRESENCE = select(Presence.__table__)


def _conflict_view(c: Conflict | Row[Any]) -> ConflictView:
    return ConflictView(
        id=c.id, match_id=c.match_id, court=c.court, result=read_result(c.payload), reason=c.reason,
        received_at=c.received_at, settled_at=c.settled_at, settled_by=c.settled_by, settlement=c.settlement,
    )


def conflicts(store: Store) -> list[ConflictView]:
    with store.session() as s:
        return [_conflict_view(c) for c in s.scalars(select(Conflict).order_by(Conflict.id))]


def open_conflicts(store: Store, connection: Connection | None = None) -> list[ConflictView]:
    """The conflicts not settled yet: read on every snapshot, live states' too, so the settled ones a day gathers
    are left in the database, not read and parsed again each time (as plain rows: no session's bookkeeping). Read
    on ``connection`` if given."""
    with on_connection(store, connection) as c:
        return [_conflict_view(r) for r in c.execute(_OPEN_CONFLICTS)]


_OPEN_CONFLICTS = select(Conflict.__table__).where(Conflict.settled_at.is_(None)).order_by(Conflict.id)


def change_view(c: Change) -> ChangeView:
    return ChangeView(id=c.id, at=c.at, who=c.who, action=c.action, match_id=c.match_id, pool=c.pool, why=c.why,
                      before=c.before, after=c.after)


def change_log(store: Store, limit: int = 200) -> list[ChangeView]:
    with store.session() as s:
        return [change_view(c) for c in s.scalars(select(Change).order_by(Change.id.desc()).limit(limit))]


def held(store: Store, court: str) -> list[tuple[str, int, bool]]:
    """What the service holds of each match a court's table may hold (scheduled on the court, or sent from it):
    (match, its events' seq through which none is missing, whether it has a result). Told to the table when it
    comes online (a ``held`` message), so it sends again what a restored database lacks."""
    with store.session() as s:
        matches = set(s.scalars(select(Fixture.match_id).where(Fixture.court == court)))
        seqs: dict[str, set[int]] = {}
        for match_id, seq in s.execute(select(EventRow.match_id, EventRow.seq).where(EventRow.court == court)):
            seqs.setdefault(match_id, set()).add(seq)
        matches |= set(seqs)
        results = set(s.scalars(select(ResultRow.match_id).where(ResultRow.match_id.in_(matches))))
    return [(m, through_of(seqs.get(m, set())), m in results) for m in sorted(matches, key=lambda m: (len(m), m))]

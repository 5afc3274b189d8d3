"""The service's store: the database engine, the tournament plan, and what the loop and the pages read of it.

Every read and write goes through a short session (``with store.session() as s``); a snapshot of the pages
reads its results once for all its parts (:meth:`Store.reading`). The tournament's progress (tables, resolved
placeholders), worked out from the stored results and decisions and kept until they change, is
``store.progresses`` (server.progresses).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, NamedTuple

from sqlalchemy import Connection, Engine, event, func, select
from sqlalchemy.orm import Session, sessionmaker

from rules import (
    Decision,
    Progress,
    Result,
    ScheduledMatch,
    parse_placeholder,
    result_payload,
)
from rules.tournament.placeholders import source_stage
from server.db import open_database
from server.db.models import Change, DecisionRow, Fixture, ResultClock, ResultRow
from server.event_marks import EventMarks
from server.kept_views import KeptViews
from server.openmatches import OpenMatches
from server.plan import Plan
from server.progresses import Progresses, resolve
from server.result_feed import ResultFeed, stamp, wrote_results


def utcnow() -> datetime:
    return datetime.now(UTC)


def as_utc(at: datetime) -> datetime:
    """A stored instant as aware UTC: SQLite gives the stored instants back without their zone (they are UTC)."""
    return at.replace(tzinfo=UTC) if at.tzinfo is None else at.astimezone(UTC)


_RESULTS = select(ResultRow.__table__).order_by(ResultRow.recorded_at, ResultRow.match_id)
_CHANGE_MARK = select(func.max(Change.id))
_CLOCK = select(ResultClock.revision).where(ResultClock.id == 1)
_MOVE_MARK = select(func.max(Change.id)).where(Change.action == "move")  # only a move changes a fixture
_MOVE_READ = "move_mark"  # a session's info: the mark as it read it
# The progress's cache key in one statement (each a round trip of its own cost one): the result clock's last stamp,
# or for a transaction that wrote results (its own are not stamped yet: server.result_feed) the results counted;
# the decisions (only ever added) counted; the change log's end; its last move (see Store.reading).
_OTHER_MARKS = (select(func.count(DecisionRow.id)).scalar_subquery(), _CHANGE_MARK.scalar_subquery(),
                _MOVE_MARK.scalar_subquery())
_MARKS = select(_CLOCK.scalar_subquery(), *_OTHER_MARKS)
_MARKS_COUNTED = select(select(func.count()).select_from(ResultRow).scalar_subquery(),
                        select(func.max(ResultRow.recorded_at)).scalar_subquery(), *_OTHER_MARKS)
_DECISIONS = select(DecisionRow.pool, DecisionRow.method, DecisionRow.order).order_by(DecisionRow.id)


class Marks(NamedTuple):
    """What the stored facts are at, read in one statement (see ``_MARKS``); compared whole, as the progress's
    cache key."""

    kind: str  # "clock", or "counted" for a transaction that wrote results it has not stamped yet
    results: int | None  # the result clock's last stamp (the results' top revision), or the results counted
    recorded: object  # with "counted": the newest result's recorded_at; None with "clock"
    decisions: int  # the decisions counted (only ever added)
    changes: int | None  # the change log's end
    moves: int | None  # the change log's last move


class Store:
    def __init__(self, engine: Engine, plan: Plan) -> None:
        self.engine = engine
        self.plan = plan
        self.session = sessionmaker(engine, expire_on_commit=False)
        event.listen(self.session, "before_commit", stamp)  # a transaction that wrote results stamps them
        self.result_feed = ResultFeed()  # the snapshots' results, read as they are written (server.result_feed)
        self.event_marks = EventMarks()  # each match's newest event, read as they are stored (server.event_marks)
        self.progresses = Progresses(self)  # the tournament's progress, worked out from what is stored
        self.entry_team_names = frozenset(t for teams in plan.entry_teams.values() for t in teams)
        self.stage_sizes: dict[str, int] = {}  # stage -> how many matches it has
        for m in plan.fixtures.values():
            self.stage_sizes[m.stage] = self.stage_sizes.get(m.stage, 0) + 1
        self.kept_views = KeptViews()  # the pages' and the courts' views between snapshots (server.kept_views)
        self.matches = OpenMatches()  # the loop's memory of each match's stored events (server.openmatches)
        self._decisions: list[Decision] | None = None  # as a reading session last read them (Store.decisions)
        # (the change log's last move, rows, the courts waiting on each stage, the matches placeholders name)
        self._fixtures: tuple[object, dict[str, ScheduledMatch], dict[str | None, list[ScheduledMatch]],
                              frozenset[str]] \
            | None = None

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
                    match_id=match_id, number=m.number, stage=m.stage, round=m.round, kind=m.kind, home=m.home,
                    away=m.away,
                    court=self.plan.court_id(m.court), court_name=m.court, start=m.start, end=m.end,
                ))

    def fixtures(self, s: Session) -> dict[str, ScheduledMatch]:
        """match id -> its scheduled match as the organiser left it (moved to another court or time), in playing
        order: the core's record, read as plain objects, as the loop and the schedules read their attributes
        thousands of times a second, several times faster than from a database row.

        Read again only when the change log has a new move (any instance's desk writes a move with its change, in
        one transaction; a result or a decision changes no fixture): the loop checks every batch against the
        fixtures and publishes schedules from them, and reading the whole list each time cost more than the rest
        of a schedule. The change log's mark is read once per session (a batch, a snapshot, a publishing: each
        holds the desk's lock shared or only reads), and again after a move written in it (:meth:`moved`).
        """
        if _MOVE_READ in s.info:
            mark = s.info[_MOVE_READ]
        else:
            mark = s.info[_MOVE_READ] = s.connection().scalar(_MOVE_MARK)
        cached = self._fixtures
        if cached is None or cached[0] != mark:
            read = s.connection().execute(select(Fixture.__table__))
            # In playing order once, as every schedule is read in it (sorting 4,000 of them per page cost more).
            rows = {f.match_id: f for f in sorted((self._scheduled(row) for row in read),
                                                   key=lambda f: (f.start, f.number))}
            named = frozenset(i for i, f in rows.items() if not {f.home, f.away} <= self.entry_team_names)
            cached = self._fixtures = (mark, rows, _waiting(rows[i] for i in named), named)
        return cached[1]

    @staticmethod
    def moved(s: Session) -> None:
        """A move was written in ``s``: its next look at the fixtures reads the change log's mark again, the move
        flushed first (the looks read on the session's connection, which does not flush)."""
        s.flush()
        s.info.pop(_MOVE_READ, None)

    def _scheduled(self, row: Any) -> ScheduledMatch:
        found = self.plan.cup.class_of_stage(row.stage)  # None: a stage the tournament file no longer has
        return ScheduledMatch(number=row.number, stage=row.stage, round=row.round, kind=row.kind, home=row.home,
                              away=row.away, court=row.court_name, start=row.start, end=row.end,
                              class_name=found.name if found is not None else "")

    def placeholder_matches(self, s: Session) -> frozenset[str]:
        """The matches whose teams a placeholder names ("2A", "winner SF1"): the results so far decide them."""
        return self._read_fixtures(s)[3]

    def courts_waiting_on(self, s: Session, stage: str, *, to_the_final: bool = False) -> frozenset[str]:
        """The courts of the matches that wait on ``stage``: whose placeholder takes a team from it ("2A" from pool
        A, "winner SF1" from SF1; for a first-round pool also "best 3rd", which ranks every first-round pool); with
        ``to_the_final``, also those that wait on these matches' stages in turn (a correction can set aside the
        results after it). The only schedules a result or a decision on a tie can change besides its own court's:
        a cup's knock-out result changed the schedules of one or two of its 110 courts, and every one was sent."""
        waiting = self._read_fixtures(s)[2]
        courts: set[str] = set()
        seen: set[str | None] = set()
        todo: list[str | None] = [stage, *([None] if stage in self.plan.entry_teams else [])]
        while todo:
            source = todo.pop()
            if source in seen:
                continue
            seen.add(source)
            for f in waiting.get(source, ()):
                courts.add(self.plan.court_id(f.court))
                if to_the_final:
                    todo.append(f.stage)
        return frozenset(courts)

    def _read_fixtures(self, s: Session) -> tuple[object, dict[str, ScheduledMatch],
                                                  dict[str | None, list[ScheduledMatch]], frozenset[str]]:
        if self._fixtures is None:  # whoever asks has read the fixtures (and the change log) already
            self.fixtures(s)
        assert self._fixtures is not None
        return self._fixtures

    # -- the tournament's progress ------------------------------------------------------------

    def revision(self, s: Session) -> Marks:
        """What the stored facts are at, as the progress's cache key (read before the results it is worked out
        from: a result stored in between is newer than the key, never missing from what the key names)."""
        if wrote_results(s):
            counted, recorded, decisions, changes, moves = s.execute(_MARKS_COUNTED).one()
            return Marks("counted", counted, recorded, decisions, changes, moves)
        clock, decisions, changes, moves = s.execute(_MARKS).one()
        return Marks("clock", clock, None, decisions, changes, moves)

    def progress(self, s: Session | None = None) -> Progress:
        """The whole cup's progress (server.progresses)."""
        return self.progresses.progress(s)

    def class_progress(self, s: Session | None = None) -> dict[str, Progress]:
        """Each class's own progress, by class name (server.progresses)."""
        return self.progresses.class_progress(s)

    def compute_progress(self, s: Session) -> dict[str, Progress]:
        """Each class's progress worked out from what ``s`` reads (server.progresses)."""
        return self.progresses.work_out(s)

    def forget_progress(self) -> None:
        self.progresses.forget()

    def reading(self, connection: Connection | None = None, *, keyed: bool = False) -> Session:
        """A session that only reads (a snapshot of the pages, the publishing): the results it reads are read once,
        however many parts ask (the schedule, the progress, the pages' results). On ``connection`` if given: a
        snapshot's reads share one (each checkout costs PostgreSQL a ping and a rollback). ``keyed``: the
        progress's cache key is read first, before any row, so the progress worked out here is kept under it for
        the loop's next checks (server.progresses)."""
        s = self.session() if connection is None else self.session(bind=connection)
        s.info["reading"] = True
        # The marks first, in one statement, before any row: what the session's parts would each read again (the
        # result feed's top, the moves' mark, the decisions counted) is taken from it.
        marks = s.info["marks"] = self.revision(s)
        s.info[_MOVE_READ] = marks.moves
        if keyed:
            s.info["revision"] = marks
        return s

    def results(self, s: Session) -> list[Any]:
        """Every stored result (abandoned ones too) in the order stored, each with the results table's columns as
        attributes: the result feed's :class:`StoredResult` objects, each the same object until its result is
        written again, or the rows as the transaction reads them when it wrote a result itself or sees an older
        state than the feed (:meth:`ResultFeed.read`)."""
        return self.results_read(s).rows

    def results_by_match(self, s: Session) -> dict[str, Any]:
        """:meth:`results` by match id (a snapshot's made once for all its parts: the schedule, the desk's
        versions)."""
        read = self.results_read(s)
        if read.by_match is None:
            read.by_match = {r.match_id: r for r in read.rows}
        return read.by_match

    def results_read(self, s: Session) -> _ResultsRead:
        if s.info.get("reading"):  # a snapshot reads them once for all its parts
            if "results" not in s.info:
                s.info["results"] = self._read_results(s)
            found: _ResultsRead = s.info["results"]
            return found
        return self._read_results(s)

    def _read_results(self, s: Session) -> _ResultsRead:
        if not wrote_results(s):
            marks: Marks | None = s.info.get("marks")  # a reading session's: the clock's last stamp is the
            top = marks.results if marks is not None and marks.kind == "clock" else None  # results' top revision
            read = self.result_feed.read(s.connection(), top=top)
            if read is not None:
                return _ResultsRead(read[0], True, read[1])
        return _ResultsRead(list(s.connection().execute(_RESULTS).all()), False)  # fetched at once, not row by row

    def decisions(self, s: Session) -> list[Decision]:
        """The organisers' decisions in the order made (a snapshot's read once for its parts)."""
        reading = s.info.get("reading")
        if reading and "decisions" in s.info:
            return list(s.info["decisions"])
        marks: Marks | None = s.info.get("marks")
        kept = self._decisions
        if marks is not None and kept is not None and len(kept) == marks.decisions:
            made = kept  # as many as when last read: the same ones (they are only ever added)
        else:
            made = [Decision(pool=pool, method=method, order=tuple(order))
                    for pool, method, order in s.execute(_DECISIONS)]
        if reading:
            s.info["decisions"] = made
            self._decisions = made  # only what a reading session read: committed, never a write's own
        return list(made)

@dataclass
class _ResultsRead:
    """The stored results as one read found them."""

    rows: list[Any]
    fed: bool  # the result feed's objects (server.result_feed), or rows the transaction read itself
    by_match: dict[str, Any] | None = None  # the same rows by match id, made when first asked for


class UnknownTeams(LookupError):
    """The fixture's teams are not known yet (a placeholder the results do not resolve)."""


def teams_of(store: Store, s: Session, match_id: str) -> tuple[str, str]:
    """The two teams of a fixture now, from the file and the results so far."""
    f = store.fixtures(s).get(match_id)
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
    store: Store, s: Session, match_id: str, result: Result, *, source: str, court: str | None, seq: int | None,
) -> ResultRow:
    """A results row for ``result``: its columns are the payload's keys."""
    f = store.fixtures(s).get(match_id)
    assert f is not None
    home, away = teams_of(store, s, match_id)
    return ResultRow(match_id=match_id, stage=f.stage, home=home, away=away, **result_payload(result), seq=seq,
                     court=court, source=source, recorded_at=utcnow())


def _waiting(named: Iterable[ScheduledMatch]) -> dict[str | None, list[ScheduledMatch]]:
    """stage -> the matches a placeholder of theirs takes a team from it; None: those whose placeholder ranks the
    first-round pools' teams (rules.tournament.placeholders.source_stage)."""
    waiting: dict[str | None, list[ScheduledMatch]] = {}
    for f in named:
        for source in {source_stage(p) for side in (f.home, f.away) if (p := parse_placeholder(side)) is not None}:
            waiting.setdefault(source, []).append(f)
    return waiting

"""The service's store: the database engine, the tournament plan, and the tournament's progress.

Every read and write goes through a short session (``with store.session() as s``); the
tournament's progress (tables, resolved placeholders) is derived from the stored results and
decisions by ``rules.tournament.progress`` and cached until the stored facts change, so the web
pages and the loop can ask for it as often as they like. Several processes may share one
database: the cache key is read from the database, not kept in memory alone.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from types import SimpleNamespace
from typing import Any

from sqlalchemy import Engine, Row, event, func, select
from sqlalchemy.orm import Session, sessionmaker

from rules import (
    Decision,
    KeptProgress,
    MatchResult,
    Progress,
    Result,
    ScheduledMatch,
    parse_placeholder,
    progress,
    result_payload,
    standings_result,
)
from rules.tournament.placeholders import canonical, source_stage
from rules.tournament.progression import SetAside
from server.classes import merged_progress
from server.db import open_database
from server.db.models import Change, DecisionRow, Fixture, ResultClock, ResultRow
from server.event_marks import EventMarks
from server.fairplay import pools_fair_play
from server.kept_views import KeptViews
from server.logs import log
from server.openmatches import OpenMatches
from server.plan import Plan
from server.result_feed import ResultFeed, added_since, stamp, wrote_results


def utcnow() -> datetime:
    return datetime.now(UTC)


def as_utc(at: datetime) -> datetime:
    """A stored instant as aware UTC: SQLite gives the stored instants back without their zone (they are UTC)."""
    return at.replace(tzinfo=UTC) if at.tzinfo is None else at.astimezone(UTC)


_RESULT_COLUMNS = ("stage", "home", "away", "home_goals", "away_goals", "outcome", "winner", "home_shootout",
                   "away_shootout")


def row_key(row: Any) -> tuple[Any, ...]:
    """What a stored result says (its columns the standings read), as a key: equal keys, equal results."""
    return tuple(getattr(row, column) for column in _RESULT_COLUMNS)


def to_match_result(row: Any) -> MatchResult:
    """A stored (not abandoned) result as the standings rank it."""
    return _match_result(row_key(row))


@lru_cache(maxsize=50_000)
def _match_result(key: tuple[Any, ...]) -> MatchResult:
    # Every snapshot converts every stored row again (a cup's 3,000 at 25 us each): one conversion per distinct row.
    row = SimpleNamespace(**dict(zip(_RESULT_COLUMNS, key, strict=True)))
    return standings_result(row, pool=row.stage, home=row.home, away=row.away)


_RESULTS = select(ResultRow.__table__).order_by(ResultRow.recorded_at, ResultRow.match_id)
_CHANGE_MARK = select(func.max(Change.id))
_CLOCK = select(ResultClock.revision).where(ResultClock.id == 1)
# The progress's cache key in one statement (three cost three round trips): the result clock's last stamp, or
# for a transaction that wrote results (its own are not stamped yet: server.result_feed) the results counted;
# the decisions (only ever added) counted; the change log's end.
_OTHER_MARKS = (select(func.count(DecisionRow.id)).scalar_subquery(), _CHANGE_MARK.scalar_subquery())
_MARKS = select(_CLOCK.scalar_subquery(), *_OTHER_MARKS)
_MARKS_COUNTED = select(select(func.count()).select_from(ResultRow).scalar_subquery(),
                        select(func.max(ResultRow.recorded_at)).scalar_subquery(), *_OTHER_MARKS)
_DECISIONS = select(DecisionRow.pool, DecisionRow.method, DecisionRow.order).order_by(DecisionRow.id)
_MOVE_MARK = select(func.max(Change.id)).where(Change.action == "move")  # only a move changes a fixture


class Store:
    def __init__(self, engine: Engine, plan: Plan) -> None:
        self.engine = engine
        self.plan = plan
        self.session = sessionmaker(engine, expire_on_commit=False)
        event.listen(self.session, "before_commit", stamp)  # a transaction that wrote results stamps them
        self.result_feed = ResultFeed()  # the snapshots' results, read as they are written (server.result_feed)
        self.event_marks = EventMarks()  # each match's newest event, read as they are stored (server.event_marks)
        self._lock = threading.Lock()
        self._cached: tuple[tuple[object, ...], tuple[Progress, dict[str, Progress]]] | None = None
        self._merged: list[tuple[tuple[Progress, ...], Progress]] = []  # the classes' progress and their merge
        self._logged_aside: set[SetAside] = set()  # the results set aside, each logged once
        # Each stage's last state and what it was worked out from (rules.tournament.progress's ``kept``): a result
        # walks its own pool or match again, and what follows from it, not the cup's hundreds. The progress is a pure
        # function of the stored rows, so a state kept here is the one it would work out again; shared by every
        # thread (each state is replaced whole).
        self._kept = KeptProgress()
        # Each class's last progress and what it was worked out from: a result changes its own class only, so a
        # cup's other classes keep theirs (fair-play classes excepted: their cards are not in the key). Kept apart
        # for the result feed's objects (True) and the rows a transaction read itself (server.result_feed): the two
        # kinds never compare equal, and a write and the next snapshot would each work out every class again.
        self._class_progress: dict[bool, dict[str, tuple[object, Progress]]] = {True: {}, False: {}}
        # The rows last split by class, and how: the publishing after a result and the pages' snapshot after it read
        # the same rows, and the second is spared the pass over every result of the day (kept apart as above).
        self._by_class: dict[bool, tuple[list[Any], dict[str, list[Any]]] | None] = {True: None, False: None}
        self.entry_team_names = frozenset(t for teams in plan.entry_teams.values() for t in teams)
        self.stage_sizes: dict[str, int] = {}  # stage -> how many matches it has
        for m in plan.fixtures.values():
            self.stage_sizes[m.stage] = self.stage_sizes.get(m.stage, 0) + 1
        self.kept_views = KeptViews()  # the pages' and the courts' views between snapshots (server.kept_views)
        self._results_of_rows: dict[str, tuple[Any, MatchResult]] = {}  # match id -> (row, as the standings rank it)
        self.matches = OpenMatches()  # the loop's memory of each match's stored events (server.openmatches)
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
        of a schedule.
        """
        mark = s.connection().scalar(_MOVE_MARK)
        cached = self._fixtures
        if cached is None or cached[0] != mark:
            read = s.connection().execute(select(Fixture.__table__))
            # In playing order once, as every schedule is read in it (sorting 4,000 of them per page cost more).
            rows = {f.match_id: f for f in sorted((self._scheduled(row) for row in read),
                                                   key=lambda f: (f.start, f.number))}
            named = frozenset(i for i, f in rows.items() if not {f.home, f.away} <= self.entry_team_names)
            cached = self._fixtures = (mark, rows, _waiting(rows[i] for i in named), named)
        return cached[1]

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

    def _revision(self, s: Session) -> tuple[object, ...]:
        """What the stored facts are at, as the progress's cache key (read before the results it is worked out
        from: a result stored in between is newer than the key, never missing from what the key names)."""
        if wrote_results(s):
            return ("counted", *s.execute(_MARKS_COUNTED).one())
        return ("clock", *s.execute(_MARKS).one())

    def reading(self) -> Session:
        """A session that only reads (a snapshot of the pages): the results it reads are read once, however many
        parts of the snapshot ask (the schedule, the progress, the pages' results)."""
        s = self.session()
        s.info["reading"] = True
        return s

    def results(self, s: Session) -> list[Any]:
        """Every stored result (abandoned ones too) in the order stored, each with the results table's columns as
        attributes: the result feed's :class:`StoredResult` objects, each the same object until its result is
        written again, or the rows as the transaction reads them when it wrote a result itself or sees an older
        state than the feed (:meth:`ResultFeed.read`)."""
        return self._results(s).rows

    def results_by_match(self, s: Session) -> dict[str, Any]:
        """:meth:`results` by match id (a snapshot's made once for all its parts: the schedule, the desk's
        versions)."""
        read = self._results(s)
        if read.by_match is None:
            read.by_match = {r.match_id: r for r in read.rows}
        return read.by_match

    def _results(self, s: Session) -> _ResultsRead:
        if s.info.get("reading"):  # a snapshot reads them once for all its parts
            if "results" not in s.info:
                s.info["results"] = self._read_results(s)
            found: _ResultsRead = s.info["results"]
            return found
        return self._read_results(s)

    def _read_results(self, s: Session) -> _ResultsRead:
        if not wrote_results(s):
            read = self.result_feed.read(s.connection())
            if read is not None:
                return _ResultsRead(read[0], True, read[1])
        return _ResultsRead(list(s.connection().execute(_RESULTS).all()), False)  # fetched at once, not row by row

    def decisions(self, s: Session) -> list[Decision]:
        """The organisers' decisions in the order made (a snapshot's read once for its parts)."""
        if s.info.get("reading") and "decisions" in s.info:
            return list(s.info["decisions"])
        made = [Decision(pool=pool, method=method, order=tuple(order)) for pool, method, order in s.execute(_DECISIONS)]
        if s.info.get("reading"):
            s.info["decisions"] = made
        return list(made)

    def progress(self, s: Session | None = None) -> Progress:
        """The whole cup's progress: every class's pools, matches and rankings (their names are unique across the
        cup) in one record; a cup of several classes keeps its final rankings in :meth:`class_progress`."""
        return self._progresses(s)[0]

    def class_progress(self, s: Session | None = None) -> dict[str, Progress]:
        """Each class's own progress (its final ranking, its placeholders), by class name."""
        return self._progresses(s)[1]

    def _progresses(self, s: Session | None) -> tuple[Progress, dict[str, Progress]]:
        if s is None:
            with self.session() as own:
                return self._progresses(own)
        if s.info.get("reading"):
            # A snapshot's progress is worked out from the very rows it shows (each class kept while its rows are
            # the ones it was worked out from): a revision read before or after them may name another state.
            if "progress" not in s.info:
                s.info["progress"] = self._settled(None, self.compute_progress(s))
            found: tuple[Progress, dict[str, Progress]] = s.info["progress"]
            return found
        key = self._revision(s)
        with self._lock:
            if self._cached is not None and self._cached[0] == key:
                return self._cached[1]
        return self._settled(key, self.compute_progress(s))

    def _settled(self, key: tuple[object, ...] | None,
                 by_class: dict[str, Progress]) -> tuple[Progress, dict[str, Progress]]:
        """The classes' progress merged (again only when a class's changed), kept under ``key`` if one is given;
        a result that no longer fits is logged once, when it first does not (the desk lists it until settled)."""
        parts = tuple(by_class.values())
        with self._lock:
            merged = self._merged
        # The last two merges: the feed's and a writing transaction's own rows make two sets of parts.
        whole = next((w for made, w in merged if len(made) == len(parts) and all(
            a is b for a, b in zip(made, parts, strict=True))), None)
        if whole is None:
            whole = merged_progress(by_class, merged[0] if merged else None)
        with self._lock:
            self._merged = [(parts, whole), *(m for m in self._merged if m[1] is not whole)][:2]
            if key is not None:
                self._cached = (key, (whole, by_class))
            new = [a for a in whole.set_aside if a not in self._logged_aside]
            self._logged_aside = set(whole.set_aside)
        for aside in new:
            log("result_set_aside", stage=aside.stage, home=aside.result.home, away=aside.result.away,
                score=f"{aside.result.home_goals}-{aside.result.away_goals}", reason=aside.reason)
        return whole, by_class

    def compute_progress(self, s: Session) -> dict[str, Progress]:
        """Each class's progress of the results that count. The engine ranks a pool by its pairings, so a result
        stored for a later pool's match (its teams come from earlier pools) whose teams a correction upstream has
        sent elsewhere would still count, under a match its teams no longer play: it is set aside here, and the
        progress worked out again without it (at most once per stage: each pass settles one more)."""
        plan = self.plan
        cup = plan.cup
        classes = cup.classes
        read = self._results(s)
        every, fed = read.rows, read.fed
        rows_of = self._rows_by_class(every, fed)
        later = self._later_pool_fixtures(s)
        decisions = self.decisions(s)
        out: dict[str, Progress] = {}
        for c in classes:
            t, ruleset = c.tournament, plan.rulesets[c.name]
            rows = rows_of[c.name]
            mine = [d for d in decisions if cup.owns(c, d.pool)]
            # The rows themselves are the key (compared as tuples, in C, each row first by identity: the feed's rows
            # are the same objects until written again): a class with no new row keeps its progress.
            key = (tuple(rows), tuple(mine))
            kept = self._class_progress[fed].get(c.name)
            if kept is not None and kept[0] == key and ruleset.ranking.fair_play is None:
                out[c.name] = kept[1]
                continue
            misfits: list[SetAside] = []
            for _ in range(len(t.pools) + len(t.matches) + 1):
                pools = [p.name for p in t.pools]
                fair_play = pools_fair_play(self, s, rows, pools) if ruleset.ranking.fair_play is not None else None
                p = progress(t, ruleset, plan.entry_by_class[c.name], [self._as_result(r) for r in rows],
                             mine, results_source="the service's results", source=plan.source, strict=False,
                             fair_play=fair_play, kept=self._kept)
                found = _misfits(self, p, later, rows)
                if not found:
                    break
                misfits += found
                gone = {a.result for a in found}
                rows = [r for r in rows if to_match_result(r) not in gone]
            out[c.name] = p.replace(set_aside=(*p.set_aside, *misfits)) if misfits else p
            self._class_progress[fed][c.name] = (key, out[c.name])
        return out

    def _as_result(self, row: Any) -> MatchResult:
        """:func:`to_match_result`, kept per row object: a class's progress converts each of its rows again after
        every result of the class (the feed's rows are the same objects until written again)."""
        kept = self._results_of_rows.get(row.match_id)
        if kept is not None and kept[0] is row:
            return kept[1]
        made = to_match_result(row)
        self._results_of_rows[row.match_id] = (row, made)
        return made

    def _rows_by_class(self, every: list[Any], fed: bool) -> dict[str, list[Any]]:
        """The results that count (not abandoned) by class: a row naming a stage no class has goes to every class,
        as Cup.owns says. The same rows as last time (compared in C, each first by identity) are split as then, and
        last time's followed by new ones (a new result is stored last) keep that split, copied, and add the new."""
        last = self._by_class[fed]
        added = added_since(last[0] if last is not None else None, every)
        if last is not None and added == []:
            return last[1]
        cup = self.plan.cup
        classes = cup.classes
        rows_of = {c.name: list[Any]() for c in classes}
        if last is not None and added is not None:
            rows_of = {name: list(rows) for name, rows in last[1].items()}
        every_class = list(rows_of.values())
        lists_of: dict[str, list[list[Any]]] = {}  # a stage's class looked up once per stage, not once per row
        for r in every if added is None else added:
            if r.outcome == "abandoned":
                continue
            lists = lists_of.get(r.stage)
            if lists is None:
                owner = cup.class_of_stage(r.stage) if cup.has_classes else classes[0]
                lists = lists_of[r.stage] = [rows_of[owner.name]] if owner is not None else every_class
            for into in lists:
                into.append(r)
        self._by_class[fed] = (every, rows_of)
        return rows_of

    def _later_pool_fixtures(self, s: Session) -> dict[str, Fixture]:
        """The fixtures of the pools whose teams come from earlier stages (none in most tournaments)."""
        first = self.plan.entry_teams
        later = [p.name for p in self.plan.pools if p.name not in first]
        if not later:
            return {}
        return {f.match_id: f for f in s.scalars(select(Fixture).where(Fixture.stage.in_(later)))}

    def forget_progress(self) -> None:
        with self._lock:
            self._cached = None


@dataclass
class _ResultsRead:
    """The stored results as one read found them."""

    rows: list[Any]
    fed: bool  # the result feed's objects (server.result_feed), or rows the transaction read itself
    by_match: dict[str, Any] | None = None  # the same rows by match id, made when first asked for


class UnknownTeams(LookupError):
    """The fixture's teams are not known yet (a placeholder the results do not resolve)."""


def resolve(store: Store, progress: Progress, stage: str, text: str) -> str | None:
    """The team a fixture's home/away stands for, or None while it is not known."""
    if text in store.entry_team_names:
        return text
    # The file may write a slot "1 P13-A" that the progress names "1P13-A": one spelling per slot.
    text = canonical(text)
    # The stage's own slots first: a cup's classes each have a "best 3rd", which the merged slots leave out.
    state = progress.matches.get(stage)
    if state is not None:
        for side in (state.home, state.away):
            if canonical(side.text) == text:
                return side.team
    if stage in progress.pools:
        for s in progress.pools[stage].teams:
            if canonical(s.text) == text:
                return s.team
    slot = progress.slots.get(text)
    return None if slot is None else slot.team


def _misfits(store: Store, p: Progress, later: dict[str, Fixture], rows: list[Row[Any]]) -> list[SetAside]:
    """The results stored for a later pool's match that are not its teams' (as ``p`` resolves them)."""
    out = []
    aside = {a.result for a in p.set_aside}  # the engine's own reason ("X does not play in pool C") stands
    for r in rows:
        f = later.get(r.match_id)
        if f is None or to_match_result(r) in aside:
            continue
        home, away = resolve(store, p, f.stage, f.home), resolve(store, p, f.stage, f.away)
        if {home, away} != {r.home, r.away}:
            now = f"{home} v {away}" if home and away else "not known yet"
            out.append(SetAside(stage=r.stage, result=to_match_result(r),
                                reason=f"the result is {r.home} v {r.away} but match {r.match_id} is {now}"))
    return out


def teams_of(store: Store, s: Session, match_id: str) -> tuple[str, str]:
    """The two teams of a fixture now, from the file and the results so far."""
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
    store: Store, s: Session, match_id: str, result: Result, *, source: str, court: str | None, seq: int | None,
) -> ResultRow:
    """A results row for ``result``: its columns are the payload's keys."""
    f = s.get(Fixture, match_id)
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

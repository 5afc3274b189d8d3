"""The pages' backend over the standings service (server.service): what they read, how the desk writes.

Reads come from the service's database through ``server.queries`` (a snapshot is rebuilt
once after each change the service reports through ``Service.listeners``, never per page);
desk changes run on the service's own loop (``Service.submit``) through ``server.desk``,
which stores them with their audit row; the loop then republishes tables and schedules to
the courts and tells the pages, as it does for a result from a table.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, bindparam, func, select

from rules import (
    Decision,
    LiveBoard,
    MatchResult,
    MatchTimeline,
    Progress,
    Result,
    Ruleset,
    ScheduledMatch,
    StageKind,
    TeamSheet,
    TournamentSchedule,
    standings_result,
)
from server import desk, discipline, queries
from server.change_log import ChangeLog
from server.db.models import EventRow
from server.desk_commands import DeskCommand, DeskCommands
from server.desklog import LogLine, match_log
from server.discipline import Ruling, sanctions_from_cards
from server.ingest import CARD_EVENTS
from server.progresses import to_match_result
from server.report_pdf import ReportMatch, report_pdf
from server.result_feed import added_since
from server.rulings import Rulings
from server.service import Service
from server.store import as_utc
from server.web.inputs import Abandoned, AuditEntry, Conflict, Presence, RecordedResult, Sanction, TournamentData
from server.web.port import ChangeHub

TICK = 10.0  # seconds a snapshot's "now" may lag the clock before a page's request moves it on
# A card or its undo stored since the register was last read (the primary key's end, then a range of it).
_LAST_EVENT = select(func.max(EventRow.id))
# The matches with a card (or an undo, which may take one back) and how many events each has stored: found by the
# events' type (ix_events_type_match), as counting every event of the day grew with it (6 ms at 3,500 matches).
_CARDED = (select(EventRow.match_id, func.count().label("events"))
           .where(EventRow.match_id.in_(select(EventRow.match_id).where(EventRow.type.in_(CARD_EVENTS))))
           .group_by(EventRow.match_id))
_CARDS_SINCE = select(EventRow.match_id).where(EventRow.id > bindparam("seen"), EventRow.id <= bindparam("last"),
                                               EventRow.type.in_(CARD_EVENTS))


class ServiceBackend:
    def __init__(self, service: Service) -> None:
        self.service = service
        self.store = service.store
        self.plan = service.store.plan
        self._hub = ChangeHub()
        self._built = -1
        self._built_at = 0.0  # time.monotonic() of the snapshot's build
        self._full = 0
        self._base: tuple[int, _Base] | None = None
        self._data: TournamentData | None = None
        self._lock = threading.Lock()
        self._build_lock = threading.Lock()
        self._live_kept: dict[str, queries.LiveView] = {}  # the courts' stored live states, as read last
        self._live_local: dict[str, tuple[datetime, datetime]] = {}  # court -> its state's instant, the venue's
        self._replayed: dict[tuple[str, int], list[dict[str, Any]]] = {}
        self._events_seen = 0  # the last events.id the register's cards were read up to
        # What the last snapshots made of each result and fixture, with what it was made of: kept while that is so.
        self._original = tuple(sorted(self.plan.fixtures.values(), key=lambda m: m.number))  # as the file has them
        self._recorded: dict[str, tuple[tuple[object, ...], RecordedResult]] = {}
        # The last snapshot's rows, the change log's end then and its records by number: rows that begin with them
        # (a new result is stored last) and no change since add only their own records.
        self._records_of: tuple[list[Any], int, dict[int, RecordedResult]] | None = None
        self._presence: dict[str, tuple[queries.PresenceView, Presence]] = {}  # court id -> as read, as shown
        self._last_placed: tuple[list[queries.FixtureView], dict[int, queries.FixtureView], dict[int, str],
                                 dict[int, tuple[str, datetime]]] | None = None  # what _placed made last
        self._versions: dict[int, tuple[queries.FixtureView, str, tuple[str, datetime] | None]] = {}
        self._changes = ChangeLog(self.store)
        self.rulings = Rulings(self.store.engine)
        self.timelines = service.timelines  # the service's: a match replayed once for its scorers and its pages
        self.commands = DeskCommands(self.store, self.rulings)
        service.listeners.append(self._changed)

    def _changed(self, pools: set[str], courts: set[str]) -> None:  # on the service's loop
        """A court's live state, presence or event (no pool) needs only the light part rebuilt; a result,
        a desk change or a republication (pools, or no court named) needs everything."""
        full = bool(pools or not courts)
        if full:
            with self._lock:
                self._full += 1
        self._hub.notify(at_once=full)

    @property
    def changes(self) -> ChangeHub:
        return self._hub

    def data(self) -> TournamentData:
        with self._lock:
            # Time alone changes what the pages say (a protest window closes, a late court's delay grows),
            # and a quiet service reports no change: a new version lets every open page, woken by its
            # heartbeat at the latest, see the snapshot at the new instant. Once per TICK, whichever
            # page asks first (the others would each add a version).
            stale = self._data is not None and time.monotonic() - self._built_at > TICK
            if stale:
                self._built_at = time.monotonic()
        if stale:
            self._hub.notify()
        with self._lock:
            seen, full = self._hub.version, self._full  # read before building: a later change is not lost
        with self._build_lock:
            if self._data is None or self._built != seen:
                with self.store.engine.connect() as c:  # the light reads on one connection: a checkout costs two
                    rebuilt = self._base is None or self._base[0] != full or self._late_card(c, self._base[1])
                    if rebuilt:
                        mark = self._last_event(c)  # before reading: a card stored meanwhile is read next time
                        self._base = (full, self._build_base(c))
                        self._events_seen = mark
                    assert self._base is not None  # built above when it was None
                    self._data = self._build(c, seen, self._base[1], marks_read=rebuilt)
                self._built, self._built_at = seen, time.monotonic()
            return self._data

    def submit(self, command: DeskCommand) -> None:
        """Run a desk command on the service's loop, checked against what is stored then (server.desk_commands);
        its refusal is raised here, with nothing stored."""
        self.service.submit(lambda: self.commands.run(command))
        # The loop tells its listeners after the batch; the organiser's next page must already see the change.
        self._changed(set(), set())

    def _cards(self, match_id: str, events: int, stage: str, kind: str, round: str) -> list[dict[str, Any]]:
        """The cards of a match with ``events`` stored events, replayed from them once, then kept."""
        key = (match_id, events)
        if key not in self._replayed:
            bodies = queries.match_events(self.store, match_id)
            self._replayed[key] = discipline.cards_of(self.plan.ruleset_of(stage), bodies, kind, round, match_id)
        return self._replayed[key]

    def _live_states(self, c: Connection) -> dict[str, queries.LiveView]:
        """The courts' live states as stored, each replaced by the newer one this instance's watch heard
        (server.watch): with several instances, the one that stores a court's state may be another."""
        self._live_kept = queries.live_states(self.store, self._live_kept, c)  # under the build lock
        states = dict(self._live_kept)
        watch = self.service.watch
        if watch is not None:
            for court, (live, at) in list(watch.live.items()):
                states[court] = queries.LiveView(court=court, match_id=live.board.match,
                                                 live=live, updated_at=at)
        return states

    @staticmethod
    def _last_event(c: Connection) -> int:
        return int(c.scalar(_LAST_EVENT) or 0)

    def _late_card(self, c: Connection, base: _Base) -> bool:
        """Whether a card (or its undo) was stored for a finished match since the register was read. The
        officials may enter a card after the final whistle: the service tells the pages of that court's event
        only (no pool changes), which rebuilds the light part, and the register, the team's page and the
        desk would miss the card until the next result. One read of the primary key's end when nothing came."""
        last = self._last_event(c)
        if last <= self._events_seen:
            return False
        matches = {row.match_id for row in c.execute(_CARDS_SINCE, {"seen": self._events_seen, "last": last})}
        self._events_seen = last
        return any(m.isdigit() and int(m) in base.results for m in matches)

    # The snapshot ------------------------------------------------------------------------------
    def _build_base(self, c: Connection) -> _Base:
        """What changes with results and the desk: the schedule as moved, results, decisions, progress,
        the cards of finished matches, the change log; read on ``c``, the snapshot's connection."""
        store = self.store
        with store.reading(c) as s:  # one read of the results for the schedule, the progress and the results
            views = queries.schedule(store, s)
            rows = store.results(s)
            stored = store.results_by_match(s)  # the schedule's own, made once
            decisions = tuple(store.decisions(s))
            progress = store.progress(s)
            class_progress = store.class_progress(s)
            self._changes.catch_up(s)
        original = self._original
        fixtures, versions, moves = self._placed(views, stored)
        changes = self._changes.recent
        sheets = queries.team_sheets(self.store, c)
        # Who entered each organiser's result, and as what: the newest result change of its match.
        entered = self._changes.entered
        results: dict[int, RecordedResult] = {}
        recorded = self._recorded
        last_time = self._records_of
        fresh = added_since(last_time[0], rows) if last_time is not None and last_time[1] == self._changes.through \
            else None
        if last_time is not None and fresh is not None:
            results = dict(last_time[2])
        for r in rows if fresh is None else fresh:
            change = entered.get(r.match_id) if r.source == "organiser" else None
            # What the record is made of: the row (the feed's: the same object until it is written again), and the
            # change that entered it (by its id: the log only grows).
            made_of = (r, None if change is None else change.id)
            last = recorded.get(r.match_id)
            if last is None or last[0][0] is not r or last[0][1] != made_of[1]:  # made once, not in every snapshot
                by, note, why, was = r.source, "", "", ""
                if change is not None:
                    by, note, why = change.who, str((change.after or {}).get("note") or ""), change.why
                    was = _score(change.before) if change.before else ""
                last = recorded[r.match_id] = (made_of, RecordedResult(
                    number=int(r.match_id), result=to_match_result(r), recorded_at=_local(r.recorded_at), by=by,
                    note=note, why=why, was=was))
            results[int(r.match_id)] = last[1]
        self._records_of = (rows, self._changes.through, results)
        sanctions = []
        # One read for the day, whatever its length: a match's events are read again only when they change.
        carded = {r.match_id: r.events for r in c.execute(_CARDED)}
        for number in sorted(int(m) for m in carded if m.isdigit() and int(m) in results):  # finished, with cards
            f = fixtures.get(number)
            if f is not None and f.home and f.away:
                cards = self._cards(str(number), carded[str(number)], f.stage, f.kind, f.round)
                sanctions += sanctions_from_cards(number, f.home, f.away, cards)
        ruled = self.rulings.all(c)
        entries = [AuditEntry(at=_local(c.at), who=c.who, what=_what(c), why=c.why) for c in changes]
        entries += [AuditEntry(at=_local(r.at), who=r.who, why=r.why,
                               what=f"{r.player} ({r.team}), match {r.number}: {discipline.ruled_text(r.matches)}")
                    for r in ruled]
        return _Base(fixtures=fixtures, original=original, moves=moves, results=results, decisions=decisions,
                     progress=progress, class_progress=class_progress, sanctions=tuple(sanctions), rulings=tuple(ruled),
                     audit=tuple(sorted(entries, key=lambda e: e.at)), versions=versions, sheets=sheets)

    def _placed(self, views: list[queries.FixtureView], stored: dict[str, Any]
                ) -> tuple[dict[int, queries.FixtureView], dict[int, str], dict[int, tuple[str, datetime]]]:
        """The matches by number, each one's version for the desk's forms and its move from where the file put
        it. Against the last snapshot's views in the same places, only the views that changed are looked at (a
        result changes one or a few of a cup's 4,000); views in other places (a move) make them all again, each
        worked out again only for a view that changed (the same view: the same place, time and result)."""
        last = self._last_placed
        changed = views
        if last is not None and len(last[0]) == len(views):
            pairs = [(f, old) for f, old in zip(views, last[0], strict=True) if f is not old]
            if all(f.match_id == old.match_id for f, old in pairs):
                changed = [f for f, _ in pairs]
        if changed is views or last is None:
            fixtures: dict[int, queries.FixtureView] = {}
            versions: dict[int, str] = {}
            moves: dict[int, tuple[str, datetime]] = {}
        else:
            fixtures, versions, moves = dict(last[1]), dict(last[2]), dict(last[3])
        as_filed = self.plan.fixtures
        for f in changed:
            number = f.number
            seen = self._versions.get(number)
            if seen is None or seen[0] is not f:
                m = as_filed.get(f.match_id)
                moved = m is not None and (f.start != m.start or f.court_name != m.court)
                seen = self._versions[number] = (f, desk.match_version(f.court_name, f.start, stored.get(f.match_id)),
                                                 (f.court_name, f.start) if moved else None)
            fixtures[number], versions[number] = f, seen[1]
            if seen[2] is not None:
                moves[number] = seen[2]
            else:
                moves.pop(number, None)
        moves = dict(sorted(moves.items()))  # in the file's order of numbers, as the pages list them
        self._last_placed = (views, fixtures, versions, moves)
        return fixtures, versions, moves

    def _match(self, number: int) -> tuple[ScheduledMatch, Ruleset, StageKind] | None:
        """Match ``number`` as scheduled, the ruleset it is played by and whether it may end level."""
        m = self.plan.fixtures.get(str(number))
        return None if m is None else (m, self.plan.ruleset_of(m.stage), m.kind)

    def timeline(self, number: int) -> MatchTimeline | None:
        """Match ``number``'s timeline as its table's stored events tell it (None before its first event)."""
        found = self._match(number)
        if found is None:
            return None
        m, ruleset, stage = found
        base = self._base
        result = base[1].results.get(number) if base is not None else None  # as the snapshot shows it
        return self.timelines.of(str(number), ruleset, stage, m.round, result=result)

    def report(self, number: int, match: ReportMatch) -> bytes | None:
        """Match ``number``'s report (server.report_pdf) from its stored events; None before its first event."""
        found = self._match(number)
        events = queries.stored_events(self.store, str(number)) if found is not None else []
        if found is None or not events:
            return None
        return report_pdf(match, found[1], events)

    def match_log(self, number: int, teams: tuple[str, str]) -> list[LogLine]:
        """Match ``number``'s whole log as its table recorded it (the desk's: undone presses included); ``teams``
        names its sides."""
        found = self._match(number)
        if found is None:
            return []
        m, ruleset, stage = found
        return match_log(self.store, str(number), ruleset, stage, m.round, teams)

    def _build(self, c: Connection, version: int, base: _Base, *, marks_read: bool = False) -> TournamentData:
        """The base with what changes several times a second: live states, presence, conflicts, read on ``c``;
        ``marks_read``: the base read the events' marks on ``c`` just before (its schedule's matches under way)."""
        store, plan = self.store, self.plan
        self.timelines.catch_up(c, read=not marks_read)  # before the pages of this snapshot ask for a timeline
        name_of, fixtures, results = plan.courts, base.fixtures, base.results
        live: dict[str, LiveBoard] = {}
        live_at: dict[str, datetime] = {}
        sanctions = list(base.sanctions)
        for court, view in self._live_states(c).items():
            board = view.live.board
            if board.match is not None and board.match.isdigit():
                f = fixtures.get(int(board.match))
                if f is not None and f.home and f.away and f.number not in results:
                    sanctions += sanctions_from_cards(f.number, f.home, f.away, view.live.state.get("cards") or ())
            live[name_of.get(court, court)] = board
            local = self._live_local.get(court)
            if local is None or local[0] != view.updated_at:  # one conversion per state, not per snapshot
                local = self._live_local[court] = (view.updated_at, _local(view.updated_at))
            live_at[name_of.get(court, court)] = local[1]
        presence = {}
        for p in queries.court_presence(store, c):
            if p.state == "unknown":
                continue
            kept = self._presence.get(p.court)
            if kept is not None and (kept[0] is p or kept[0] == p):  # a row changes with its court's messages
                presence[p.court_name] = kept[1]
                continue
            playing = int(p.last_match) if p.last_match and p.last_match.isdigit() and p.state == "online" else None
            said = [p.last_type or "", f"match {p.last_match}" if p.last_match else ""]
            presence[p.court_name] = Presence(
                court=p.court_name, online=p.state == "online",
                last_seen=_local(p.last_message_at) if p.last_message_at else None,
                last_message=" ".join(x for x in said if x), last_kind=p.last_type or "",
                last_match=int(p.last_match) if p.last_match and p.last_match.isdigit() else None,
                playing=playing if p.last_type == "live" else None,
            )
            self._presence[p.court] = (p, presence[p.court_name])
        conflicts, abandoned = [], []
        for hold in queries.open_conflicts(store, c):
            f = fixtures.get(int(hold.match_id)) if hold.match_id.isdigit() else None
            stored = results.get(int(hold.match_id)) if hold.match_id.isdigit() else None
            if f is not None and stored is None and hold.result.outcome == "abandoned":
                # Held with no result stored (server.ingest): the organiser settles the match.
                abandoned.append(Abandoned(
                    id=str(hold.id), number=f.number, court=name_of.get(hold.court or "", f.court_name),
                    home_goals=hold.result.home_goals, away_goals=hold.result.away_goals,
                    received=_local(hold.received_at)))
                continue
            if f is None or stored is None:
                continue
            conflicts.append(Conflict(id=str(hold.id), number=f.number,
                                      court=name_of.get(hold.court or "", f.court_name), stored=stored.result,
                                      held=_held(stored.result, hold.result), received=_local(hold.received_at),
                                      reason=hold.reason))
        sanctions = discipline.with_rulings(sanctions, base.rulings)
        return TournamentData(
            version=version, now=datetime.now(), cup=plan.cup, rulesets=plan.rulesets,
            entry_teams=plan.entry_teams, schedule=TournamentSchedule(matches=base.original), results=results,
            decisions=base.decisions, live=live, live_at=live_at, presence=presence, conflicts=tuple(conflicts),
            abandoned=tuple(abandoned),
            audit=base.audit, sanctions=tuple(sanctions), moves=base.moves, progress=base.progress,
            class_progress=base.class_progress,
            versions=base.versions, sheets=base.sheets,
        )


@dataclass(frozen=True, kw_only=True)
class _Base:
    fixtures: dict[int, queries.FixtureView]
    original: tuple[ScheduledMatch, ...]
    moves: dict[int, tuple[str, datetime]]
    results: dict[int, RecordedResult]
    decisions: tuple[Decision, ...]
    progress: Progress
    class_progress: dict[str, Progress]
    sanctions: tuple[Sanction, ...]
    rulings: tuple[Ruling, ...]
    audit: tuple[AuditEntry, ...]
    versions: dict[int, str]
    sheets: dict[str, TeamSheet]

def _local(at: datetime) -> datetime:
    """A stored instant (UTC; SQLite gives it back without its zone) as the venue's wall-clock time,
    the way the schedule's times are written, so the two compare."""
    return as_utc(at).astimezone().replace(tzinfo=None)


def _held(stored: MatchResult, held: Result) -> MatchResult:
    """A held report as the stored result's match."""
    return standings_result(held, pool=stored.pool, home=stored.home, away=stored.away)


def _what(c: queries.ChangeView) -> str:
    where = f"match {c.match_id}" if c.match_id else f"pool {c.pool}" if c.pool else ""
    if c.action == "result" and c.after:  # "match 3: 1-4 (was 3-1)", as the score sheet would say it
        was = f" (was {_score(c.before)})" if c.before else ""
        return f"{where}: {_score(c.after)}{was}" + (f" [{c.after['note']}]" if c.after.get("note") else "")
    after = ", ".join(f"{k} {v}" for k, v in (c.after or {}).items() if v is not None)
    return f"{c.action} {where}: {after}".strip()


def _score(r: dict[str, Any]) -> str:
    text = f"{r['home_goals']}-{r['away_goals']}"
    if r.get("outcome", "regular") != "regular":
        text += f" {r['outcome']}"
    return text + (f" {r['home_shootout']}-{r['away_shootout']}" if r.get("home_shootout") is not None else "")


__all__ = ["ServiceBackend"]

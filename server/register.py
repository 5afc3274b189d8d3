"""The disciplinary register as the service publishes it: who sits out which match, for the courts' schedules.

:meth:`Register.suspended` runs once per publication on the service's loop. It must cost next to
nothing when nobody is suspended, which is nearly always: it reads only the penalty and undo events
stored since its last call (by the events' id) and remembers which matches hold an award that can
put a card on the register (``discipline.may_sanction``). Only when there are such matches does it
replay them (once per new penalty or undo, then kept), read the rulings and the whole schedule
(teams resolved) and work out the suspensions with ``server.discipline``, the desk's own rules.
It also names the courts whose matches' suspensions changed since the last call: a red card in a
match on one court suspends a player in a match on another, whose schedule must then go out too.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import Connection, bindparam, func, select, union_all
from sqlalchemy.orm import Session

from server import discipline, queries
from server.db.models import Change, EventRow, ResultRow, RulingRow
from server.ingest import CARD_EVENTS
from server.result_feed import added_since
from server.rulings import Rulings
from server.store import Store

Suspended = dict[str, list[dict[str, Any]]]
"""match id -> who may not play it (``discipline.suspended_by_match``'s entries)."""

_PENALTY_TYPES = CARD_EVENTS  # the only events that make or take back a card
# Built once and run on a plain connection (Core), as ingest's busiest statements are: this runs at every
# publication, and building the statement and the ORM session's bookkeeping cost more than the reads.
_LAST_EVENT = select(func.max(EventRow.id))
_PENALTIES_SINCE = select(EventRow.match_id, EventRow.type, EventRow.body).where(
    EventRow.id > bindparam("seen"), EventRow.id <= bindparam("last"), EventRow.type.in_(_PENALTY_TYPES))
# With the penalties of the matches whose result is new, by the events' type (ix_events_type_match): an event whose
# transaction took an id below one already read may commit after it (two instances storing at once, on
# PostgreSQL), and the range above passes it over; a result is stored only once all its match's events are.
_PENALTIES_SINCE_AND_OF = union_all(_PENALTIES_SINCE, select(EventRow.match_id, EventRow.type, EventRow.body).where(
    EventRow.type.in_(_PENALTY_TYPES), EventRow.match_id.in_(bindparam("finished", expanding=True))))
_REVISION = select(select(func.count()).select_from(ResultRow).scalar_subquery(),
                   select(func.max(ResultRow.recorded_at)).scalar_subquery(),
                   select(func.max(Change.id)).scalar_subquery(), select(func.max(RulingRow.id)).scalar_subquery())


class Register:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.rulings = Rulings(store.engine)
        self._seen = 0  # the last events.id read
        self._candidates: set[str] = set()  # matches with an award that may sanction
        self._dirty: set[str] = set()  # ... whose cards must be replayed again
        self._cards: dict[str, list[dict[str, Any]]] = {}
        self._published: Suspended = {}
        self._views: dict[str, queries.FixtureView] = {}  # match id -> its view, as last read (its court's id)
        self._revision_seen: tuple[object, ...] | None = None
        self._results_seen: list[Any] | None = None  # the stored results as last looked at, in the order stored

    def suspended(self, session: Session | None = None) -> tuple[Suspended, set[str]]:
        """Who may not play which match now, and the courts whose suspensions changed since the last call; read
        in ``session`` if given (the publishing's, whose results and progress the schedule's views share)."""
        if session is None:
            with self.store.session() as own:
                return self.suspended(own)
        c = session.connection()
        self._read_new_events(c, self._newly_finished(session))
        now = self._work_out(session, c) if self._candidates else {}
        changed = {m for m in set(now) | set(self._published) if now.get(m) != self._published.get(m)}
        self._published = now
        return now, {self._views[m].court for m in changed if m in self._views}

    def _newly_finished(self, s: Session) -> list[str]:
        """The matches whose result was stored or written again since the last call (none at the first, whose
        range reads every event of the day). The results as last looked at followed by new ones (a new result is
        stored last) name the new ones; any other change, each result whose revision moved."""
        rows = self.store.results(s)
        seen, self._results_seen = self._results_seen, rows
        if seen is None:
            return []
        added = added_since(seen, rows)
        if added is not None:
            return sorted({r.match_id for r in added})
        before = {(r.match_id, r.revision) for r in seen}
        return sorted({r.match_id for r in rows if (r.match_id, r.revision) not in before})

    def _read_new_events(self, c: Connection, finished: list[str]) -> None:
        plan = self.store.plan
        last = c.scalar(_LAST_EVENT) or 0  # the primary key's end: no scan
        if last <= self._seen and not finished:
            return
        read = c.execute(_PENALTIES_SINCE_AND_OF, {"seen": self._seen, "last": last, "finished": finished}) \
            if finished else c.execute(_PENALTIES_SINCE, {"seen": self._seen, "last": last})
        for row in read:
            f = plan.fixtures.get(row.match_id)
            ruleset = plan.ruleset_of(f.stage) if f is not None else None
            if row.type == "penalty_awarded" and ruleset is not None \
                    and discipline.may_sanction(ruleset, str(row.body.get("kind"))):
                self._candidates.add(row.match_id)
            if row.match_id in self._candidates:
                self._dirty.add(row.match_id)
        self._seen = last

    @staticmethod
    def _revision(c: Connection) -> tuple[object, ...]:
        """What the suspensions follow besides the cards: results (teams resolved), the desk's changes (moves,
        corrections, decisions) and the rulings; one read of three small aggregates."""
        return tuple(c.execute(_REVISION).one())

    def _work_out(self, s: Session, c: Connection) -> Suspended:
        revision = self._revision(c)
        if not self._dirty and revision == self._revision_seen:
            return self._published
        schedule = queries.schedule(self.store, s)  # in playing order, teams resolved, moves applied
        by_id = self._views = {f.match_id: f for f in schedule}
        self._replay(self._dirty, by_id)
        self._dirty, self._revision_seen = set(), revision
        sanctions: list[discipline.Sanction] = []
        for match_id in sorted(self._candidates):
            f = by_id.get(match_id)
            if f is not None and f.home and f.away:
                sanctions += discipline.sanctions_from_cards(f.number, f.home, f.away, self._cards.get(match_id, ()))
        if not sanctions:
            return {}
        sanctions = discipline.with_rulings(sanctions, self.rulings.all(c))
        # The whole schedule, unsorted: each sanctioned team's own matches are put in playing order (sorting a
        # cup's 4,000 after every result cost more than the rest).
        missed = discipline.suspended_by_match(sanctions, schedule)
        return {str(n): entries for n, entries in missed.items()}  # a match's id is its number as text

    def _replay(self, match_ids: Iterable[str], fixtures: dict[str, queries.FixtureView]) -> None:
        wanted = sorted(m for m in match_ids if m in fixtures)
        if not wanted:
            return
        bodies: dict[str, list[dict[str, Any]]] = {m: [] for m in wanted}
        with self.store.session() as s:
            query = (select(EventRow.match_id, EventRow.body).where(EventRow.match_id.in_(wanted))
                     .order_by(EventRow.match_id, EventRow.seq))
            for row in s.execute(query):
                bodies[row.match_id].append(row.body)
        for m in wanted:
            f = fixtures[m]
            self._cards[m] = discipline.cards_of(self.store.plan.ruleset_of(f.stage), bodies[m], f.kind, f.round, m)

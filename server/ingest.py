"""Check and store one message from a table, idempotently; say what to acknowledge and what changed.

:func:`ingest` runs inside the caller's transaction and returns an :class:`Outcome`: the status
(``stored``, ``duplicate``, ``refused``, ``conflict``, ``waiting``), the reason, the ack to send
once the transaction is committed, and the pools and courts whose tables or schedules changed.

- The same message twice, out of order, or after a restart changes nothing: an event is unique
  per (match, seq) and a result per match; a repeat is acknowledged again (its first ack may
  have been lost) and stores nothing.
- A result is stored only if replaying that match's stored events 1..seq with the engine gives
  the same result; while events are missing it waits (no ack: the table resends). A different
  result for a finished match is kept as a conflict for the organiser, reported, not applied.
- Nothing from a court is taken for a match that is not scheduled on that court.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from typing import Any

from sqlalchemy import bindparam, func, insert, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from rules import CourtsideError, Event, Result, read_result, result_payload
from rules.link_payloads import PresencePayload
from rules.protocol import Message
from rules.result import FIELDS
from server.db.models import Conflict, EventRow, Live, MessageLog, Presence, ResultRow
from server.openmatches import OpenMatches, ReplayFailed
from server.result_feed import written
from server.store import Store, UnknownTeams, teams_of, utcnow

MAX_SEQ_AHEAD = 2_000
"""An event this far past the last one stored is no sequence a table makes: refused. A table numbers a match's
events 1, 2, 3 ... and sends what waits in order, so a gap is at most the events of one match it kept while
offline, and a whole match makes tens (the examples' longest: 20). 100,000 ahead was let through before, for a
match not started, and kept waiting for a gap nobody would fill."""


@dataclass
class Outcome:
    status: str  # stored | duplicate | refused | conflict | waiting | noted
    reason: str = ""
    ack: tuple[str, int] | None = None  # ("event"|"result", through) for this message's seq
    pools: set[str] = field(default_factory=set)
    courts: set[str] = field(default_factory=set)
    all_courts: bool = False
    error: bool = False  # report on the error topic


class Refused(CourtsideError, ValueError):
    """A message the service will not take (the reason goes to the error topic and the log)."""


def _insert_into(dialect: str, table: Any) -> postgresql.Insert | sqlite.Insert:
    """An insert with ON CONFLICT, as the two databases the store runs on write it."""
    return postgresql.insert(table) if dialect == "postgresql" else sqlite.insert(table)


@cache
def _new_only(dialect: str, table: Any, keys: tuple[str, ...]) -> postgresql.Insert | sqlite.Insert:
    # SQLAlchemy keeps an INSERT's rowcount only when asked: psycopg's was read as -1 (true) for a row that was
    # there already, so on PostgreSQL no court's live state or presence was ever updated after its first.
    return _insert_into(dialect, table).on_conflict_do_nothing(index_elements=keys).execution_options(
        preserve_rowcount=True)


def _insert(session: Session, table: Any, values: dict[str, Any], keys: tuple[str, ...]) -> bool:
    """INSERT ... ON CONFLICT DO NOTHING; True if the row is new (safe between instances)."""
    connection = session.connection()
    return bool(connection.execute(_new_only(connection.dialect.name, table, keys), values).rowcount)


@cache
def _touch(dialect: str) -> postgresql.Insert | sqlite.Insert:
    """The courts heard from: a court's row made, or its last message noted (its state is the presence's)."""
    stmt = _insert_into(dialect, Presence)
    return stmt.on_conflict_do_update(index_elements=["court"], set_={
        "last_message_at": stmt.excluded.last_message_at, "last_type": stmt.excluded.last_type,
        "last_match": func.coalesce(stmt.excluded.last_match, Presence.last_match)})


_LOG = insert(MessageLog)  # built once: building it is a tenth of a one-message batch's statements
_RESULTS_OF = select(ResultRow.match_id, ResultRow.stage, ResultRow.source, ResultRow.home_goals,
                     ResultRow.away_goals, ResultRow.outcome, ResultRow.winner, ResultRow.home_shootout,
                     ResultRow.away_shootout).where(ResultRow.match_id.in_(bindparam("ids", expanding=True)))
_PLAYED_IN = (select(ResultRow.stage, func.count()).where(ResultRow.stage.in_(bindparam("stages", expanding=True)))
              .group_by(ResultRow.stage))


class Batch(dict[str, Any]):
    """What one transaction reads: the fixtures (court and teams as the organiser left them, as light rows,
    kept by the store between batches while the desk's change log stands still: a move writes a change),
    each result's match's stored result and each stage's count of results, read once and kept up to
    date as the batch stores."""

    def __init__(self, session: Session, store: Store) -> None:
        super().__init__(store.fixtures(session))
        self.court_id = store.plan.court_id
        self.matches = store.matches
        self.matches.new_batch()
        self.results: dict[str, dict[str, Any] | None] = {}
        self.played: dict[str, int] = {}

    def prefetch_results(self, session: Session, match_ids: list[str]) -> None:
        """The stored results of the batch's results' matches, in one read."""
        wanted = sorted(set(match_ids) - set(self.results))
        if not wanted:
            return
        self.results.update(dict.fromkeys(wanted))
        for row in session.connection().execute(_RESULTS_OF, {"ids": wanted}):
            self.results[row.match_id] = dict(row._mapping)

    def stored_result(self, session: Session, match_id: str) -> dict[str, Any] | None:
        """The match's stored result (result_dict's keys, plus stage and source), or None."""
        if match_id not in self.results:
            self.prefetch_results(session, [match_id])
        return self.results[match_id]

    def prefetch_played(self, session: Session, stages: list[str]) -> None:
        """How many results each of ``stages`` has stored, in one read (for the batch's results' stages)."""
        wanted = sorted(set(stages) - set(self.played))
        if not wanted:
            return
        self.played.update(dict.fromkeys(wanted, 0))
        for stage, played in session.connection().execute(_PLAYED_IN, {"stages": wanted}):
            self.played[stage] = played

    def count_played(self, session: Session, stage: str) -> int:
        if stage not in self.played:
            self.prefetch_played(session, [stage])
        return self.played[stage]


def fixtures_of(session: Session, store: Store) -> Batch:
    return Batch(session, store)


CARD_EVENTS = ("penalty_awarded", "undo")
"""Events that may put a player on the disciplinary register or take one off (server.register reads them)."""


def _fixture(session: Session, m: Message, fixtures: Batch) -> Any:
    assert m.match is not None
    f = fixtures.get(m.match)
    if f is None:
        raise Refused(f"court {m.court}: there is no match {m.match!r} in this tournament")
    if fixtures.court_id(f.court) != m.court:
        raise Refused(f"court {m.court}: match {m.match} is scheduled on {f.court}, not here")
    return f


def through(session: Session, match_id: str) -> int:
    """The last seq stored for the match with none missing before it."""
    return through_of(set(session.scalars(select(EventRow.seq).where(EventRow.match_id == match_id))))


def touch(session: Session, heard: dict[str, tuple[str, str | None]], now: datetime) -> None:
    """The courts' tables were heard from (court -> the kind and match of its last message in the batch):
    one upsert per court, sent to the database as one statement."""
    if heard:
        connection = session.connection()
        connection.execute(_touch(connection.dialect.name), [
            {"court": court, "state": "online", "since": now, "last_message_at": now, "last_type": kind,
             "last_match": match} for court, (kind, match) in sorted(heard.items())])  # rows locked in one order


def log_messages(session: Session, rows: list[dict[str, Any]]) -> None:
    """The message log's rows for a batch (received_at, topic, ids, status, reason), in one statement."""
    if rows:
        session.connection().execute(_LOG, rows)


def ingest(store: Store, session: Session, m: Message, now: datetime, fixtures: Batch | None = None) -> Outcome:
    """Check and store ``m``; the caller records the court as heard from (:func:`touch`) unless refused."""
    batch = fixtures if fixtures is not None else Batch(session, store)
    try:
        if m.type == "event":
            out = _event(store, session, m, now, batch)
        elif m.type == "result":
            out = _result(store, session, m, now, batch)
        elif m.type == "presence":
            out = _presence(store, session, m, now)
        elif m.type == "live":
            out = _live(store, session, m, now)
        else:
            raise Refused(f"a {m.type!r} message is the service's to send, not a table's")
    except Refused as err:
        return Outcome("refused", str(err), error=True)
    return out


def _event(store: Store, session: Session, m: Message, now: datetime, batch: Batch) -> Outcome:
    assert m.match is not None and m.seq is not None and m.court is not None
    f = _fixture(session, m, batch)
    om = batch.matches.get(session, m.match, f.kind, f.round)
    if m.seq > om.through + 1:  # past a gap: another instance may have stored what is missing
        batch.matches.refresh(session, om)
    if m.seq > om.through + MAX_SEQ_AHEAD:
        raise Refused(f"court {m.court}, match {m.match}: seq {m.seq} is far past the last stored ({om.through})")
    event = m.body
    assert isinstance(event, Event)  # parse() read it
    known = om.bodies.get(m.seq)
    if known is None and _insert(session, EventRow.__table__, {
            "match_id": m.match, "court": m.court, "seq": m.seq, "type": event.type, "at": event.at,
            "body": m.payload, "message_id": m.id, "received_at": now}, ("match_id", "seq")):
        first = not om.bodies
        om.add(m.seq, m.payload)
        om.catch_up(store.plan.ruleset_of(f.stage), om.through)  # the live Match follows, so a result needs no replay
        # The court's schedule shows the match as live from its first event; later events change no schedule,
        # but a penalty (or the undo of one) may put a player on the disciplinary register, even one entered
        # after the final whistle: the publishing it triggers asks the register, which adds the courts of
        # the matches the player now misses.
        card = event.type in CARD_EVENTS
        return Outcome("stored", ack=("event", om.through), courts={m.court} if first or card else set())
    if known is None:  # another instance stored it meanwhile
        stored = session.scalar(select(EventRow.body).where(EventRow.match_id == m.match, EventRow.seq == m.seq))
        assert stored is not None
        om.add(m.seq, stored)
        known = stored
    if known != m.payload:
        raise Refused(f"court {m.court}, match {m.match}: seq {m.seq} is stored already as a different event "
                      f"({known.get('type')}); the first one stands")
    return Outcome("duplicate", ack=("event", om.through))


def through_of(seqs: set[int]) -> int:
    """The last of ``seqs`` with none missing from 1 to it (0: seq 1 is missing)."""
    n = 0
    while n + 1 in seqs:
        n += 1
    return n


def replayed_result(store: Store, session: Session, f: Any, seq: int, batch: Batch | None = None) -> Result:
    """What the engine gives for the match's stored events 1..seq (refused if they do not finish it)."""
    matches = batch.matches if batch is not None else OpenMatches()
    om = matches.get(session, f.match_id, f.kind, f.round)
    try:
        out = om.result_at(store.plan.ruleset_of(f.stage), seq)
    except ReplayFailed as err:
        raise Refused(f"match {f.match_id}: its events do not replay: {err}") from None
    if out is None:
        raise Refused(f"match {f.match_id}: its events up to seq {seq} do not finish the match")
    return out


def _stored(row: dict[str, Any]) -> Result:
    return read_result({k: row[k] for k in FIELDS}, "stored result")


def _hold(session: Session, m: Message, reason: str, now: datetime) -> Outcome:
    assert m.match is not None and m.seq is not None
    _insert(session, Conflict.__table__, {"match_id": m.match, "court": m.court, "seq": m.seq,
                                          "payload": m.payload, "reason": reason, "message_id": m.id,
                                          "received_at": now}, ("message_id",))
    return Outcome("conflict", reason, ack=("result", m.seq), error=True)


def _result(store: Store, session: Session, m: Message, now: datetime, batch: Batch) -> Outcome:
    assert m.match is not None and m.seq is not None and m.court is not None
    f = _fixture(session, m, batch)
    om = batch.matches.get(session, m.match, f.kind, f.round)
    if om.through < m.seq:  # before it waits: what another instance stored since is read, every time
        batch.matches.refresh(session, om, again=True)
    if om.through < m.seq:
        return Outcome("waiting", f"match {m.match}: events up to seq {m.seq} not all stored (have {om.through})")
    assert isinstance(m.body, Result)  # parse() read it
    sent, engine = m.body, replayed_result(store, session, f, m.seq, batch)
    if sent != engine:
        raise Refused(f"court {m.court}, match {m.match}: the result {_score(sent)} differs from what its "
                      f"events give ({_score(engine)})")
    stored = batch.stored_result(session, m.match)
    if stored is not None:
        batch.matches.finished(m.match)
        return _judge(session, m, sent, stored, now)
    if sent.outcome == "abandoned":
        return _hold(session, m, f"match {m.match} was abandoned: the organiser decides its result", now)
    if f.home in store.entry_team_names and f.away in store.entry_team_names:
        home, away = f.home, f.away  # a first-round pool's match: its teams are the file's
    else:
        try:
            home, away = teams_of(store, session, m.match)
        except UnknownTeams as err:
            return Outcome("waiting", str(err))
    values = {"match_id": m.match, "stage": f.stage, "home": home, "away": away, **result_payload(sent), "seq": m.seq,
              "court": m.court, "source": "table", "recorded_at": utcnow()}
    played = batch.count_played(session, f.stage)
    if not _insert(session, ResultRow.__table__, values, ("match_id",)):
        # Another instance stored it between our read and our write: judge against that one.
        del batch.results[m.match]
        again = batch.stored_result(session, m.match)
        assert again is not None
        return _judge(session, m, sent, again, now)
    written(session, m.match)
    batch.results[m.match] = values
    batch.played[f.stage] = played + 1
    batch.matches.finished(m.match)
    # A first-round pool's result changes only its court's schedule until the pool is complete (then the
    # later stages' teams resolve); a later stage's result may decide who plays where: the courts with a match
    # a placeholder takes from this stage. Not those after them: a table's result is the match's first (another
    # is a conflict, held), and no match after it can have been played without its teams.
    first_round = f.stage in store.plan.entry_teams
    complete = played + 1 >= store.stage_sizes.get(f.stage, 0)
    courts = {m.court} | (store.courts_waiting_on(session, f.stage) if not first_round or complete else set())
    # The stage is named even when it is a knock-out round (as the desk's record_result does): its result decides
    # who plays where, so the tournament's progress is worked out again and the pages rebuild in full.
    return Outcome("stored", ack=("result", m.seq), pools={f.stage}, courts=courts)


def _judge(session: Session, m: Message, sent: Result, stored: dict[str, Any], now: datetime) -> Outcome:
    """A result for a match that has one already: the same again, or a conflict held for the organiser."""
    if _stored(stored) == sent:
        return Outcome("duplicate", ack=("result", m.seq))  # type: ignore[arg-type]
    return _hold(session, m, f"match {m.match} is finished already at {_score(_stored(stored))} "
                             f"({stored['source']}); {_score(sent)} from court {m.court} waits for the organiser", now)


def _score(r: Result) -> str:
    text = f"{r.home_goals}-{r.away_goals} ({r.outcome}"
    if r.home_shootout is not None:
        text += f", shoot-out {r.home_shootout}-{r.away_shootout}"
    return text + ")"


def _presence(store: Store, session: Session, m: Message, now: datetime) -> Outcome:
    assert m.court is not None
    if m.court not in store.plan.courts:
        raise Refused(f"there is no court {m.court!r} in this tournament")
    assert isinstance(m.body, PresencePayload)  # parse() read it
    state = m.body.state
    if not _insert(session, Presence.__table__, {"court": m.court, "state": state, "since": now}, ("court",)):
        row = session.get(Presence, m.court)
        if row is not None and row.state != state:
            row.state, row.since = state, now
    return Outcome("noted", courts={m.court})


def _live(store: Store, session: Session, m: Message, now: datetime) -> Outcome:
    assert m.court is not None
    if m.court not in store.plan.courts:
        raise Refused(f"there is no court {m.court!r} in this tournament")
    connection = session.connection()
    connection.execute(_newest_live(connection.dialect.name),
                       {"court": m.court, "match_id": m.match, "state": m.payload, "updated_at": now})
    return Outcome("noted", courts={m.court})


@cache
def _newest_live(dialect: str) -> postgresql.Insert | sqlite.Insert:
    """A court's live state, in place of the one stored: one statement, as a cup's courts send one a second each."""
    stmt = _insert_into(dialect, Live)
    return stmt.on_conflict_do_update(index_elements=["court"], set_={
        "match_id": stmt.excluded.match_id, "state": stmt.excluded.state, "updated_at": stmt.excluded.updated_at})


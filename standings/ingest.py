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

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from rules.errors import CourtsideError, EventLogError, IllegalCommand
from rules.match import Match, event_from_dict
from rules.protocol import Message
from rules.ruleset import StageKind
from standings.db.models import Conflict, EventRow, Fixture, Live, Presence, ResultRow
from standings.store import Store, UnknownTeams, result_dict, result_row

RUN_OUT_MS = 86_400_000
"""How long after the last event a result is asked for (the table's outbox asks the same)."""
MAX_SEQ_AHEAD = 100_000
"""An event this far past the last one stored is no sequence a table makes: refused."""


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


def _insert(session: Session, table: Any, values: dict[str, Any], keys: list[str]) -> bool:
    """INSERT ... ON CONFLICT DO NOTHING; True if the row is new (safe between instances)."""
    dialect = session.get_bind().dialect.name
    stmt = (postgresql.insert(table) if dialect == "postgresql" else sqlite.insert(table)).values(**values)
    result = session.execute(stmt.on_conflict_do_nothing(index_elements=keys))
    return bool(result.rowcount)  # type: ignore[attr-defined]


class Batch(dict[str, Fixture]):
    """What one transaction reads once: every fixture (court and teams as the organiser left them) and,
    per match, the last seq stored with none missing before it."""

    def __init__(self, session: Session) -> None:
        super().__init__((f.match_id, f) for f in session.scalars(select(Fixture)))
        self.seqs: dict[str, set[int]] = {}


def fixtures_of(session: Session) -> Batch:
    return Batch(session)


_EVENT_SQL = {
    # The busiest statement by far (every event of every match): the driver's own SQL, no ORM on the way.
    "sqlite": "INSERT INTO events (match_id, court, seq, type, at, body, message_id, received_at) "
              "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (match_id, seq) DO NOTHING",
    "postgresql": "INSERT INTO events (match_id, court, seq, type, at, body, message_id, received_at) "
                  "VALUES (%s, %s, %s, %s, %s, %s::json, %s, %s) ON CONFLICT (match_id, seq) DO NOTHING",
}


def _insert_event(session: Session, m: Message, now: datetime) -> bool:
    connection = session.connection()
    dialect = connection.dialect.name
    if dialect not in _EVENT_SQL:
        values = {"match_id": m.match, "court": m.court, "seq": m.seq, "type": m.payload["type"],
                  "at": m.payload["at"], "body": m.payload, "message_id": m.id, "received_at": now}
        return _insert(session, EventRow.__table__, values, ["match_id", "seq"])
    # SQLite keeps the instant as SQLAlchemy's DateTime does: ISO text without the zone (UTC).
    at = now.replace(tzinfo=None).isoformat(sep=" ") if dialect == "sqlite" else now
    params = (m.match, m.court, m.seq, m.payload["type"], m.payload["at"],
              json.dumps(m.payload, ensure_ascii=False, separators=(",", ":")), m.id, at)
    result = connection.exec_driver_sql(_EVENT_SQL[dialect], params)
    return bool(result.rowcount)


def _fixture(session: Session, m: Message, fixtures: dict[str, Fixture] | None = None) -> Fixture:
    assert m.match is not None
    f = fixtures.get(m.match) if fixtures is not None else session.get(Fixture, m.match)
    if f is None:
        raise Refused(f"court {m.court}: there is no match {m.match!r} in this tournament")
    if f.court != m.court:
        raise Refused(f"court {m.court}: match {m.match} is scheduled on {f.court}, not here")
    return f


def through(session: Session, match_id: str) -> int:
    """The last seq stored for the match with none missing before it."""
    return _through(set(session.scalars(select(EventRow.seq).where(EventRow.match_id == match_id))))


def touch(session: Session, court: str, kind: str, match: str | None, now: datetime) -> None:
    """The court's table was heard from (once per court per batch: its last message)."""
    new = {"court": court, "state": "online", "since": now, "last_message_at": now, "last_type": kind,
           "last_match": match}
    if _insert(session, Presence.__table__, new, ["court"]):  # an upsert: another instance may insert it too
        return
    row = session.get(Presence, court)
    assert row is not None
    row.last_message_at, row.last_type = now, kind
    if match is not None:
        row.last_match = match


def ingest(store: Store, session: Session, m: Message, now: datetime,
           fixtures: dict[str, Fixture] | None = None) -> Outcome:
    """Check and store ``m``; the caller records the court as heard from (:func:`touch`) unless refused."""
    try:
        if m.type == "event":
            out = _event(session, m, now, fixtures)
        elif m.type == "result":
            out = _result(store, session, m, now, fixtures)
        elif m.type == "presence":
            out = _presence(store, session, m, now)
        elif m.type == "live":
            out = _live(store, session, m, now)
        else:
            raise Refused(f"a {m.type!r} message is the service's to send, not a table's")
    except Refused as err:
        return Outcome("refused", str(err), error=True)
    return out


def _event(session: Session, m: Message, now: datetime, fixtures: dict[str, Fixture] | None) -> Outcome:
    assert m.match is not None and m.seq is not None and m.court is not None
    _fixture(session, m, fixtures)
    seqs = _seqs(session, m.match, fixtures)
    have = _through(seqs)
    if m.seq > have + MAX_SEQ_AHEAD:
        raise Refused(f"court {m.court}, match {m.match}: seq {m.seq} is far past the last stored ({have})")
    if _insert_event(session, m, now):
        seqs.add(m.seq)
        # The court's schedule shows the match as live from its first event; later events change no schedule.
        return Outcome("stored", ack=("event", _through(seqs)), courts={m.court} if len(seqs) == 1 else set())
    seqs.add(m.seq)  # another instance stored it meanwhile
    stored = session.scalar(select(EventRow).where(EventRow.match_id == m.match, EventRow.seq == m.seq))
    assert stored is not None
    if stored.body != m.payload:
        raise Refused(f"court {m.court}, match {m.match}: seq {m.seq} is stored already as a different event "
                      f"({stored.body.get('type')}); the first one stands")
    return Outcome("duplicate", ack=("event", _through(seqs)))


def _seqs(session: Session, match_id: str, fixtures: dict[str, Fixture] | None) -> set[int]:
    """The seqs stored for the match: read once per batch, then kept as the batch adds to them."""
    cache = fixtures.seqs if isinstance(fixtures, Batch) else {}
    if match_id not in cache:
        cache[match_id] = set(session.scalars(select(EventRow.seq).where(EventRow.match_id == match_id)))
    return cache[match_id]


def _through(seqs: set[int]) -> int:
    n = 0
    while n + 1 in seqs:
        n += 1
    return n


def replayed_result(store: Store, session: Session, f: Fixture, seq: int) -> dict[str, Any]:
    """What the engine gives for the match's stored events 1..seq (refused if they do not finish it)."""
    rows = session.scalars(select(EventRow).where(EventRow.match_id == f.match_id, EventRow.seq <= seq)
                           .order_by(EventRow.seq))
    try:
        events = [event_from_dict(r.body, f"match {f.match_id}") for r in rows]
        kind: StageKind = "round_robin" if f.kind == "round_robin" else "knockout"
        match = Match.replay(store.plan.ruleset, events, stage=kind, round=f.round)
    except (EventLogError, IllegalCommand) as err:
        raise Refused(f"match {f.match_id}: its events do not replay: {err}") from None
    # A match ends by its clock, with no event at the end: its result is the one once time has run out.
    outcome = match.result(match.last_at + RUN_OUT_MS)
    if outcome is None:
        raise Refused(f"match {f.match_id}: its events up to seq {seq} do not finish the match")
    out: dict[str, Any] = {"home_goals": outcome.home_goals, "away_goals": outcome.away_goals,
                           "outcome": outcome.outcome, "winner": outcome.winner}
    if outcome.home_shootout is not None or outcome.away_shootout is not None:
        out["home_shootout"], out["away_shootout"] = outcome.home_shootout, outcome.away_shootout
    return out


def _same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    keys = ("home_goals", "away_goals", "outcome", "winner", "home_shootout", "away_shootout")
    return all(a.get(k) == b.get(k) for k in keys)


def _hold(session: Session, m: Message, reason: str, now: datetime) -> Outcome:
    assert m.match is not None and m.seq is not None
    _insert(session, Conflict.__table__, {"match_id": m.match, "court": m.court, "seq": m.seq,
                                          "payload": m.payload, "reason": reason, "message_id": m.id,
                                          "received_at": now}, ["message_id"])
    return Outcome("conflict", reason, ack=("result", m.seq), error=True)


def _result(store: Store, session: Session, m: Message, now: datetime,
            fixtures: dict[str, Fixture] | None = None) -> Outcome:
    assert m.match is not None and m.seq is not None and m.court is not None
    f = _fixture(session, m, fixtures)
    have = through(session, m.match)
    if have < m.seq:
        return Outcome("waiting", f"match {m.match}: events up to seq {m.seq} not all stored (have {have})")
    engine = replayed_result(store, session, f, m.seq)
    if not _same(engine, m.payload):
        raise Refused(f"court {m.court}, match {m.match}: the result {_score(m.payload)} differs from what its "
                      f"events give ({_score(engine)})")
    stored = session.get(ResultRow, m.match)
    if stored is not None:
        if _same(result_dict(stored), m.payload):
            return Outcome("duplicate", ack=("result", m.seq))
        return _hold(session, m, f"match {m.match} is finished already at {_score(result_dict(stored))} "
                                 f"({stored.source}); {_score(m.payload)} from court {m.court} waits for the "
                                 f"organiser", now)
    if m.payload["outcome"] == "abandoned":
        return _hold(session, m, f"match {m.match} was abandoned: the organiser decides its result", now)
    try:
        row = result_row(store, session, m.match, m.payload, source="table", court=m.court, seq=m.seq)
    except UnknownTeams as err:
        return Outcome("waiting", str(err))
    values = {c.name: getattr(row, c.name) for c in ResultRow.__table__.columns}
    if not _insert(session, ResultRow.__table__, values, ["match_id"]):
        # Another instance stored it between our read and our write: judge against that one.
        session.expire_all()
        return _result(store, session, m, now)
    session.flush()
    # A first-round pool's result changes only its court's schedule until the pool is complete (then the
    # later stages' teams resolve); a later stage's result may decide who plays where: every court.
    first_round = f.stage in store.plan.entry_teams
    return Outcome("stored", ack=("result", m.seq), pools={f.stage} if store.plan.tournament.pool(f.stage) else set(),
                   courts={m.court}, all_courts=not first_round or _pool_complete(store, session, f.stage))


def _pool_complete(store: Store, session: Session, stage: str) -> bool:
    played = session.scalar(select(func.count()).select_from(ResultRow).where(ResultRow.stage == stage)) or 0
    return played >= sum(1 for m in store.plan.fixtures.values() if m.stage == stage)


def _score(r: dict[str, Any]) -> str:
    text = f"{r.get('home_goals')}-{r.get('away_goals')} ({r.get('outcome')}"
    if r.get("home_shootout") is not None:
        text += f", shoot-out {r.get('home_shootout')}-{r.get('away_shootout')}"
    return text + ")"


def _presence(store: Store, session: Session, m: Message, now: datetime) -> Outcome:
    assert m.court is not None
    if m.court not in store.plan.courts:
        raise Refused(f"there is no court {m.court!r} in this tournament")
    state = m.payload["state"]
    if not _insert(session, Presence.__table__, {"court": m.court, "state": state, "since": now}, ["court"]):
        row = session.get(Presence, m.court)
        if row is not None and row.state != state:
            row.state, row.since = state, now
    return Outcome("noted", courts={m.court})


def _live(store: Store, session: Session, m: Message, now: datetime) -> Outcome:
    assert m.court is not None
    if m.court not in store.plan.courts:
        raise Refused(f"there is no court {m.court!r} in this tournament")
    values = {"court": m.court, "match_id": m.match, "state": m.payload, "updated_at": now}
    if not _insert(session, Live.__table__, values, ["court"]):
        row = session.get(Live, m.court)
        if row is not None:
            row.match_id, row.state, row.updated_at = m.match, m.payload, now
    return Outcome("noted", courts={m.court})


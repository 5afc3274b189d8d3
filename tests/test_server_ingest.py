"""What a table's message changes in the store, on SQLite and PostgreSQL: a court's newer live state and presence
replace the stored ones, and an event another instance stored first at the same seq stands."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import select

from rules import protocol as p
from rules.live import live_payload
from rules.match import ClockStarted, Match
from rules.ruleset import load_ruleset
from server import queries
from server.db.models import EventRow
from server.ingest import Outcome, fixtures_of, ingest
from server.store import Store

RULES = load_ruleset("indoor-hockey")
START = datetime(2026, 5, 16, 9, 0, tzinfo=UTC)


def stored(store: Store, m: p.Message, at: datetime) -> Outcome:
    """``m`` ingested in a transaction of its own, as a batch of one."""
    with store.session.begin() as s:
        return ingest(store, s, m, at, fixtures_of(s, store))


def live(clock_at: int) -> p.Message:
    match = Match(RULES)
    match.apply(ClockStarted(at=0))
    payload = live_payload(match.state_at(clock_at), RULES, "1")
    return p.build(id=uuid.uuid4().hex, type="live", court="hall-1", match="1", payload=payload)


def event(seq: int, body: dict[str, Any]) -> p.Message:
    return p.event_message(id=uuid.uuid4().hex, court="hall-1", match="1", event={"v": 2, "seq": seq, **body})


def test_a_courts_newer_live_state_replaces_the_one_stored(store: Store) -> None:
    """The pages of an instance that did not hear the court's state themselves (one that started later, or whose
    broker connection was down) read it from the store."""
    assert stored(store, live(1000), START).status == "noted"
    assert stored(store, live(5000), START + timedelta(seconds=1)).status == "noted"
    kept = queries.live_states(store)["hall-1"]
    assert kept.live.board.clock_ms == RULES.match.period_length - 5000
    assert kept.updated_at.replace(tzinfo=UTC) == START + timedelta(seconds=1)


def test_a_court_that_goes_offline_is_stored_offline_and_online_again_when_it_is_back(store: Store) -> None:
    def state() -> str:
        return next(c.state for c in queries.court_presence(store) if c.court == "hall-1")

    for n, online in enumerate((True, False, True)):
        m = p.presence_message(id=uuid.uuid4().hex, court="hall-1", online=online)
        assert stored(store, m, START + timedelta(seconds=n)).status == "noted"
        assert state() == ("online" if online else "offline")


def test_an_event_another_instance_stored_first_at_the_same_seq_stands(store: Store, db_url: str) -> None:
    """Two instances share a court's messages. This one knows the match up to seq 1; the other stores seq 2, and
    then this one is sent a different seq 2: the first stored stands, and the same one again is a duplicate."""
    assert stored(store, event(1, {"at": 0, "type": "clock_started"}), START).status == "stored"
    goal = {"at": 1000, "type": "goal", "team": "home"}
    other = Store.open(db_url, store.plan)
    try:
        assert stored(other, event(2, goal), START).status == "stored"
    finally:
        other.close()
    refused = stored(store, event(2, {"at": 1000, "type": "goal", "team": "away"}), START)
    assert refused.status == "refused" and "stored already as a different event (goal)" in refused.reason
    assert stored(store, event(2, goal), START).status == "duplicate"
    with store.session() as s:
        assert [b["team"] for b in s.scalars(select(EventRow.body).where(EventRow.seq == 2))] == ["home"]

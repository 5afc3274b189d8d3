"""The service's memory of open matches: kept while a match is played, forgotten once its result is stored,
and read back from the database for whatever comes later (a resent result, a card after the final whistle)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from rules import protocol as p
from server.db.models import Conflict, EventRow, ResultRow
from server.openmatches import OpenMatches
from server.plan import load_plan
from server.service import Service
from server.store import Store
from tests.service_support import HOCKEY, RULES, played

EVENTS = "courtside/v2/indoor-hockey/court/hall-1/events"
RESULT = "courtside/v2/indoor-hockey/court/hall-1/result"


@pytest.fixture
def service(tmp_path: Path) -> Iterator[Service]:
    store = Store.open(f"sqlite:///{tmp_path / 'memory.db'}", load_plan(HOCKEY))
    s = Service(store, "mqtt://127.0.0.1:9")  # never connected: what it would publish stays queued in paho
    yield s
    store.close()


def _send(service: Service, *messages: tuple[str, p.Message]) -> None:
    service._messages([(topic, p.encode(m)) for topic, m in messages], set(), set())


def _event(n: int, body: dict[str, Any]) -> tuple[str, p.Message]:
    return EVENTS, p.event_message(id=f"e{n}-{body['seq']}", court="hall-1", match="1", event=body)


def _result(seq: int, result: dict[str, Any], id: str) -> tuple[str, p.Message]:
    return RESULT, p.result_message(id=id, court="hall-1", match="1", seq=seq, result=result)


def _count(service: Service, table: Any) -> int:
    with service.store.session() as s:
        return s.scalar(select(func.count()).select_from(table)) or 0


def test_a_match_is_remembered_while_played_and_forgotten_once_its_result_is_stored(service: Service) -> None:
    events, result = played(RULES, 2, 1)
    _send(service, *[_event(1, e) for e in events[:-1]])
    assert len(service.store.matches) == 1  # open: its events are known, its engine follows them
    _send(service, _event(1, events[-1]), _result(events[-1]["seq"], result, "r1"))
    assert service.counts["stored"] == len(events) + 1
    assert len(service.store.matches) == 0


def test_a_resent_result_after_it_was_forgotten_is_a_duplicate_and_one_its_events_do_not_give_refused(
        service: Service) -> None:
    events, result = played(RULES, 2, 1)
    seq = events[-1]["seq"]
    _send(service, *[_event(1, e) for e in events], _result(seq, result, "r1"))
    # The table's ack was lost: the result comes again, checked against the events read back from the database.
    _send(service, _result(seq, result, "r2"))
    assert service.counts["duplicate"] == 1 and service.counts["refused"] == 0
    assert _count(service, ResultRow) == 1 and _count(service, Conflict) == 0
    # The engine gives 2-1 for these events: a 3-1 claimed for them is refused, not held.
    _send(service, _result(seq, {**result, "home_goals": 3}, "r3"))
    assert service.counts["refused"] == 1 and _count(service, Conflict) == 0


def test_events_resent_in_one_batch_with_the_result_are_duplicates_read_back_within_the_batch(
        service: Service) -> None:
    events, result = played(RULES, 1, 1)
    seq = events[-1]["seq"]
    # The result is stored and forgotten mid-batch; the same events again after it in the batch must be read
    # back from the transaction, not taken as unknown (or stored twice).
    _send(service, *[_event(1, e) for e in events], _result(seq, result, "r1"), *[_event(2, e) for e in events])
    assert _count(service, EventRow) == len(events)
    assert service.counts["duplicate"] == len(events)


def test_a_card_entered_after_the_final_whistle_is_stored_for_a_forgotten_match(service: Service) -> None:
    events, result = played(RULES, 0, 0)
    seq = events[-1]["seq"]
    _send(service, *[_event(1, e) for e in events], _result(seq, result, "r1"))
    late = {"v": 2, "seq": seq + 1, "at": events[-1]["at"] + 5000, "type": "penalty_awarded", "team": "home",
            "kind": "red", "player": "7"}
    _send(service, _event(1, late))
    assert _count(service, EventRow) == len(events) + 1
    assert service.counts["refused"] == 0
    assert len(service.store.matches) == 1  # read back to apply the card, open again until something finishes it


def test_finished_forgets_what_was_read_in_this_batch_too() -> None:
    matches = OpenMatches()
    matches._refreshed.add("1")
    matches.finished("1")
    matches.finished("never heard of")  # nothing to forget: no error
    assert "1" not in matches._refreshed and len(matches) == 0

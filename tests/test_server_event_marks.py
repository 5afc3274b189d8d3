"""server/event_marks.py: each match's newest stored event, read from the events stored since the last look."""

from __future__ import annotations

from typing import Any

from sqlalchemy import event

from server.db.models import EventRow
from server.event_marks import EventMarks
from server.store import Store, utcnow


def _store_events(store: Store, *matches: str) -> None:
    with store.session.begin() as s:
        for match_id in matches:
            seq = len(s.query(EventRow).filter(EventRow.match_id == match_id).all()) + 1
            s.add(EventRow(match_id=match_id, court="hall-1", seq=seq, type="clock_started", at=seq * 1000,
                           body={"v": 2, "seq": seq, "at": seq * 1000, "type": "clock_started"},
                           message_id=f"{match_id}-{seq}", received_at=utcnow()))


def _newest(store: Store) -> dict[str, int]:
    with store.session() as s:
        return {m: max(i for i, of in s.query(EventRow.id, EventRow.match_id).all() if of == m)
                for (m,) in s.query(EventRow.match_id).distinct()}


def test_each_look_reads_the_events_stored_since_the_last_and_keeps_every_match_s_newest(store: Store) -> None:
    marks = EventMarks()
    statements: list[str] = []

    def look() -> dict[str, int]:
        def seen(_c: Any, _cursor: Any, statement: str, *_a: Any) -> None:
            statements.append(statement)

        event.listen(store.engine, "before_cursor_execute", seen)
        try:
            with store.engine.connect() as c:
                return marks.read(c)
        finally:
            event.remove(store.engine, "before_cursor_execute", seen)

    assert look() == {}
    _store_events(store, "1", "1", "2")
    assert look() == _newest(store)
    _store_events(store, "2", "3")
    found = look()
    assert found == _newest(store) and set(found) == {"1", "2", "3"}
    assert look() == found  # nothing new
    assert marks.last("2") == found["2"] and marks.last("4") == 0
    # The first look groups the whole table; the others read the range above the last id seen, never grouped.
    assert len(statements) == 4 and "GROUP BY" in statements[0]
    assert all("GROUP BY" not in s and "events.id >" in s for s in statements[1:])
    # A reader that starts late (a service started during the day) reads the day at once.
    with store.engine.connect() as c:
        assert EventMarks().read(c) == found

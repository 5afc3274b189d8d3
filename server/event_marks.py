"""Each match's newest stored event, kept up to date by reading only the events stored since the last look.

The events table only grows (a resend is never stored twice, nothing is deleted). The first look reads each
match's newest event, grouped in the database; every later one reads the primary key's range above the last id
seen. Grouped, that range scanned the whole match_id index on SQLite: a cost that grew with the day's events, about
a millisecond per snapshot at 3,500 results. The timelines (server.timelines) and the schedule's matches under way
(server.queries) read the marks, one look serving both.

An id that commits after a higher one (two instances writing at once, on PostgreSQL) is passed over; the match's
next event is read, with its mark.
"""

from __future__ import annotations

import threading

from sqlalchemy import Connection, bindparam, func, select

from server.db.models import EventRow

_EVERY_MATCH = select(EventRow.match_id, func.max(EventRow.id)).group_by(EventRow.match_id)
_SINCE = select(EventRow.match_id, EventRow.id).where(EventRow.id > bindparam("seen"))


class EventMarks:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._seen: int | None = None  # the highest events.id read; None: nothing read yet
        self._last: dict[str, int] = {}  # match id -> the id of its newest stored event

    def read(self, connection: Connection) -> dict[str, int]:
        """Each match with a stored event, and its newest event's id, as ``connection`` sees them (or newer)."""
        with self._lock:
            seen = self._seen
        rows = connection.execute(_EVERY_MATCH).all() if seen is None else \
            connection.execute(_SINCE, {"seen": seen}).all()
        with self._lock:
            last = self._last
            for match_id, at in rows:
                if at > last.get(match_id, 0):
                    last[match_id] = at
                if self._seen is None or at > self._seen:
                    self._seen = at
            if self._seen is None:
                self._seen = 0  # an empty table read: its range from now on
            return dict(last)

    def known(self) -> dict[str, int]:
        """Each match's newest event's id as last read, without reading: for a reader whose connection read them a
        moment ago (a snapshot's base, then its light part)."""
        with self._lock:
            return dict(self._last)

    def last(self, match_id: str) -> int:
        """The match's newest event's id as last read (0: none), by whichever reader read last."""
        with self._lock:
            return self._last.get(match_id, 0)

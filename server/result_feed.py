"""The stored results, followed: a reader reads only the results written since it last read.

Every transaction that writes a result (a table's, server.ingest; the desk's, server.desk) names it with
:func:`written`; when it commits it stamps those results with the result clock's next revision (:func:`stamp`,
the store's ``before_commit``). A reader (:class:`ResultFeed`) then reads the results stamped above the highest
revision it has, instead of every result of the day after each change.

Why a clock row and not a sequence: the tables' batches on several instances commit in no fixed order, so a
sequence's numbers are not the order their results become visible; a reader that had read 8 could later find 7
committed and never read it. Stamping updates the one clock row, whose lock each writer then holds until it
commits, so a revision is handed out only after every lower one is committed and visible. The stamp is the
transaction's last statement: holding the clock, a writer waits for nothing but its own commit, so the clock
cannot close a cycle of waits with the rows the batch locked before it (PostgreSQL's deadlocks). SQLite has one
writer at a time, which orders the stamps the same way. A result is removed only to be written again in the
same transaction (server.desk), so a reader never has to find one gone.
"""

from __future__ import annotations

import threading
from bisect import bisect_left, insort
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Row, func, select, update
from sqlalchemy.orm import Session

from server.db.models import ResultClock, ResultRow

_WRITTEN = "results_written"  # Session.info key: the match ids whose results the transaction wrote
_TICK = (update(ResultClock).where(ResultClock.id == 1).values(revision=ResultClock.revision + 1)
         .returning(ResultClock.revision))
_STAMP = update(ResultRow)
_TOP = select(func.max(ResultRow.revision))


def written(s: Session, match_id: str) -> None:
    """The transaction of ``s`` wrote (inserted or replaced) the result of ``match_id``."""
    s.info.setdefault(_WRITTEN, set()).add(match_id)


def wrote_results(s: Session) -> bool:
    """Whether the transaction of ``s`` wrote a result it has not committed (and stamped) yet."""
    return bool(s.info.get(_WRITTEN))


def stamp(s: Session) -> None:
    """Stamp the results the committing transaction wrote with the clock's next revision (before_commit)."""
    ids = s.info.pop(_WRITTEN, None)
    if not ids:
        return
    s.flush()  # the desk's row may still be pending: before_commit runs before the commit's own flush
    connection = s.connection()
    revision = connection.execute(_TICK).scalar_one()
    connection.execute(_STAMP.where(ResultRow.match_id.in_(sorted(ids))).values(revision=revision))


def added_since(before: list[Any] | None, now: list[Any]) -> list[Any] | None:
    """The results ``now`` adds to ``before``, both in the order stored (:meth:`ResultFeed.read`), when ``now`` is
    ``before`` followed by new ones, as a new result makes it (it is stored last); None for any other change (a result
    written again, one stored out of order, nothing read before). Compared in C, each row first by identity: a reader
    that keeps what it made of the rows looks at the new ones only."""
    if before is None or len(now) < len(before) or now[:len(before)] != before:
        return None
    return now[len(before):]


@dataclass(frozen=True, slots=True)
class StoredResult:
    """A stored result (the results table's columns) as a plain object: a snapshot reads every result's attributes
    a few times, several times faster than from a database row. The pages' ``queries.ResultView`` is made from it,
    with the winner named by team."""

    match_id: str
    stage: str
    home: str
    away: str
    home_goals: int
    away_goals: int
    outcome: str
    winner: str | None
    home_shootout: int | None
    away_shootout: int | None
    seq: int | None
    court: str | None
    source: str
    recorded_at: datetime
    revision: int


def _order(row: StoredResult) -> tuple[datetime, str]:
    """The order stored, as the standings and the pages list them. An instant as naive UTC: SQLite gives back the
    ones the service wrote without their zone, and one written otherwise (an older tool, by hand) with it."""
    at = row.recorded_at
    return (at if at.tzinfo is None else at.astimezone(UTC).replace(tzinfo=None), row.match_id)


class ResultFeed:
    """Every stored result (:class:`StoredResult`) in the order stored, kept up to date by reading only what was stamped
    since the last read. A row is the same object until its result is written again, so a reader may tell what
    changed by identity."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_match: dict[str, StoredResult] = {}
        self._ordered: list[StoredResult] = []
        self._seen = -1  # the highest revision read; -1: nothing read yet (the results before the clock are at 0)

    def read(self, connection: Connection, top: int | None = None
             ) -> tuple[list[StoredResult], dict[str, StoredResult]] | None:
        """The stored results as ``connection`` sees them, in the order stored, and the same rows by match id
        (copies made in C, which the caller may keep: a snapshot's dict made from the list cost more than the rest of
        its results' reading); or None if it sees an older state than the feed has read: a transaction begun before a
        result it has not seen was committed (the caller reads the table itself then). The feed is never put back: a
        database restored under a running service (not supported: server.backup says to stop it first) is read from
        the table until the service starts again.

        ``top``: the results' top revision as the caller's transaction read it a moment ago (the result clock's last
        stamp, which a result's transaction stamps it with), to spare the read; read again if the feed has read
        further since (another reader's transaction saw a newer result)."""
        with self._lock:
            if top is None or top < self._seen:
                top = connection.scalar(_TOP)
                top = -1 if top is None else top
            if top < self._seen:
                return None
            if top > self._seen:
                self._take(list(connection.execute(
                    select(ResultRow.__table__).where(ResultRow.revision > self._seen))))
            return list(self._ordered), dict(self._by_match)

    def _take(self, fresh: list[Row[Any]]) -> None:
        for read in fresh:
            row = StoredResult(**read._mapping)
            old = self._by_match.get(row.match_id)
            if old is not None:
                del self._ordered[bisect_left(self._ordered, _order(old), key=_order)]
            insort(self._ordered, row, key=_order)
            self._by_match[row.match_id] = row
            self._seen = max(self._seen, row.revision)

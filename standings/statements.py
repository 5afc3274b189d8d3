"""The loop's busiest statements, as the driver's own SQL (sqlite3, psycopg) on the transaction's connection.

Every batch of messages stores events or results, records the courts as heard from, logs each message
and reads the desk's change mark; SQLAlchemy's statement handling (compiling, caching, result set-up)
cost more than the database for each of them: half an event's cost, and most of a small batch's (about
0.6 ms of the 0.7 ms a one-message batch took). Nothing here changes what is stored: instants are kept
as SQLAlchemy's DateTime keeps them (SQLite: ISO text in UTC without the zone; PostgreSQL: timestamptz),
so the ORM reads these rows as it reads its own. The store runs on these two databases only
(standings.db.make_engine).
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import closing
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection

_MARK = {"sqlite": "?", "postgresql": "%s"}


def _sql(template: str) -> dict[str, str]:
    return {dialect: template.replace("{}", mark) for dialect, mark in _MARK.items()}


EVENT = {
    "sqlite": "INSERT INTO events (match_id, court, seq, type, at, body, message_id, received_at) "
              "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (match_id, seq) DO NOTHING",
    "postgresql": "INSERT INTO events (match_id, court, seq, type, at, body, message_id, received_at) "
                  "VALUES (%s, %s, %s, %s, %s, %s::json, %s, %s) ON CONFLICT (match_id, seq) DO NOTHING",
}
RESULT_COLUMNS = ("match_id", "stage", "home", "away", "home_goals", "away_goals", "outcome", "winner",
                  "home_shootout", "away_shootout", "seq", "court", "source", "recorded_at")
RESULT = _sql(f"INSERT INTO results ({', '.join(RESULT_COLUMNS)}) VALUES ({', '.join(['{}'] * 14)}) "
              "ON CONFLICT (match_id) DO NOTHING")
TOUCH = _sql("INSERT INTO presence (court, state, since, last_message_at, last_type, last_match) "
             "VALUES ({}, 'online', {}, {}, {}, {}) ON CONFLICT (court) DO UPDATE SET "
             "last_message_at = excluded.last_message_at, last_type = excluded.last_type, "
             "last_match = COALESCE(excluded.last_match, presence.last_match)")
LOG_COLUMNS = ("received_at", "topic", "message_id", "court", "match_id", "seq", "type", "status", "reason")
LOG = _sql(f"INSERT INTO message_log ({', '.join(LOG_COLUMNS)}) VALUES ({', '.join(['{}'] * 9)})")
CHANGE_MARK = "SELECT max(id) FROM changes"
# "IN ({in})" takes one mark per value (rows_in).
RESULTS_OF = ("SELECT match_id, stage, source, home_goals, away_goals, outcome, winner, home_shootout, away_shootout "
              "FROM results WHERE match_id IN ({in})")
PLAYED_IN = "SELECT stage, count(*) AS played FROM results WHERE stage IN ({in}) GROUP BY stage"


def instant(connection: Connection, at: datetime) -> Any:
    """``at`` as SQLAlchemy's DateTime(timezone=True) stores it on this connection's database."""
    if connection.dialect.name == "sqlite":
        return at.astimezone(UTC).replace(tzinfo=None).isoformat(" ", "microseconds")
    return at


def execute(connection: Connection, sql: dict[str, str], params: Sequence[Any] = ()) -> int:
    """Run one statement on the transaction's driver connection; its row count."""
    with closing(connection.connection.cursor()) as cursor:
        cursor.execute(sql[connection.dialect.name], params)
        return int(cursor.rowcount)


def execute_many(connection: Connection, sql: dict[str, str], rows: Sequence[Sequence[Any]]) -> None:
    with closing(connection.connection.cursor()) as cursor:
        cursor.executemany(sql[connection.dialect.name], rows)


def scalar(connection: Connection, sql: str) -> Any:
    with closing(connection.connection.cursor()) as cursor:
        cursor.execute(sql)
        row = cursor.fetchone()
        return None if row is None else row[0]


def rows_in(connection: Connection, sql: str, values: Sequence[Any]) -> list[dict[str, Any]]:
    """The rows of ``sql`` with its ``{in}`` standing for ``values``, each row as a dict by column name."""
    with closing(connection.connection.cursor()) as cursor:
        cursor.execute(sql.replace("{in}", ", ".join([_MARK[connection.dialect.name]] * len(values))), tuple(values))
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]

"""The service's data layer: SQLite by default (one file, WAL), PostgreSQL via postgresql+psycopg:// URLs.

``open_database(url)`` makes the engine and runs the Alembic migrations shipped in
``server/db/migrations`` (an up-to-date database is left as it is).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine, create_engine, event

from server.db import models
from server.db.migrate import upgrade


def normalise_url(url: str) -> str:
    """``postgresql://`` and ``postgres://`` mean psycopg 3; a bare path means an SQLite file."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    if "://" not in url:
        return f"sqlite:///{url}"
    return url


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    # WAL lets the web pages read while the loop writes; NORMAL is durable across a process crash.
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


def make_engine(url: str) -> Engine:
    url = normalise_url(url)
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(url, pool_pre_ping=True)


def open_database(url: str) -> Engine:
    engine = make_engine(url)
    upgrade(engine)
    return engine


__all__ = ["make_engine", "models", "normalise_url", "open_database", "upgrade"]

"""A fresh PostgreSQL database for a benchmark on 127.0.0.1:5432 (trust auth), dropped when it is done."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Iterator

PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"


@contextlib.contextmanager
def fresh_database(prefix: str) -> Iterator[str]:
    """A new database named after ``prefix``, its SQLAlchemy URL; dropped afterwards, its connections closed."""
    import psycopg

    name = f"{prefix}_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

"""A consistent copy of the service's database, and putting one back.

SQLite: the library's online backup (``sqlite3.Connection.backup``), page by page under its own read
transaction, so the running service may go on writing meanwhile and the copy is one moment of it.
PostgreSQL: ``pg_dump`` in its custom format (one snapshot), and ``pg_restore --clean`` into the database.

A restore puts the database back as it was at the backup: what came after it is gone from the database,
not from the tables. Stop the service, restore, start it again: when each court's table comes online (or
the service reads its retained presence at start) the service tells it what it holds of each match
(``held``), and the table sends again from its journal every event and result the database lacks.
"""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
from pathlib import Path

from sqlalchemy.engine import make_url

from rules import CourtsideError
from server.db import normalise_url


class BackupError(CourtsideError, RuntimeError):
    """The backup or the restore could not be made; the message says why (a restore changed nothing then)."""


def backup(db: str, out: Path) -> Path:
    """Copy the database ``db`` (a path, an SQLite URL or postgresql://) to the file ``out``."""
    url = make_url(normalise_url(db))
    if url.get_backend_name() == "sqlite":
        source = _sqlite_file(url.database, must_exist=True)
        tmp = out.with_name(out.name + ".tmp")
        tmp.unlink(missing_ok=True)
        with sqlite3.connect(source) as src, sqlite3.connect(tmp) as dst:
            src.backup(dst)
        tmp.replace(out)
        return out
    _run([_tool("pg_dump"), "--format=custom", f"--file={out}", _libpq(db)], "pg_dump")
    return out


def restore(db: str, source: Path) -> None:
    """Put the backup ``source`` back into the database ``db``; the service must be stopped meanwhile."""
    if not source.is_file():
        raise BackupError(f"{source}: no such backup file")
    url = make_url(normalise_url(db))
    if url.get_backend_name() == "sqlite":
        target = _sqlite_file(url.database, must_exist=False)
        with sqlite3.connect(source) as src:
            try:
                sound = src.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            except sqlite3.DatabaseError:
                sound = False
            if not sound:
                raise BackupError(f"{source}: not a sound SQLite database; nothing was restored")
            with sqlite3.connect(target) as dst:
                src.backup(dst)
        return
    _run([_tool("pg_restore"), "--clean", "--if-exists", "--no-owner", "--single-transaction",
          f"--dbname={_libpq(db)}", str(source)], "pg_restore")


def _sqlite_file(database: str | None, *, must_exist: bool) -> str:
    if not database or database == ":memory:":
        raise BackupError("an in-memory SQLite database has nothing to back up or restore")
    if must_exist and not Path(database).is_file():
        raise BackupError(f"{database}: no such database file")
    return database


def _libpq(db: str) -> str:
    """The URL as libpq's tools take it (no SQLAlchemy driver name)."""
    return make_url(normalise_url(db)).set(drivername="postgresql").render_as_string(hide_password=False)


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise BackupError(f"{name} is not installed (Debian's postgresql-client has it)")
    return found


def _run(argv: list[str], name: str) -> None:
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise BackupError(f"{name} failed: {done.stderr.strip()[-500:]}")

"""Bring a database to the newest schema with the Alembic migrations shipped in this package.

Run at every start of the service (and by the tests): an up-to-date database is left as it is.
On PostgreSQL an advisory lock keeps two instances starting together from migrating at once.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Engine, func, select

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
_LOCK = 0x636F7572  # "cour": the advisory lock's key on PostgreSQL


def alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def upgrade(engine: Engine, revision: str = "head") -> None:
    config = alembic_config()
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(select(func.pg_advisory_xact_lock(_LOCK)))
        config.attributes["connection"] = connection
        command.upgrade(config, revision)


def current(engine: Engine) -> str | None:
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()

"""Alembic's environment for the service's schema: run by server.db.migrate with a live connection."""

from __future__ import annotations

from alembic import context

from server.db.models import Base

connection = context.config.attributes.get("connection")
if connection is None:  # `alembic revision --autogenerate` run by hand against a URL
    from sqlalchemy import create_engine

    connection = create_engine(context.config.get_main_option("sqlalchemy.url") or "sqlite://").connect()

context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()

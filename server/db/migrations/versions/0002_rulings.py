"""the organiser's rulings on reported cards (web_rulings) become one of the migrated tables

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-03 16:00:00

The desk made this table itself on first use (create_all): a database that has it already keeps it and its rows.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if sa.inspect(op.get_bind()).has_table("web_rulings"):
        return
    op.create_table(
        "web_rulings",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("team", sa.String(length=128), nullable=False),
        sa.Column("player", sa.String(length=64), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("who", sa.String(length=64), nullable=False),
        sa.Column("why", sa.Text(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )


def downgrade() -> None:
    op.drop_table("web_rulings")

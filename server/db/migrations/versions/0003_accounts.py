"""the desk's accounts (web_accounts) become one of the migrated tables

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-03 16:45:00

The desk made this table itself on first use (create_all): a database that has it already keeps it and its rows.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if sa.inspect(op.get_bind()).has_table("web_accounts"):
        return
    op.create_table(
        "web_accounts",
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("password_hash", sa.String(length=255), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )


def downgrade() -> None:
    op.drop_table("web_accounts")

"""desk sessions and the login form's key in the database (web_sessions, web_secrets); accounts get a role

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-05 02:00:00

Sessions lived in one process's memory and the login form's key was made per process, so behind a front
that spreads requests over several instances most logins and desk pages failed (issue 31). Accounts made
before roles keep doing everything: their role is "organiser".
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("web_accounts", sa.Column("role", sa.String(length=16), nullable=False,
                                            server_default="organiser"))
    op.create_table(
        "web_sessions",
        sa.Column("token_digest", sa.String(length=64), nullable=False),
        sa.Column("account", sa.String(length=64), nullable=False),
        sa.Column("csrf", sa.String(length=64), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("token_digest"),
    )
    op.create_index("ix_web_sessions_account", "web_sessions", ["account"])
    op.create_index("ix_web_sessions_expires", "web_sessions", ["expires"])
    op.create_table(
        "web_secrets",
        sa.Column("name", sa.String(length=32), nullable=False),
        sa.Column("value", sa.String(length=128), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )


def downgrade() -> None:
    op.drop_table("web_secrets")
    op.drop_index("ix_web_sessions_expires", "web_sessions")
    op.drop_index("ix_web_sessions_account", "web_sessions")
    op.drop_table("web_sessions")
    with op.batch_alter_table("web_accounts") as batch:
        batch.drop_column("role")

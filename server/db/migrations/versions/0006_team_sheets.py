"""a team's sheet as the desk changed it (team_sheets): issue 33's team sheets, changeable before a team's match

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-06 05:10:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "team_sheets",
        sa.Column("team", sa.String(length=128), nullable=False),
        sa.Column("sheet", sa.Text(), nullable=False),
        sa.Column("who", sa.String(length=64), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("team"),
    )


def downgrade() -> None:
    op.drop_table("team_sheets")

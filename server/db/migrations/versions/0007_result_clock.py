"""the result clock: each stored result stamped with the revision its write committed at (server.result_feed)

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-06 14:00:00

Issue 32: the pages read every stored result again after each change, a cost that grew with the day. A result
written now carries the revision of its transaction, so a reader reads only those stamped since it last read.
The results stored before this revision are all at revision 0, which a reader's first read takes in.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("results") as batch:
        batch.add_column(sa.Column("revision", sa.BigInteger(), nullable=False, server_default="0"))
        batch.create_index("ix_results_revision", ["revision"])
    op.create_table(
        "result_clock",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("revision", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.execute("INSERT INTO result_clock (id, revision) VALUES (1, 0)")


def downgrade() -> None:
    op.drop_table("result_clock")
    with op.batch_alter_table("results") as batch:
        batch.drop_index("ix_results_revision")
        batch.drop_column("revision")

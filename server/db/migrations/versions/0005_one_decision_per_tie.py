"""one decision per tie: decisions get the tie they order (its teams, as a digest), unique in its pool

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-05 22:00:00

Two organisers deciding one tie at once were both stored (issue 31); the desk now refuses the second in its
transaction, and the database backs that rule. A database written before this revision may already hold two
decisions for one tie: the first keeps the tie's key, a later one gets its row id after it (kept, as stored,
for the organiser to see) so the constraint can hold.
"""

from __future__ import annotations

import hashlib
import json

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def _tie(order: list[str]) -> str:
    """As server.desk.tie_key (a migration keeps its own copy: the application's may change later)."""
    return hashlib.blake2b("\n".join(sorted(order)).encode(), digest_size=12).hexdigest()


def upgrade() -> None:
    with op.batch_alter_table("decisions") as batch:
        batch.add_column(sa.Column("tie", sa.String(length=40), nullable=True))
    conn = op.get_bind()
    seen: set[tuple[str, str]] = set()
    for id_, pool, order in conn.execute(sa.text("SELECT id, pool, \"order\" FROM decisions ORDER BY id")):
        key = _tie(order if isinstance(order, list) else json.loads(order))
        tie = key if (pool, key) not in seen else f"{key}#{id_}"
        seen.add((pool, key))
        conn.execute(sa.text("UPDATE decisions SET tie = :tie WHERE id = :id"), {"tie": tie, "id": id_})
    with op.batch_alter_table("decisions") as batch:
        batch.alter_column("tie", existing_type=sa.String(length=40), nullable=False)
        batch.create_unique_constraint("uq_decisions_pool_tie", ["pool", "tie"])


def downgrade() -> None:
    with op.batch_alter_table("decisions") as batch:
        batch.drop_constraint("uq_decisions_pool_tie", type_="unique")
        batch.drop_column("tie")

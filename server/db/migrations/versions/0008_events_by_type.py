"""the events by their type (ix_events_type_match): the pages find the matches with a card without reading every
event of the day

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-06 16:50:00
"""

from __future__ import annotations

from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_events_type_match", "events", ["type", "match_id"])


def downgrade() -> None:
    op.drop_index("ix_events_type_match", table_name="events")

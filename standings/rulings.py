"""The organiser's rulings on reported cards, in a table of their own (``web_rulings``: the desk wrote them
first) beside the service's, so a ruling survives a restart like every other change. The desk writes
them; the service reads them too, for the suspensions it publishes in the courts' schedules."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import Column, DateTime, Engine, Integer, MetaData, String, Table, Text, insert, select

from standings.discipline import Ruling

metadata = MetaData()  # not the service's own (Alembic) tables: created on first use, like the desk's accounts

rulings = Table(
    "web_rulings",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("number", Integer, nullable=False),
    Column("team", String(128), nullable=False),
    Column("player", String(64), nullable=False),
    Column("matches", Integer, nullable=False),
    Column("who", String(64), nullable=False),
    Column("why", Text, nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
)


class Rulings:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        metadata.create_all(engine, tables=[rulings])

    def add(self, *, number: int, team: str, player: str, matches: int, who: str, why: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(rulings).values(number=number, team=team, player=player, matches=matches, who=who,
                                                why=why, at=datetime.now(UTC)))

    def all(self) -> list[Ruling]:
        """Every ruling, oldest first (a later ruling on the same card replaces the earlier)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(rulings).order_by(rulings.c.id))
            return [Ruling(number=r.number, team=r.team, player=r.player, matches=r.matches, who=r.who, why=r.why,
                           at=r.at) for r in rows]

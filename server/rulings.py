"""The organiser's rulings on reported cards (``web_rulings``, server.db.models.RulingRow), so a ruling
survives a restart like every other change. The desk writes them; the service reads them too, for the
suspensions it publishes in the courts' schedules."""

from __future__ import annotations

from contextlib import nullcontext
from datetime import UTC, datetime

from sqlalchemy import Connection, Engine, insert, select
from sqlalchemy.orm import Session

from server.db.models import RulingRow
from server.discipline import Ruling


class Rulings:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def add(self, *, number: int, team: str, player: str, matches: int, who: str, why: str) -> None:
        with Session(self.engine) as s, s.begin():
            self.put(s, number=number, team=team, player=player, matches=matches, who=who, why=why)

    @staticmethod
    def put(s: Session, *, number: int, team: str, player: str, matches: int, who: str, why: str) -> None:
        """:meth:`add` inside a desk write's transaction (server.desk.writing)."""
        s.execute(insert(RulingRow).values(number=number, team=team, player=player, matches=matches, who=who,
                                           why=why, at=datetime.now(UTC)))

    def all(self, connection: Connection | None = None) -> list[Ruling]:
        """Every ruling, oldest first (a later ruling on the same card replaces the earlier); read on
        ``connection`` if given."""
        with nullcontext(connection) if connection is not None else self.engine.connect() as conn:
            rows = conn.execute(select(RulingRow.__table__).order_by(RulingRow.id))
            return [Ruling(number=r.number, team=r.team, player=r.player, matches=r.matches, who=r.who, why=r.why,
                           at=r.at) for r in rows]

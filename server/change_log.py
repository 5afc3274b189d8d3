"""The desk's change log as the pages show it, followed: read whole once, then only the changes added since.

Every change is written by a desk write, one at a time under the desk's lock (server.desk.writing; SQLite has one
writer at a time by itself), so their ids are committed in order and a change with an id at or below the last one
read can no longer appear. The log only grows. A snapshot of the pages after a desk write read the newest 200
changes again (about a tenth of it at a big cup), and who entered each organiser's result was found only among
those 200: past them, a result entered early in the day lost its "entered by".
"""

from __future__ import annotations

from contextlib import nullcontext

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from server.db.models import Change
from server.queries import ChangeView, change_view
from server.store import Store

RECENT = 200
"""How many of the newest changes the pages' audit list shows."""

_AFTER = select(Change).where(Change.id > bindparam("after")).order_by(Change.id)


class ChangeLog:
    """The newest changes (:attr:`recent`, newest first) and, per match, the newest change of its result
    (:attr:`entered`); :meth:`catch_up` reads what was added since."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.through = 0  # the id of the last change read
        self._recent: list[ChangeView] = []  # oldest first, at most RECENT
        self.entered: dict[str, ChangeView] = {}

    @property
    def recent(self) -> list[ChangeView]:
        return self._recent[::-1]

    def catch_up(self, session: Session | None = None) -> bool:
        """Read the changes added since the last call (in ``session`` if given); whether there were any."""
        with nullcontext(session) if session is not None else self.store.session() as s:
            new = [change_view(c) for c in s.scalars(_AFTER, {"after": self.through})]
        for c in new:
            if c.action == "result" and c.match_id is not None:
                self.entered[c.match_id] = c
        if new:
            self.through = new[-1].id
            self._recent = [*self._recent, *new][-RECENT:]
        return bool(new)

"""The service's memory of each match's stored events and its live engine Match (rebuilt from the DB lazily).

Checking a result means replaying the match's events with the engine. Reading them back from the
database and replaying them from the start for every result was most of the cost of a result, so
the loop keeps, per match it has heard of: the event bodies known to be stored (stored events are
never changed or deleted, so a body once known stays right), the last seq with none missing before
it, and a Match that has applied events 1..applied as they came in. A result whose seq the live
Match has reached is checked with no database read and no replay.

What memory knows is a lower bound of what is stored: another instance (shared subscriptions) may
store events this one never sees. Whenever that matters (an event past a gap, a result past what is
known) :meth:`OpenMatches.refresh` reads the match's missing events from the database, at most once
per batch. After a restart the memory is empty and fills from the database on first use. If a
transaction fails, :meth:`OpenMatches.clear` forgets everything, since what it added was not committed.

Only open matches are kept: once a match's result is stored, :meth:`OpenMatches.finished` forgets it.
A late message for it (a resent result, a card entered after the final whistle) reads it back from the
database. Kept all day, a venue's every match (its events and its engine's records) made each of the
collector's full passes longer, and every batch paid for them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from rules import (
    RUN_OUT_MS,
    EventLogError,
    IllegalCommand,
    Match,
    Result,
    Ruleset,
    StageKind,
    event_from_dict,
    result_of,
)
from server.db.models import EventRow

# Built once with bound parameters: a statement built per call, with its ids as literals, was compiled again
# every time (a third of a millisecond, most of a one-message batch's cost).
_EVENTS_OF = (select(EventRow.match_id, EventRow.seq, EventRow.body)
              .where(EventRow.match_id.in_(bindparam("ids", expanding=True))))
_EVENTS_AFTER = (select(EventRow.seq, EventRow.body)
                 .where(EventRow.match_id == bindparam("match"), EventRow.seq > bindparam("after")))


class ReplayFailed(ValueError):
    """The match's stored events do not replay (the reason is the engine's)."""


@dataclass
class OpenMatch:
    match_id: str
    kind: StageKind
    round: str
    bodies: dict[int, dict[str, Any]] = field(default_factory=dict)
    through: int = 0  # the last seq known stored with none missing before it
    live: Match | None = None  # has applied events 1..applied
    applied: int = 0
    broken: bool = False  # an event did not apply: results are judged by a full replay (which names why)

    def add(self, seq: int, body: dict[str, Any]) -> None:
        self.bodies.setdefault(seq, body)
        while self.through + 1 in self.bodies:
            self.through += 1

    def catch_up(self, ruleset: Ruleset, upto: int) -> None:
        """Apply the known events up to ``upto`` to the live Match (an event the engine refuses breaks it)."""
        if self.broken:
            return
        if self.live is None:
            self.live, self.applied = Match(ruleset, stage=self.kind, round=self.round), 0
        while self.applied < min(upto, self.through):
            seq = self.applied + 1
            try:
                self.live.apply(event_from_dict(self.bodies[seq], f"match {self.match_id}"))
            except (EventLogError, IllegalCommand):
                self.broken, self.live = True, None
                return
            self.applied = seq

    def result_at(self, ruleset: Ruleset, seq: int) -> Result | None:
        """What the engine gives for events 1..seq (None if they do not finish the match); needs through >= seq."""
        self.catch_up(ruleset, seq)
        if self.live is not None and self.applied == seq:
            match = self.live
        else:  # the live Match is past seq (a result for an earlier point) or broken: replay 1..seq alone
            try:
                events = [event_from_dict(self.bodies[n], f"match {self.match_id}") for n in range(1, seq + 1)]
                match = Match.replay(ruleset, events, stage=self.kind, round=self.round)
            except (EventLogError, IllegalCommand) as err:
                raise ReplayFailed(str(err)) from None
        outcome = match.result(match.last_at + RUN_OUT_MS)
        return None if outcome is None else result_of(outcome)


class OpenMatches:
    """Per match id, what this process knows is stored; owned by the service's loop thread."""

    def __init__(self) -> None:
        self._matches: dict[str, OpenMatch] = {}
        self._refreshed: set[str] = set()  # matches re-read from the database in the current batch

    def prefetch(self, session: Session, matches: Iterable[tuple[str, str, str]]) -> None:
        """Load the stored events of the (match id, kind, round) not known yet in one read (a batch's new
        matches: one query per match was most of the cost of a first event)."""
        new = {m: OpenMatch(m, "round_robin" if kind == "round_robin" else "knockout", round)
               for m, kind, round in matches if m not in self._matches}
        if not new:
            return
        for match_id, seq, body in session.connection().execute(_EVENTS_OF, {"ids": sorted(new)}):
            new[match_id].add(seq, body)
        self._matches.update(new)
        self._refreshed.update(new)

    def get(self, session: Session, match_id: str, kind: str, round: str) -> OpenMatch:
        om = self._matches.get(match_id)
        if om is None:
            om = OpenMatch(match_id, "round_robin" if kind == "round_robin" else "knockout", round)
            self._matches[match_id] = om
            self.refresh(session, om)
        return om

    def refresh(self, session: Session, om: OpenMatch, *, again: bool = False) -> None:
        """Read the match's stored events this process does not know yet (once per batch unless ``again``)."""
        if om.match_id in self._refreshed and not again:
            return
        self._refreshed.add(om.match_id)
        # The events past what is known with none missing (a gap's later events may be known already).
        for seq, body in session.connection().execute(_EVENTS_AFTER, {"match": om.match_id, "after": om.through}):
            om.add(seq, body)

    def finished(self, match_id: str) -> None:
        """The match's result is stored: forget it (read back from the database if it is ever asked for)."""
        self._matches.pop(match_id, None)
        self._refreshed.discard(match_id)  # asked for again in this batch, it must be read, not taken as known

    def __len__(self) -> int:
        return len(self._matches)

    def new_batch(self) -> None:
        self._refreshed.clear()

    def clear(self) -> None:
        self._matches.clear()
        self._refreshed.clear()

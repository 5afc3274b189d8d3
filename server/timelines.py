"""Each match's timeline (rules.match.timeline) from its stored events, worked out again only when they changed.

An open match page is rendered again for every snapshot while its match is played; reading and replaying its log
each time would cost a query and a replay per page per live state. The events table only grows (a resend is
never stored twice, nothing is deleted), so the matches with new events since the last look are one read of the
primary key's end: only their timelines are worked out again, when a page asks.
"""

from __future__ import annotations

import threading
from contextlib import suppress

from sqlalchemy import bindparam, func, select

from rules import CourtsideError, MatchTimeline, Ruleset, StageKind, match_timeline
from server import queries
from server.db.models import EventRow
from server.store import Store

_NEW_EVENTS = (select(EventRow.match_id, func.max(EventRow.id)).where(EventRow.id > bindparam("seen"))
               .group_by(EventRow.match_id))


class Timelines:
    def __init__(self, store: Store) -> None:
        self.store = store
        self._lock = threading.Lock()
        self._seen = 0  # the last events.id looked at
        self._last: dict[str, int] = {}  # match id -> the id of its newest stored event
        self._kept: dict[str, tuple[int, MatchTimeline | None]] = {}  # match id -> (that id then, its timeline)

    def catch_up(self) -> None:
        """Note which matches have new events (a snapshot does, once, before its pages ask)."""
        with self.store.engine.connect() as c:
            rows = c.execute(_NEW_EVENTS, {"seen": self._seen}).all()
        with self._lock:
            for match_id, last in rows:
                self._last[match_id] = max(self._last.get(match_id, 0), int(last))
                self._seen = max(self._seen, int(last))

    def marks(self) -> dict[str, int]:
        """Each match's newest stored event's id as last caught up: a timeline is the same while its mark is."""
        with self._lock:
            return dict(self._last)

    def of(self, match_id: str, ruleset: Ruleset, stage: StageKind, round: str) -> MatchTimeline | None:
        """The match's timeline as its stored events tell it; None before its first event, or if they do not
        replay (the service stores only what replays: an older version's log)."""
        with self._lock:
            last = self._last.get(match_id, 0)
            kept = self._kept.get(match_id)
        if kept is not None and kept[0] == last:
            return kept[1]
        made = None
        # A log this version cannot read stays None until its next event: the page says it has none to show.
        with suppress(CourtsideError):
            made = match_timeline(ruleset, queries.stored_events(self.store, match_id), stage=stage,
                                  round=round) if last else None
        with self._lock:
            self._kept[match_id] = (last, made)
        return made

"""Each match's timeline (rules.match.timeline) from its stored events, worked out again only when they changed.

An open match page is rendered again for every snapshot while its match is played; reading and replaying its log
each time would cost a query and a replay per page per live state. The events table only grows (a resend is
never stored twice, nothing is deleted), so the matches with new events since the last look are read from the
store's marks (server.event_marks): only their timelines are worked out again, when a page asks.
"""

from __future__ import annotations

import threading
from contextlib import suppress

from sqlalchemy import Connection
from sqlalchemy.orm import Session

from rules import CourtsideError, MatchTimeline, Ruleset, StageKind, match_timeline
from server import queries
from server.store import Store


class Timelines:
    def __init__(self, store: Store) -> None:
        self.store = store
        self._lock = threading.Lock()
        self._marks: dict[str, int] = {}  # match id -> the id of its newest stored event, as last caught up
        # match id -> ((its newest event's id, its result) when read, its timeline)
        self._kept: dict[str, tuple[tuple[int, object], MatchTimeline | None]] = {}

    def catch_up(self, connection: Connection | None = None, *, read: bool = True) -> None:
        """Note which matches have new events (a snapshot does, once, before its pages ask), read on
        ``connection`` if given; with ``read`` False, as the marks were last read (the snapshot's base read them
        on the same connection a moment ago)."""
        if not read:
            marks = self.store.event_marks.known()
        else:
            with queries.on_connection(self.store, connection) as c:
                marks = self.store.event_marks.read(c)
        with self._lock:
            self._marks = marks

    def marks(self) -> dict[str, int]:
        """Each match's newest stored event's id as last caught up: a timeline is the same while its mark is."""
        with self._lock:
            return self._marks

    def of(self, match_id: str, ruleset: Ruleset, stage: StageKind, round: str,
           session: Session | None = None, *, result: object = None) -> MatchTimeline | None:
        """The match's timeline as its stored events tell it; None before its first event, or if they do not
        replay (the service stores only what replays: an older version's log). Read in ``session`` if given.

        ``result``: the match's stored result as the caller read it (None: none). The marks pass over an event
        that commits after one with a higher id (two instances storing one match's events at once, on
        PostgreSQL: server.event_marks), so a timeline read in between would be kept without it until the match's
        next event, which for its last events never comes. A result is stored only once every event up to its
        seq is: a timeline read before the result is read again with it. A log read with a gap in its seqs is
        not kept at all."""
        last = self.store.event_marks.last(match_id)  # newer than the last catch-up's, if another thread read on
        key = (last, result)
        with self._lock:
            kept = self._kept.get(match_id)
        if kept is not None and kept[0] == key:
            return kept[1]
        made = None
        whole = True
        if last:
            # A log this version cannot read stays None until its next event: the page says it has none to show.
            with suppress(CourtsideError):
                events = queries.stored_events(self.store, match_id, session)  # in the order of their seqs
                whole = [e.seq for e in events] == list(range(1, len(events) + 1))
                made = match_timeline(ruleset, events, stage=stage, round=round)
        if whole:
            with self._lock:
                self._kept[match_id] = (key, made)
        return made

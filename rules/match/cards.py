"""The disciplinary record of a match: one card per penalty awarded."""

from __future__ import annotations

from rules.match.events import Side
from rules.record import Record


class Card(Record):
    """A penalty awarded in the match, as the organiser's disciplinary list shows it."""

    seq: int
    team: Side
    player: str | None
    kind: str
    label: str
    out_for_match: bool
    suspended_next_matches: int
    report_to_organisers: bool

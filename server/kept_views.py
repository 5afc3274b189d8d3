"""The views the pages and the courts' schedules keep between snapshots, each made again only when what it is made
of changed: a result changes one match of 4,000, one court's schedule of 110, and the views of the rest are the
last snapshot's objects (the pages' regions compare them by identity).

The store holds one for every module that reads it (:mod:`server.queries`, :mod:`server.payloads`). Each entry is
replaced whole, never changed in place, and checked against what it was made of when read, so the loop's thread and
the pages' share them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rules import CourtMatch, TeamSheet
    from server.queries import FixtureView, PresenceView


@dataclass
class KeptViews:
    # match id -> (what its view was made of, the view): server.queries
    fixtures: dict[str, tuple[tuple[object, ...], FixtureView]] = field(default_factory=dict)
    every: Any = None  # the whole schedule's views and their index as last made: server.queries
    # court -> (its presence row, its view): server.queries
    presence: dict[str, tuple[Any, PresenceView]] = field(default_factory=dict)
    # team -> (its stored sheet, as read; None: this version cannot read it): server.queries
    sheets: dict[str, tuple[str, TeamSheet | None]] = field(default_factory=dict)
    # match id -> (its view, its suspensions and settlement, as its court's schedule sends it): server.payloads
    court_matches: dict[str, tuple[FixtureView, tuple[object, ...], CourtMatch]] = field(default_factory=dict)

"""What the web pages read: plain frozen data, no I/O.

The service owns the state; the web part gets an immutable :class:`TournamentData`
snapshot from it (:mod:`server.web.port`) and hands back the desk's commands
(server.desk_commands) for the service's one loop to check and apply. Matches are named by
their schedule number.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from rules import (
    Cup,
    Decision,
    LiveBoard,
    MatchResult,
    Progress,
    Ruleset,
    TeamSheet,
    TournamentClass,
    TournamentSchedule,
)
from server.discipline import Sanction  # the register's entry: the service publishes them too


@dataclass(frozen=True, kw_only=True)
class RecordedResult:
    """A result the service holds for one scheduled match, with where it came from."""

    number: int
    result: MatchResult
    recorded_at: datetime
    by: str = "table"  # "table" or the organiser's account name
    note: str = ""  # "walk-over", "abandoned: leading team wins", ...
    why: str = ""  # the organiser's reason, for a result entered at the desk
    was: str = ""  # the score it replaced ("3-1"), if it replaced one


@dataclass(frozen=True, kw_only=True)
class Presence:
    """One court's table as the service last heard it."""

    court: str
    online: bool
    last_seen: datetime | None = None
    last_message: str = ""  # in English; shown only when there is no last_kind to word it by
    last_kind: str = ""  # the last message's protocol type (live, result, event, presence), worded by the page
    last_match: int | None = None  # the match that message named
    playing: int | None = None  # the match number its live state names


@dataclass(frozen=True, kw_only=True)
class Conflict:
    """A result that disagrees with the one stored for a finished match; it waits for the organiser."""

    id: str
    number: int
    court: str
    stored: MatchResult
    held: MatchResult
    received: datetime
    reason: str


@dataclass(frozen=True, kw_only=True)
class Abandoned:
    """A match a table abandoned (its officials' long hold): the service stores no result and holds the
    report until the organiser settles the match in the ice-hockey seed's order of consideration."""

    id: str  # the held report's, closed when the match is settled
    number: int
    court: str
    home_goals: int  # the score when it stopped
    away_goals: int
    received: datetime


@dataclass(frozen=True, kw_only=True)
class AuditEntry:
    at: datetime
    who: str
    what: str
    why: str


@dataclass(frozen=True, kw_only=True)
class TournamentData:
    """Everything a page shows, as of ``version``; the service builds a new one per change."""

    version: int
    now: datetime
    cup: Cup
    rulesets: dict[str, Ruleset]  # class name ("" without classes) -> its ruleset
    entry_teams: dict[str, tuple[str, ...]]  # every class's first-round pools (named uniquely across the cup)
    schedule: TournamentSchedule
    results: dict[int, RecordedResult] = field(default_factory=dict)
    decisions: tuple[Decision, ...] = ()
    live: dict[str, LiveBoard] = field(default_factory=dict)  # court -> the board its table published last
    live_at: dict[str, datetime] = field(default_factory=dict)  # court -> when that state was received
    presence: dict[str, Presence] = field(default_factory=dict)
    conflicts: tuple[Conflict, ...] = ()
    abandoned: tuple[Abandoned, ...] = ()
    audit: tuple[AuditEntry, ...] = ()
    sanctions: tuple[Sanction, ...] = ()
    moves: dict[int, tuple[str, datetime]] = field(default_factory=dict)  # number -> (court, start)
    progress: Progress | None = None  # the service's own, when it has it; else the pages compute it
    class_progress: dict[str, Progress] | None = None  # each class's own (its final ranking), with ``progress``
    versions: dict[int, str] = field(default_factory=dict)  # number -> the match as stored (desk.match_version)
    sheets: dict[str, TeamSheet] = field(default_factory=dict)  # team -> its sheet, where the file gives one

    @property
    def name(self) -> str:
        return self.cup.name

    def class_of(self, stage: str) -> TournamentClass:
        return self.cup.class_of(stage)

    def ruleset_of(self, stage: str) -> Ruleset:
        return self.rulesets[self.cup.class_of(stage).name]

    def published(self, stage: str) -> bool:
        return self.cup.published(stage)

    def player_names(self, stage: str) -> bool:
        """Whether the public pages name a stage's players (a class may show their numbers only)."""
        return self.cup.class_of(stage).tournament.player_names

    @property
    def ruleset_names(self) -> str:
        """The rulesets the classes play by, each once (the pages' footer)."""
        return ", ".join(dict.fromkeys(r.name for r in self.rulesets.values()))


__all__ = ["Abandoned", "AuditEntry", "Conflict", "Presence", "RecordedResult", "Sanction", "TournamentData"]

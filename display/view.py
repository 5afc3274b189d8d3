"""What the table hands the screen each frame: :class:`ScoreboardView` (plain data, no pygame).

The one view of a scoreboard: the table's loop builds it (its headless screen prints it, so this module
must never import pygame), ``display follow`` builds it from the broker, and the screen draws only what
is in here. Words come from the catalogs of ``language``; the
engine's state is data (``rules.match.MatchState``); team names and colours come from the
tournament file (or "Home"/"Away" in a friendly match).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from rules import IllegalCommand, MatchState, Ruleset, Suspended

if TYPE_CHECKING:  # the table builds views at every press: neither is worth importing at its start
    from datetime import datetime

    from rules import PoolTable
    from rules.published_scorers import PublishedScorers

Colour = tuple[int, int, int]
NoticeKind = Literal["refused", "recovered", "info", "operator"]


@dataclass(frozen=True)
class TeamLook:
    """A team as the screen shows it: ``short`` replaces a name too long for its box (e.g. "HUN")."""

    name: str
    short: str | None = None
    colour: Colour | str | None = None  # (r, g, b) or "#rrggbb"; None: the theme's home/away colour


@dataclass(frozen=True)
class Notice:
    """A message over the bottom band; the score stays visible.

    ``refused``: a press the engine refused: ``error`` the engine's IllegalCommand (then the
    reason is worded in the screen's language), or ``text`` its reason already in words. ``recovered``: the table
    restarted after a cut, ``down_ms`` how long it was down (None: not known). ``info``: any other short line.
    ``operator``: the official's compact line at the foot of a single-screen venue's scoreboard (display.operator),
    small and plain, never a banner.
    """

    kind: NoticeKind
    text: str = ""
    down_ms: int | None = None
    error: IllegalCommand | None = None  # a refusal as the engine raised it: worded in the screen's language
    until: float = 0.0  # the table's session second after which its loop no longer shows it


@dataclass(frozen=True)
class Link:
    """The MQTT link: a discreet corner mark when offline, with how many messages wait to be sent."""

    online: bool
    waiting: int = 0


@dataclass(frozen=True)
class NextMatch:
    home: str
    away: str
    start: datetime | None = None
    round: str | None = None  # the tournament's round, e.g. "semi_final"
    stage: str | None = None  # the pool or match name, e.g. "A" or "SF1"


@dataclass(frozen=True)
class BetweenMatches:
    """Between matches: the court's next match, the pool tables and the class's top scorers, shown ``page`` by
    page.

    ``page`` is any counter the caller advances every few seconds; the screen wraps it
    around the number of pages the tables need at its resolution.
    """

    next_match: NextMatch | None = None
    tables: tuple[PoolTable, ...] = ()
    scorers: PublishedScorers | None = None  # the last page, when the service sent any
    page: int = 0


@dataclass(frozen=True)
class ScoreboardView:
    """One frame's worth of input. ``state`` None means no match is loaded (between matches)."""

    state: MatchState | None
    ruleset: Ruleset
    home: TeamLook = TeamLook("Home")
    away: TeamLook = TeamLook("Away")
    language: str | None = None
    round: str | None = None  # the tournament's round of this match, e.g. "semi_final"
    stage: str | None = None  # "A", "SF1": shown small in the top corner
    notices: tuple[Notice, ...] = ()
    link: Link | None = None
    between: BetweenMatches | None = None
    help_lines: tuple[str, ...] = field(default=())  # the table's key map, shown as an overlay when given
    not_eligible: tuple[Suspended, ...] = ()  # who may not play this match: shown before it starts
    match: str | None = None  # the schedule's match id ("7"); None: not known (a snapshot)
    court: str = ""  # the court's name: the title between matches
    prompt: str = ""  # what the table official is typing ("player #7"): shown over the notices

"""The events of a match log, one frozen dataclass per kind.

An event is what the table recorded: a command from the operator that the engine
accepted, stamped with the instant it happened (``at``, whole milliseconds since the
table unit's epoch for the match) and its place in the log (``seq``, from 1). The
same classes serve as commands: build one with ``seq`` left at 0 and hand it to
:meth:`rules.match.Match.apply`, which gives it its sequence number.

Teams are always named by side, ``"home"`` (the first-named team) or ``"away"``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Literal

Team = Literal["home", "away"]
TEAMS: tuple[Team, Team] = ("home", "away")


def other(team: Team) -> Team:
    return "away" if team == "home" else "home"


@dataclass(frozen=True, kw_only=True)
class Event:
    """Common to every event: when it happened and where it stands in the log."""

    type: ClassVar[str] = ""
    # Read by pydantic when rules.match.log checks a JSON line: no coercion, no stray keys.
    __pydantic_config__: ClassVar[dict[str, Any]] = {"strict": True, "extra": "forbid"}
    at: int
    seq: int = 0


@dataclass(frozen=True, kw_only=True)
class ClockStarted(Event):
    """The match clock starts: the first one starts the match, one in an interval starts the next period."""

    type: ClassVar[str] = "clock_started"


@dataclass(frozen=True, kw_only=True)
class ClockStopped(Event):
    type: ClassVar[str] = "clock_stopped"


@dataclass(frozen=True, kw_only=True)
class Goal(Event):
    type: ClassVar[str] = "goal"
    team: Team
    player: str | None = None


@dataclass(frozen=True, kw_only=True)
class GoalDisallowed(Event):
    """The goal logged as ``target`` does not count; penalties it ended run on."""

    type: ClassVar[str] = "goal_disallowed"
    target: int


@dataclass(frozen=True, kw_only=True)
class PenaltyAwarded(Event):
    """A card, suspension, exclusion or penalty; ``length`` only for kinds that are a minimum."""

    type: ClassVar[str] = "penalty_awarded"
    team: Team
    kind: str
    player: str | None = None
    length: int | None = None


@dataclass(frozen=True, kw_only=True)
class PenaltyEnded(Event):
    """The operator lets the player back (a water-polo re-entry): only for kinds that allow it."""

    type: ClassVar[str] = "penalty_ended"
    target: int


@dataclass(frozen=True, kw_only=True)
class PenaltyLengthened(Event):
    """A "minimum" penalty gets its full length (``length``: the new total, ms)."""

    type: ClassVar[str] = "penalty_lengthened"
    target: int
    length: int


@dataclass(frozen=True, kw_only=True)
class PenaltyCorrected(Event):
    """Sets what remains of a penalty (ms of match-clock time); 0 ends it."""

    type: ClassVar[str] = "penalty_corrected"
    target: int
    remaining: int


@dataclass(frozen=True, kw_only=True)
class SetPieceStarted(Event):
    """A penalty corner or stroke is being awarded (ruleset.match.set_pieces)."""

    type: ClassVar[str] = "set_piece_started"
    name: str


@dataclass(frozen=True, kw_only=True)
class SetPieceEnded(Event):
    type: ClassVar[str] = "set_piece_ended"


@dataclass(frozen=True, kw_only=True)
class TimeoutStarted(Event):
    """A team's time-out; it stops the clock and ends by itself after its length."""

    type: ClassVar[str] = "timeout_started"
    team: Team


@dataclass(frozen=True, kw_only=True)
class TimeoutEnded(Event):
    type: ClassVar[str] = "timeout_ended"


@dataclass(frozen=True, kw_only=True)
class PeriodAdvanced(Event):
    """Ends the period being played now, or skips the rest of an interval."""

    type: ClassVar[str] = "period_advanced"


@dataclass(frozen=True, kw_only=True)
class PossessionReset(Event):
    """Water polo's possession clock back to its full length, or to the short one (a corner)."""

    type: ClassVar[str] = "possession_reset"
    short: bool = False


@dataclass(frozen=True, kw_only=True)
class ShootoutAttempt(Event):
    type: ClassVar[str] = "shootout_attempt"
    team: Team
    scored: bool
    player: str | None = None


@dataclass(frozen=True, kw_only=True)
class ClockCorrected(Event):
    """Sets the clock of the period being played to ``clock`` ms (as displayed: remaining or elapsed)."""

    type: ClassVar[str] = "clock_corrected"
    clock: int


@dataclass(frozen=True, kw_only=True)
class ScoreCorrected(Event):
    type: ClassVar[str] = "score_corrected"
    home: int
    away: int


@dataclass(frozen=True, kw_only=True)
class MatchAbandoned(Event):
    """The match stops for good; the organiser decides the result (the score stands as played)."""

    type: ClassVar[str] = "match_abandoned"
    reason: str = ""


@dataclass(frozen=True, kw_only=True)
class Forfeit(Event):
    """``team`` gives the match away (it loses by the ruleset's forfeit score)."""

    type: ClassVar[str] = "forfeit"
    team: Team


@dataclass(frozen=True, kw_only=True)
class Walkover(Event):
    """``team`` did not turn up; entered before the match starts."""

    type: ClassVar[str] = "walkover"
    team: Team


@dataclass(frozen=True, kw_only=True)
class Undo(Event):
    """Takes back the event ``target`` (an undo of an undo puts its target back)."""

    type: ClassVar[str] = "undo"
    target: int


EVENT_TYPES: dict[str, type[Event]] = {
    cls.type: cls
    for cls in (
        ClockStarted, ClockStopped, Goal, GoalDisallowed, PenaltyAwarded, PenaltyEnded,
        PenaltyLengthened, PenaltyCorrected, SetPieceStarted, SetPieceEnded, TimeoutStarted,
        TimeoutEnded, PeriodAdvanced, PossessionReset, ShootoutAttempt, ClockCorrected,
        ScoreCorrected, MatchAbandoned, Forfeit, Walkover, Undo,
    )
}

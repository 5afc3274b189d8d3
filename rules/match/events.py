"""The events of a match log, one frozen record per kind.

An event is what the table recorded: a command from the operator that the engine
accepted, stamped with the instant it happened (``at``, whole milliseconds since the
table unit's epoch for the match) and its place in the log (``seq``, from 1). The
same classes serve as commands: build one with ``seq`` left at 0 and hand it to
:meth:`rules.match.Match.apply`, which gives it its sequence number.

Teams are always named by side, ``"home"`` (the first-named team) or ``"away"``.

Every field is checked when the event is made (plain ``isinstance`` checks: the
engine builds events on its hot path), so a wrong one raises
:class:`~rules.errors.EventError` naming the field, and whatever the table
journals can be read back. The bounds are documented in docs/events.md.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar, Literal, cast

from rules.errors import EventError
from rules.record import Record

Side = Literal["home", "away"]
SIDES: tuple[Side, Side] = ("home", "away")


def other(team: Side) -> Side:
    return "away" if team == "home" else "home"


class Event(Record):
    """Common to every event: when it happened and where it stands in the log."""

    type: ClassVar[str] = ""
    at: int
    seq: int = 0

    def __post_init__(self) -> None:
        values = self.__dict__
        for name, check in _CHECKS[type(self)]:
            problem = check(values[name])
            if problem is not None:
                raise EventError(self.type or type(self).__name__, name, problem)


class ClockStarted(Event):
    """The match clock starts: the first one starts the match, one in an interval starts the next period."""

    type: ClassVar[str] = "clock_started"


class ClockStopped(Event):
    type: ClassVar[str] = "clock_stopped"


class Goal(Event):
    type: ClassVar[str] = "goal"
    team: Side
    player: str | None = None


class GoalDisallowed(Event):
    """The goal logged as ``target`` does not count; penalties it ended run on."""

    type: ClassVar[str] = "goal_disallowed"
    target: int


class PenaltyAwarded(Event):
    """A card, suspension, exclusion or penalty; ``length`` only for kinds that are a minimum."""

    type: ClassVar[str] = "penalty_awarded"
    team: Side
    kind: str
    player: str | None = None
    length: int | None = None


class PenaltyEnded(Event):
    """The operator lets the player back (a water-polo re-entry): only for kinds that allow it."""

    type: ClassVar[str] = "penalty_ended"
    target: int


class PenaltyLengthened(Event):
    """A "minimum" penalty gets its full length (``length``: the new total, ms)."""

    type: ClassVar[str] = "penalty_lengthened"
    target: int
    length: int


class PenaltyCorrected(Event):
    """Sets what remains of a penalty (ms of match-clock time); 0 ends it."""

    type: ClassVar[str] = "penalty_corrected"
    target: int
    remaining: int


class SetPieceStarted(Event):
    """A penalty corner or stroke is being awarded (ruleset.match.set_pieces)."""

    type: ClassVar[str] = "set_piece_started"
    name: str


class SetPieceEnded(Event):
    type: ClassVar[str] = "set_piece_ended"


class TimeoutStarted(Event):
    """A team's time-out; it stops the clock and ends by itself after its length."""

    type: ClassVar[str] = "timeout_started"
    team: Side


class TimeoutEnded(Event):
    type: ClassVar[str] = "timeout_ended"


class PeriodAdvanced(Event):
    """Ends the period being played now, or skips the rest of an interval."""

    type: ClassVar[str] = "period_advanced"


class PossessionReset(Event):
    """Water polo's possession clock back to its full length, or to the short one (a corner)."""

    type: ClassVar[str] = "possession_reset"
    short: bool = False


class ShootoutAttempt(Event):
    type: ClassVar[str] = "shootout_attempt"
    team: Side
    scored: bool
    player: str | None = None


class ClockCorrected(Event):
    """Sets the clock of the period being played to ``clock`` ms (as displayed: remaining or elapsed)."""

    type: ClassVar[str] = "clock_corrected"
    clock: int


class ScoreCorrected(Event):
    type: ClassVar[str] = "score_corrected"
    home: int
    away: int


class MatchAbandoned(Event):
    """The match stops for good; the organiser decides the result (the score stands as played)."""

    type: ClassVar[str] = "match_abandoned"
    reason: str = ""


class MatchResumed(Event):
    """The abandoned match goes on (seed 004: "game resumed at a later time"), exactly as it stood when abandoned."""

    type: ClassVar[str] = "match_resumed"


class MatchReplayed(Event):
    """The abandoned match is played again from nothing (seed 004: "game played at a later time").

    The earlier play stays in the log as history and counts for nothing but its cards.
    """

    type: ClassVar[str] = "match_replayed"


class Forfeit(Event):
    """``team`` gives the match away (it loses by the ruleset's forfeit score)."""

    type: ClassVar[str] = "forfeit"
    team: Side


class Walkover(Event):
    """``team`` did not turn up; entered before the match starts."""

    type: ClassVar[str] = "walkover"
    team: Side


class Undo(Event):
    """Takes back the event ``target`` (an undo of an undo puts its target back)."""

    type: ClassVar[str] = "undo"
    target: int


AnyEvent = (
    ClockStarted | ClockStopped | Goal | GoalDisallowed | PenaltyAwarded | PenaltyEnded | PenaltyLengthened
    | PenaltyCorrected | SetPieceStarted | SetPieceEnded | TimeoutStarted | TimeoutEnded | PeriodAdvanced
    | PossessionReset | ShootoutAttempt | ClockCorrected | ScoreCorrected | MatchAbandoned | MatchResumed
    | MatchReplayed | Forfeit | Walkover | Undo
)
"""Every kind of event: what the engine dispatches on exhaustively (``match`` + ``assert_never``)."""


def known(event: Event) -> AnyEvent | None:
    """``event`` as one of the kinds the engine knows, or None (a subclass made elsewhere)."""
    # A look-up by exact type, not isinstance over twenty-three classes: this runs for every event folded.
    return cast("AnyEvent", event) if type(event) in _CHECKS and type(event) is not Event else None


EVENT_TYPES: dict[str, type[Event]] = {
    cls.type: cls
    for cls in (
        ClockStarted, ClockStopped, Goal, GoalDisallowed, PenaltyAwarded, PenaltyEnded,
        PenaltyLengthened, PenaltyCorrected, SetPieceStarted, SetPieceEnded, TimeoutStarted,
        TimeoutEnded, PeriodAdvanced, PossessionReset, ShootoutAttempt, ClockCorrected,
        ScoreCorrected, MatchAbandoned, MatchResumed, MatchReplayed, Forfeit, Walkover, Undo,
    )
}


# -- field checks -------------------------------------------------------------------------------
# Bounds beyond any real match (docs/events.md, "Bounds"): they keep a corrupt or hostile line
# from becoming a state no screen can draw.
MAX_AT = 24 * 3600 * 1000  # ms: a day on the table unit's clock for one match
MAX_SEQ = 10_000_000
MAX_SCORE = 999
MAX_PLAYER = 8  # characters of a shirt number ("12A")
MAX_NAME = 64  # a penalty kind or set piece name
MAX_REASON = 500

Check = Callable[[object], "str | None"]


def _whole(low: int, high: int) -> Check:
    def check(value: object) -> str | None:
        if not isinstance(value, int) or isinstance(value, bool):
            return f"a whole number is required, not {type(value).__name__} {value!r}"
        if not low <= value <= high:
            return f"{value} is out of range ({low} to {high})"
        return None

    return check


def _text(low: int, high: int, *, optional: bool) -> Check:
    def check(value: object) -> str | None:
        if value is None and optional:
            return None
        if not isinstance(value, str):
            return f"text is required, not {type(value).__name__} {value!r}"
        if not low <= len(value) <= high:
            return f"{len(value)} characters; {low} to {high} allowed"
        if not value.isprintable() or (value and not value.strip()):
            return f"{value!r} has control characters or is blank"
        return None

    return check


def _side(value: object) -> str | None:
    return None if value in SIDES and isinstance(value, str) else f"{value!r} is not a side (home or away)"


def _flag(value: object) -> str | None:
    return None if isinstance(value, bool) else f"true or false is required, not {value!r}"


def _optional(check: Check) -> Check:
    return lambda value: None if value is None else check(value)


_FIELDS: dict[str, Check] = {
    "at": _whole(0, MAX_AT),
    "seq": _whole(0, MAX_SEQ),
    "target": _whole(1, MAX_SEQ),
    "length": _optional(_whole(0, MAX_AT)),
    "remaining": _whole(0, MAX_AT),
    "clock": _whole(0, MAX_AT),
    "home": _whole(0, MAX_SCORE),
    "away": _whole(0, MAX_SCORE),
    "team": _side,
    "player": _text(1, MAX_PLAYER, optional=True),
    "kind": _text(1, MAX_NAME, optional=False),
    "name": _text(1, MAX_NAME, optional=False),
    "reason": _text(0, MAX_REASON, optional=False),
    "scored": _flag,
    "short": _flag,
}

_ALL: tuple[type[Event], ...] = (Event, *EVENT_TYPES.values())
_CHECKS: dict[type[Event], tuple[tuple[str, Check], ...]] = {
    cls: tuple((name, _FIELDS[name]) for name in cls.__record_fields__) for cls in _ALL
}
FIELD_NAMES: dict[type[Event], tuple[str, ...]] = {cls: tuple(n for n, _ in checks) for cls, checks in _CHECKS.items()}
"""Each kind's fields in order (``at`` and ``seq`` first), for code that walks them often."""

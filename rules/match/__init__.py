"""The match engine: a pure state machine over an event log.

>>> from rules.ruleset import load_ruleset
>>> from rules.match import Match, ClockStarted, Goal
>>> match = Match(load_ruleset("indoor-hockey"))
>>> _ = match.apply(ClockStarted(at=0))
>>> _ = match.apply(Goal(at=61_000, team="home", player="7"))
>>> state = match.state_at(90_000)
>>> (state.clock_ms, state.home_goals, state.away_goals)
(1110000, 1, 0)

Time is always passed in (whole milliseconds); nothing here reads a clock. The
state is data; rules.words.state says it in words.
"""

from rules.match.applied import Applied, AppliedKind
from rules.match.cards import Card
from rules.match.engine import Match
from rules.match.events import (
    EVENT_TYPES,
    SIDES,
    ClockCorrected,
    ClockStarted,
    ClockStopped,
    Event,
    Forfeit,
    Goal,
    GoalDisallowed,
    MatchAbandoned,
    MatchReplayed,
    MatchResumed,
    PenaltyAwarded,
    PenaltyCorrected,
    PenaltyEnded,
    PenaltyLengthened,
    PeriodAdvanced,
    PossessionReset,
    ScoreCorrected,
    SetPieceEnded,
    SetPieceStarted,
    ShootoutAttempt,
    Side,
    TimeoutEnded,
    TimeoutStarted,
    Undo,
    Walkover,
)
from rules.match.fold import Horn
from rules.match.header import LogHeader
from rules.match.log import (
    ParsedLog,
    TornLine,
    event_from_dict,
    event_to_dict,
    event_to_line,
    format_log,
    header_to_line,
    numbered_events,
    parse_log,
    read_log,
)
from rules.match.outcome import MatchOutcome
from rules.match.state import (
    MatchState,
    PenaltyView,
    PeriodKind,
    PlayerFouls,
    PlayerOut,
    ShootoutView,
    TimeoutView,
)
from rules.ruleset import ruleset_digest

__all__ = [
    "EVENT_TYPES", "SIDES", "Applied", "AppliedKind", "Card", "ClockCorrected", "ClockStarted", "ClockStopped",
    "Event", "Forfeit", "Goal", "GoalDisallowed", "Horn", "LogHeader", "Match", "MatchAbandoned", "MatchOutcome",
    "MatchReplayed", "MatchResumed",
    "MatchState", "ParsedLog", "PenaltyAwarded", "PenaltyCorrected", "PenaltyEnded", "PenaltyLengthened",
    "PenaltyView", "PeriodAdvanced", "PeriodKind", "PlayerFouls", "PlayerOut", "PossessionReset", "ScoreCorrected",
    "SetPieceEnded",
    "SetPieceStarted", "ShootoutAttempt", "ShootoutView", "Side", "TimeoutEnded", "TimeoutStarted", "TimeoutView",
    "TornLine", "Undo", "Walkover", "event_from_dict", "event_to_dict", "event_to_line", "format_log",
    "header_to_line", "numbered_events", "parse_log", "read_log", "ruleset_digest",
]

"""The match engine: a pure state machine over an event log.

>>> from rules.ruleset import load_ruleset
>>> from rules.match import Match, ClockStarted, Goal
>>> match = Match(load_ruleset("indoor-hockey"))
>>> _ = match.apply(ClockStarted(at=0))
>>> _ = match.apply(Goal(at=61_000, team="home", player="7"))
>>> state = match.state_at(90_000)
>>> (state.clock_text, state.home_goals, state.away_goals)
('18:30', 1, 0)

Time is always passed in (whole milliseconds); nothing here reads a clock.
"""

from rules.match.cards import Card
from rules.match.engine import Match
from rules.match.events import (
    EVENT_TYPES,
    TEAMS,
    ClockCorrected,
    ClockStarted,
    ClockStopped,
    Event,
    Forfeit,
    Goal,
    GoalDisallowed,
    MatchAbandoned,
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
    Team,
    TimeoutEnded,
    TimeoutStarted,
    Undo,
    Walkover,
)
from rules.match.fold import Horn
from rules.match.log import event_from_dict, event_to_dict, event_to_line, format_log, numbered_events, parse_log
from rules.match.outcome import MatchOutcome
from rules.match.state import MatchState, PenaltyView, ShootoutView, TimeoutView

__all__ = [
    "EVENT_TYPES", "TEAMS", "Card", "ClockCorrected", "ClockStarted", "ClockStopped", "Event", "Forfeit", "Goal",
    "GoalDisallowed", "Horn", "Match", "MatchAbandoned", "MatchOutcome", "MatchState", "PenaltyAwarded",
    "PenaltyCorrected", "PenaltyEnded", "PenaltyLengthened", "PenaltyView", "PeriodAdvanced", "PossessionReset",
    "ScoreCorrected", "SetPieceEnded", "SetPieceStarted", "ShootoutAttempt", "ShootoutView", "Team", "TimeoutEnded",
    "TimeoutStarted", "TimeoutView", "Undo", "Walkover", "event_from_dict", "event_to_dict", "event_to_line",
    "format_log", "numbered_events", "parse_log",
]

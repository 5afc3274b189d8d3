"""Tournaments: stages declared in a TOML file, the draw, the schedule and what follows from results.

``parse_tournament(text, source)`` reads a file; ``make_draw`` draws the pools from a
seed; ``build_schedule`` places every match on a court and a time; ``progress``
resolves every placeholder the results allow and says what is still open.
"""

from rules.tournament.draw import DrawResult, make_draw, pool_teams
from rules.tournament.loading import (
    load_tournament,
    load_tournament_ruleset,
    parse_tournament,
    read_tournament_file,
    validate_tournament,
)
from rules.tournament.model import MatchEntry, PlacementRanking, TeamEntry, Tournament
from rules.tournament.placeholders import Placeholder, parse_placeholder
from rules.tournament.progression import FixtureProgress, PoolState, Progress, Slot, progress
from rules.tournament.schedule import ScheduledMatch, TournamentSchedule, build_schedule

__all__ = [
    "DrawResult",
    "FixtureProgress",
    "MatchEntry",
    "Placeholder",
    "PlacementRanking",
    "PoolState",
    "Progress",
    "ScheduledMatch",
    "Slot",
    "TeamEntry",
    "Tournament",
    "TournamentSchedule",
    "build_schedule",
    "load_tournament",
    "load_tournament_ruleset",
    "make_draw",
    "parse_placeholder",
    "parse_tournament",
    "pool_teams",
    "progress",
    "read_tournament_file",
    "validate_tournament",
]

"""A finished match as a row of the standings: :func:`match_result`.

Kept apart from the engine so ``import rules.match`` (what the table runs) does not
load the standings.
"""

from __future__ import annotations

from rules.match.outcome import MatchOutcome
from rules.match.refusals import refuse
from rules.standings.results import MatchResult


def match_result(outcome: MatchOutcome, *, pool: str, home: str, away: str) -> MatchResult:
    """The standings' ``MatchResult`` of a match between teams ``home`` and ``away`` in ``pool``.

    An abandoned match has no such form (IllegalCommand): the organiser decides its result.
    """
    if outcome.outcome == "abandoned":
        raise refuse("abandoned_no_result")
    winner = {"home": home, "away": away, None: None}[outcome.winner]
    return MatchResult(
        pool=pool, home=home, away=away, home_goals=outcome.home_goals, away_goals=outcome.away_goals,
        outcome=outcome.outcome, winner=winner, home_shootout=outcome.home_shootout,
        away_shootout=outcome.away_shootout,
    )

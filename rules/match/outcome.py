"""How a match ended, in the form the standings take."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.errors import IllegalCommand
from rules.match.cards import Card
from rules.match.events import Team
from rules.match.fold import OutcomeKind


@dataclass(frozen=True, kw_only=True)
class MatchOutcome:
    """The result: goals (shoot-out goals apart), how it was decided and who won.

    ``winner`` is None for a draw and for an abandoned match, whose result the
    organiser decides. A walk-over or forfeit carries the ruleset's score for it.
    ``sanctions`` lists the cards that put a player out, suspend them or go to the
    organisers, so the next match's sheet can be checked.
    """

    home_goals: int
    away_goals: int
    outcome: OutcomeKind
    winner: Team | None
    home_shootout: int | None = None
    away_shootout: int | None = None
    sanctions: tuple[Card, ...] = ()

    def to_match_result(self, *, pool: str, home: str, away: str) -> Any:
        """The standings' ``MatchResult`` for this match between teams ``home`` and ``away``.

        An abandoned match has no such form: the organiser decides its result.
        """
        # Imported here: the standings live beside the engine and need not be loaded to run a match.
        from rules.standings import MatchResult

        if self.outcome == "abandoned":
            raise IllegalCommand("an abandoned match goes to the standings only once the organiser decides its result")

        winner = {"home": home, "away": away, None: None}[self.winner]
        return MatchResult(
            pool=pool, home=home, away=away, home_goals=self.home_goals, away_goals=self.away_goals,
            outcome=self.outcome, winner=winner, home_shootout=self.home_shootout, away_shootout=self.away_shootout,
        )

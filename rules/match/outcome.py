"""How a match ended, in the form the standings take."""

from __future__ import annotations

from rules.match.cards import Card
from rules.match.events import Side
from rules.match.fold import OutcomeKind
from rules.record import Record


class MatchOutcome(Record):
    """The result: goals (shoot-out goals apart), how it was decided and who won.

    ``winner`` is None for a draw and for an abandoned match, whose result the
    organiser decides. A walk-over or forfeit carries the ruleset's score for it.
    ``sanctions`` lists the cards that put a player out, suspend them or go to the
    organisers, so the next match's sheet can be checked (a card given after the
    final whistle included). :mod:`rules.result` puts it on the wire and turns it
    into a standings row.
    """

    home_goals: int
    away_goals: int
    outcome: OutcomeKind
    winner: Side | None
    home_shootout: int | None = None
    away_shootout: int | None = None
    sanctions: tuple[Card, ...] = ()

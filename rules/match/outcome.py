"""How a match ended: :class:`Result`, what goes on the wire (rules.result), and the engine's :class:`MatchOutcome`."""

from __future__ import annotations

from rules.match.cards import Card
from rules.match.events import Side
from rules.match.fold import OutcomeKind
from rules.record import Record


class Result(Record):
    """Goals (shoot-out goals apart), how the match was decided, and the side that won (None: a draw, or an
    abandoned match, whose result the organiser decides). :mod:`rules.result` puts it on the wire and turns
    it into a standings row."""

    home_goals: int
    away_goals: int
    outcome: OutcomeKind
    winner: Side | None
    home_shootout: int | None = None
    away_shootout: int | None = None


class MatchOutcome(Result):
    """The engine's result, with the ``sanctions``: the cards that put a player out, suspend them or go to the
    organisers, so the next match's sheet can be checked (a card given after the final whistle included).

    A walk-over or forfeit carries the ruleset's score for it.
    """

    sanctions: tuple[Card, ...] = ()

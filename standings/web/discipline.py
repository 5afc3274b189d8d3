"""The disciplinary register from a match's cards (rules.match's ``Card``, in its state as data).

A card counts when the ruleset suspends the player for later matches (seed 003: a red card,
or two yellows, misses the next match; seed 001: brutality, at least one) or sends it to the
organisers (seed 004: every game penalty; seed 001: brutality; indoor hockey: red cards),
who then rule how many matches it costs. Nobody is suspended without a name: a card
without a player is listed for the organiser to complete.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from standings.web.inputs import Sanction


def sanctions_from_cards(number: int, home: str, away: str, cards: Iterable[Mapping[str, Any]]) -> list[Sanction]:
    """The register's entries for match ``number`` (``cards``: ``MatchState.cards`` as dicts)."""
    out = []
    for card in cards:
        suspended = int(card.get("suspended_next_matches") or 0)
        report = bool(card.get("report_to_organisers"))
        if not suspended and not report:
            continue
        out.append(
            Sanction(
                number=number,
                team=home if card.get("team") == "home" else away,
                player=str(card.get("player") or "?"),
                kind=str(card.get("kind", "")),
                label=str(card.get("label", card.get("kind", ""))),
                suspended_matches=suspended,
                needs_decision=report,
            )
        )
    return out

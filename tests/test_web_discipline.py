"""The disciplinary register from a match's cards, per seed."""

from __future__ import annotations

from typing import Any

from standings.web.discipline import sanctions_from_cards


def test_cards_that_matter_to_the_organiser() -> None:
    cards: list[dict[str, Any]] = [
        {"team": "home", "player": "7", "kind": "yellow", "label": "Yellow card", "suspended_next_matches": 0,
         "report_to_organisers": False},
        {"team": "away", "player": "4", "kind": "red", "label": "Red card", "suspended_next_matches": 1,
         "report_to_organisers": False},
        {"team": "home", "player": None, "kind": "game_misconduct", "label": "Game misconduct",
         "suspended_next_matches": 0, "report_to_organisers": True},
    ]
    red, gm = sanctions_from_cards(5, "Home FC", "Away FC", cards)
    assert (red.team, red.player, red.suspended_matches, red.needs_decision) == ("Away FC", "4", 1, False)
    assert (gm.team, gm.player, gm.suspended_matches, gm.needs_decision) == ("Home FC", "?", 0, True)

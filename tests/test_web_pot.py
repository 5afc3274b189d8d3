"""The web pages' word list for translators is the templates' words, kept in step with them."""

from __future__ import annotations

from pathlib import Path

from standings.web.pot import msgids, pot

POT = Path(__file__).resolve().parent.parent / "standings" / "web" / "courtside-web.pot"


def test_the_shipped_template_is_up_to_date() -> None:
    assert POT.read_text(encoding="utf-8") == pot(), "run: .venv/bin/python -m standings.web.pot > " + str(POT)


def test_words_are_found_with_their_templates() -> None:
    words = msgids()
    assert "Organiser's desk" in words and "standings/web/templates/desk/overview.html" in words["Organiser's desk"]
    assert "Pool" in words and "LIVE" in words

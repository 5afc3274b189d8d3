"""The web pages' word list for translators is the templates' words, kept in step with them, and every
one of them has a Swedish and a Slovak translation in the catalogs the screen uses (rules/words/locale)."""

from __future__ import annotations

import string
from datetime import datetime
from pathlib import Path

import pytest

from rules.words import LANGUAGES, catalog_path, words_for
from rules.words.po import parse_po
from server.web.pot import msgids, pot
from server.web.words import day_text, round_text, team_text

POT = Path(__file__).resolve().parent.parent / "server" / "web" / "courtside-web.pot"


def test_the_shipped_template_is_up_to_date() -> None:
    assert POT.read_text(encoding="utf-8") == pot(), "run: .venv/bin/python -m server.web.pot > " + str(POT)


def test_words_are_found_with_their_templates() -> None:
    words = msgids()
    assert "server/web/templates/desk/overview.html" in words[(None, "Organiser's desk")]
    assert (None, "Pool") in words and (None, "LIVE") in words and (None, "Reconnecting…") in words
    assert ("table", "GD") in words and ("weekday", "Sat") in words  # pgettext and the date words too


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("lang", [x for x in LANGUAGES if x != "en"])
def test_every_web_word_has_a_translation_with_the_same_placeholders(lang: str) -> None:
    catalog = {(e.msgctxt, e.msgid): e for e in parse_po(catalog_path(lang).read_text(encoding="utf-8"), lang)}
    missing = sorted(f"{c or ''}|{m}" for c, m in msgids() if (c, m) not in catalog or not catalog[(c, m)].translated)
    assert missing == []
    w = words_for(lang)
    for c, m in msgids():
        translated = w.pgettext(c, m) if c else w.gettext(m)
        assert translated == catalog[(c, m)].msgstr[0]
        assert _fields(translated) == _fields(m), (lang, m, translated)


def test_dates_rounds_and_open_slots_in_the_pages_language() -> None:
    saturday = datetime(2026, 5, 16, 13, 35)
    assert day_text(words_for("en"), saturday) == "Sat 16 May"
    assert day_text(words_for("sv"), saturday) == "lör 16 maj"
    assert day_text(words_for("sk"), saturday) == "so 16. máj"
    assert round_text(words_for("sv"), "semi_final") == "Semifinal"
    assert round_text(words_for("en"), "semi_final") == "Semi-final"
    assert round_text(words_for("sk"), "best_thirds") == "best thirds"  # an organiser's own round, as written
    assert team_text(words_for("sv"), "winner QF1") == "vinnare QF1"
    assert team_text(words_for("sk"), "loser SF2") == "porazený SF2"
    assert team_text(words_for("sk"), "3B/C") == "3B/C" and team_text(words_for("sv"), "IFK Göteborg P14") == \
        "IFK Göteborg P14"

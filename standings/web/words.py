"""Words on the pages, through the same gettext catalogs as the court's screen (rules.words).

A language with no catalog is refused when the app is built (rules.errors.UnknownLanguage);
a page's words missing from a catalog show in English, the source language. Dates and round
names are worded here too, so a Swedish page says "lör 16 maj" and "Semifinal".
"""

from __future__ import annotations

import gettext
from datetime import datetime

from rules.standings import PoolTable, TableRow, Unresolved
from rules.tournament.placeholders import MatchOutcome, parse_placeholder
from rules.tournament.progression import Slot
from rules.words import words_for
from rules.words.board import round_title
from rules.words.standings import Phrase, reason_text

# The English abbreviations; the catalogs translate them (msgctxt "weekday" / "month"). Literals for standings.web.pot.
WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
DAY = "{weekday} {day} {month}"  # Slovak puts a dot after the day: "so 16. máj"
OUTCOMES = {"winner": "winner {match}", "loser": "loser {match}"}


def translations(lang: str | None) -> gettext.NullTranslations:
    return words_for(lang)


def day_text(words: gettext.NullTranslations, when: datetime) -> str:
    """A match's day as the page's language writes it: "Sat 16 May", "lör 16 maj", "so 16. máj"."""
    return words.gettext(DAY).format(weekday=words.pgettext("weekday", WEEKDAYS[when.weekday()]),
                                     day=f"{when.day:02d}", month=words.pgettext("month", MONTHS[when.month - 1]))


def round_text(words: gettext.NullTranslations, round_name: str | None) -> str:
    """A knock-out round's name in words ("Semi-final", "Semifinal"); an organiser's own name as written."""
    return round_title(words, round_name) or ""


def team_text(words: gettext.NullTranslations, name: str) -> str:
    """A team, or a slot still waiting for one: "winner QF1" reads "vinnare QF1" on a Swedish page.

    Pool places ("1A", "3B/C") read the same in every language and stay as the file writes them.
    """
    slot = parse_placeholder(name)
    if isinstance(slot, MatchOutcome):
        return words.gettext(OUTCOMES[slot.outcome]).format(match=slot.match)
    return name


def reason_in(words: gettext.NullTranslations, table: PoolTable, row: TableRow) -> str:
    """A place's reason in the page's language ("före på poäng 4 mot 2"); the English text when the
    table has no phrases for it (a table rebuilt from published rows)."""
    phrases = table.reason_words.get(row.team)
    return row.reason if phrases is None else reason_text(phrases, words)


def decided_by(words: gettext.NullTranslations, tie: Unresolved) -> str:
    """What a tie waits for, said to a parent: "a drawing of lots", without the standings' instruction to
    the organiser ("give the order as a decision with method 'lots'") that the desk shows."""
    phrase = tie.needs_words
    needed = dict(phrase.params).get("needed") if isinstance(phrase, Phrase) else None
    if needed is None:
        return needs_in(words, tie)
    return reason_text(needed, words)


def needs_in(words: gettext.NullTranslations, waiting: Unresolved | Slot) -> str:
    """What a tie or an open slot still needs, in the page's language ("lottning (ange ordningen ...)",
    "resultatet i F"); its English text when it has no phrases."""
    if waiting.needs_words is None:
        return waiting.needs or ""
    return reason_text(waiting.needs_words, words)

"""Words on the pages, through the same gettext catalogs as the court's screen (rules.words).

A language with no catalog is refused when the app is built (rules.errors.UnknownLanguage);
a page's words missing from a catalog show in English, the source language. Dates and round
names are worded here too, so a Swedish page says "lör 16 maj" and "Semifinal".
"""

from __future__ import annotations

import gettext
from datetime import datetime

from rules import (
    Phrase,
    PoolTable,
    Slot,
    TableRow,
    Unresolved,
    WinnerOrLoser,
    Words,
    parse_placeholder,
    reason_text,
    round_title,
    words_for,
)

# The English abbreviations; the catalogs translate them (msgctxt "weekday" / "month"). Literals for server.web.pot.
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
    if isinstance(slot, WinnerOrLoser):
        return words.gettext(OUTCOMES[slot.outcome]).format(match=slot.match)
    return name


LEVEL_UNTIL_COMPLETE = {
    "level with {teams} on {clauses}; needs {needs}": "level with {teams} on {clauses}",
    "level with {teams}; needs {needs}": "level with {teams}",
}
"""A level place's reason before its pool is complete: its own matches may still part the teams, so no
decision is needed yet (what the reason becomes; literals for server.web.pot)."""


def reason_in(words: gettext.NullTranslations, table: PoolTable, row: TableRow, *, complete: bool = True) -> str:
    """A place's reason in the page's language ("före på poäng 4 mot 2"), as a parent reads it: a tie needs
    a decision only once the pool is ``complete``, and then says what it waits for ("a drawing of lots")
    without the standings' instruction to the organiser that the desk shows. The English text when the
    table has no phrases for it (a table rebuilt from published rows)."""
    phrases = table.reason_words.get(row.team)
    if phrases is None:
        return row.reason
    if isinstance(phrases, Phrase) and phrases.key in LEVEL_UNTIL_COMPLETE:
        if not complete:
            phrases = Phrase(LEVEL_UNTIL_COMPLETE[phrases.key], tuple(p for p in phrases.params if p[0] != "needs"))
        else:
            phrases = Phrase(phrases.key, tuple((name, _plain_need(value) if name == "needs" else value)
                                                for name, value in phrases.params))
    return reason_text(phrases, words)


def _plain_need(phrase: Words) -> Words:
    """What a tie waits for without the instruction to the organiser: the ``needed`` part of "{needed} (give the
    order as a decision with method '{method}')"; any other phrase as it is."""
    needed = dict(phrase.params).get("needed") if isinstance(phrase, Phrase) else None
    return phrase if needed is None else needed


def decided_by(words: gettext.NullTranslations, tie: Unresolved) -> str:
    """What a tie waits for, said to a parent: "a drawing of lots", without the standings' instruction to
    the organiser ("give the order as a decision with method 'lots'") that the desk shows."""
    if tie.needs_words is None:
        return needs_in(words, tie)
    return reason_text(_plain_need(tie.needs_words), words)


def needs_in(words: gettext.NullTranslations, waiting: Unresolved | Slot) -> str:
    """What a tie or an open slot still needs, in the page's language ("lottning (ange ordningen ...)",
    "resultatet i F"); its English text when it has no phrases."""
    if waiting.needs_words is None:
        return waiting.needs or ""
    return reason_text(waiting.needs_words, words)

"""The standings' reasons as data (message keys with their parameters) and their words in any language.

A reason ("level on 5 points; ahead on wins 1 vs 0") is built by :mod:`rules.standings` as a
tree: :class:`Phrase` (a catalog ``msgid`` with ``{placeholders}``, optionally counted with a
plural), :class:`Names` ("A, B and C") and :class:`Joined` (parts side by side with a fixed
separator). :func:`reason_text` turns a tree into words through a gettext catalog; with
English (:data:`ENGLISH`, the source language) it gives exactly the text the standings print,
which is how the English ``reason`` of a table row is made, so the two cannot drift apart.

>>> from rules.words import words_for
>>> ahead = Phrase("ahead on {criterion} {mine} vs {theirs}", (("criterion", Phrase("points")),
...                ("mine", "4"), ("theirs", "2")))
>>> reason_text(ahead)
'ahead on points 4 vs 2'
>>> reason_text(ahead, words_for("sv"))
'före på poäng 4 mot 2'
"""

from __future__ import annotations

import gettext
from typing import Union

from rules.record import Record

Words = Union[str, int, "Phrase", "Names", "Joined"]
"""A part of a reason: a literal (a team's name, a shown number such as "+3"), or a tree to word."""

ENGLISH = gettext.NullTranslations()
AND = "{first} and {last}"
"""How a list ends ("A, B and C"): the catalogs word the "and"."""


class Phrase(Record, kw_only=False):
    """A catalog message: ``key`` is the English ``msgid`` with ``{name}`` placeholders filled from
    ``params``; with ``plural`` set, ``key`` is the singular and ``n`` chooses the form (ngettext)."""

    key: str
    params: tuple[tuple[str, Words], ...] = ()
    plural: str | None = None
    n: int = 0


class Names(Record, kw_only=False):
    """Items named together: "A", "A and B", "A, B and C"."""

    items: tuple[Words, ...]


class Joined(Record, kw_only=False):
    """Parts side by side with a separator that is punctuation, the same in every language ("; ", " ")."""

    items: tuple[Words, ...]
    sep: str


def counted(template: Phrase, n: int, **params: Words) -> Phrase:
    """``template`` (a counted phrase such as "{n} point" / "{n} points") for the number ``n``."""
    return Phrase(template.key, (("n", n), *params.items()), template.plural, n)


def reason_text(words: Words, catalog: gettext.NullTranslations = ENGLISH) -> str:
    """The words of a reason (or any part of one) in ``catalog``'s language; English by default."""
    if isinstance(words, str):
        return words
    if isinstance(words, int):
        return str(words)
    if isinstance(words, Joined):
        return words.sep.join(reason_text(w, catalog) for w in words.items)
    if isinstance(words, Names):
        texts = [reason_text(w, catalog) for w in words.items]
        if len(texts) <= 1:
            return "".join(texts)
        return catalog.gettext(AND).format(first=", ".join(texts[:-1]), last=texts[-1])
    text = catalog.gettext(words.key) if words.plural is None else catalog.ngettext(words.key, words.plural, words.n)
    return text.format(**{name: reason_text(value, catalog) for name, value in words.params})


def keys_of(words: Words) -> set[tuple[str, str | None]]:
    """Every (msgid, msgid_plural) a tree uses, "and" included when it names two or more."""
    if isinstance(words, (str, int)):
        return set()
    if isinstance(words, Names):
        found = {(AND, None)} if len(words.items) > 1 else set()
        return found.union(*(keys_of(w) for w in words.items))
    if isinstance(words, Joined):
        return set().union(*(keys_of(w) for w in words.items))
    return {(words.key, words.plural)}.union(*(keys_of(v) for _, v in words.params))

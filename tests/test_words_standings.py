"""The standings' reasons (and what an open slot waits for) in the tournament's language: every
message key the code can produce is in the Swedish and Slovak catalogs with the same placeholders,
and English stays as printed."""

from __future__ import annotations

import ast
import string
from importlib import resources
from pathlib import Path

import pytest

from rules.ruleset import load_ruleset
from rules.standings import Decision, parse_results_csv, rank_pool, rank_pools
from rules.words import catalog_path, words_for
from rules.words.po import parse_po
from rules.words.standings import AND, Joined, Names, Phrase, Words, counted, keys_of, reason_text
from tests.standings_support import played, with_ranking

ROOT = Path(__file__).resolve().parent.parent
SOURCES = [*sorted((ROOT / "rules" / "standings").glob("*.py")), ROOT / "rules" / "words" / "standings.py",
           ROOT / "rules" / "tournament" / "progression.py", ROOT / "rules" / "tournament" / "ranking.py"]

Key = tuple[str, str | None]


def keys_in_code() -> set[Key]:
    """Every ``Phrase("...", plural="...")`` written in the standings' code, and the list's "and"."""
    found: set[Key] = {(AND, None)}
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Phrase"):
                continue
            first = node.args[0] if node.args else None
            if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
                continue  # a phrase rebuilt from another (counted()) has its key written where that one is
            plural = next((k.value for k in node.keywords if k.arg == "plural"), None)
            found.add((first.value, plural.value if isinstance(plural, ast.Constant) and isinstance(
                plural.value, str) else None))
    return found


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def test_the_code_has_the_keys_it_is_expected_to_have() -> None:
    keys = keys_in_code()
    assert ("ahead on {criterion} {mine} vs {theirs}", None) in keys
    assert ("{n} point", "{n} points") in keys
    assert len(keys) > 30


@pytest.mark.parametrize("lang", ["sv", "sk"])
def test_every_reason_key_is_translated_with_the_same_placeholders(lang: str) -> None:
    entries = {(e.msgid, e.msgid_plural): e for e in parse_po(catalog_path(lang).read_text("utf-8"), lang)
               if e.msgctxt is None}
    for key, plural in sorted(keys_in_code(), key=str):
        entry = entries.get((key, plural))
        assert entry is not None and entry.translated, f"{lang}: no translation of {key!r}"
        for form in entry.msgstr:
            assert placeholders(form) == placeholders(key), f"{lang}: {key!r} -> {form!r}"


def all_reasons() -> list[tuple[str, Words]]:
    """Reasons of every kind the standings write: the shipped examples, ties, decisions, a lone team."""
    found: list[tuple[str, Words]] = []
    csv = resources.files("rules.examples").joinpath("indoor-hockey-pools.csv").read_text(encoding="utf-8")
    for preset in ("indoor-hockey", "ice-hockey", "water-polo", "youth-football", "indoor-football"):
        ruleset = load_ruleset(preset)
        for table in rank_pools(ruleset, parse_results_csv(csv, "example")).pools.values():
            found += [(r.reason, table.reason_words[r.team]) for r in table.rows]
        method = next(c for c in ruleset.ranking.criteria if c in ("lots", "penalty_competition"))
        three = played("A", "X 1-1 Y", "Y 1-1 Z", "Z 1-1 X", "X 1-0 W", "Y 2-0 W", "Z 3-0 W")
        two = played("A", "X 2-2 Y")
        circle = played("A", "X 1-1 Y", "Y 1-1 Z", "Z 1-1 X")
        for results, order in ((three, ("Z", "Y", "X")), (two, ("Y", "X")), (two, ()), (circle, ())):
            decisions = [Decision(pool="A", method=method, order=order)] if order else []
            table = rank_pool(ruleset, "A", results, decisions=decisions)
            found += [(r.reason, table.reason_words[r.team]) for r in table.rows]
    no_decisions = with_ranking("youth-football", ["points"])
    for table in (rank_pool(no_decisions, "A", played("A", "X 2-2 Y")),
                  rank_pool(load_ruleset("youth-football"), "A", [], teams=["Solo"])):
        found += [(r.reason, table.reason_words[r.team]) for r in table.rows]
    return found


def test_the_english_reason_is_the_words_in_english_and_every_key_is_known() -> None:
    keys = keys_in_code()
    reasons = all_reasons()
    for english, words in reasons:
        assert reason_text(words) == english
        assert keys_of(words) <= keys
    texts = " ".join(english for english, _ in reasons)
    for kind in ("ahead on", "behind on", "level with", "needs", "among", "against", "BL 9.6.3", "only team",
                 "organiser's decision"):
        assert kind in texts


def test_a_reason_in_swedish_and_slovak() -> None:
    table = rank_pool(load_ruleset("indoor-hockey"), "A", played("A", "X 2-2 Y"))
    words = table.reason_words["X"]
    assert reason_text(words, words_for("sv")).startswith("lika med Y på 2 poäng, 0 vinster, målskillnad 0")
    assert "straffläggning" in reason_text(words, words_for("sv"))
    assert reason_text(words, words_for("sk")).startswith("rovnako s Y na 2 body, 0 víťazstiev, rozdiel gólov 0")


def test_plural_forms_follow_the_language() -> None:
    point = Phrase("{n} point", plural="{n} points")
    sk = words_for("sk")
    assert [reason_text(counted(point, n), sk) for n in (1, 3, 5)] == ["1 bod", "3 body", "5 bodov"]
    assert [reason_text(counted(point, n)) for n in (0, 1, 2)] == ["0 points", "1 point", "2 points"]


def test_lists_and_joins() -> None:
    teams = Names(("A", "B", "C"))
    assert reason_text(teams) == "A, B and C"
    assert reason_text(teams, words_for("sv")) == "A, B och C"
    assert reason_text(Joined((Names(("A",)), "x"), "; ")) == "A; x"

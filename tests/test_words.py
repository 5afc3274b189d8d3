"""The catalogs: every word the screen shows has a Swedish and a Slovak translation, with the same placeholders."""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest

from rules.errors import UnknownLanguage
from rules.words import LANGUAGES, board, catalog_path, normalise, words_for
from rules.words.po import parse_po

ROOT = Path(__file__).resolve().parents[1]
SOURCES = [*sorted((ROOT / "display").glob("*.py")), ROOT / "rules" / "words" / "board.py"]


def used_messages() -> set[tuple[str | None, str]]:
    """(context, msgid) of every literal passed to gettext/pgettext in the screen's code, and the sport words."""
    found: set[tuple[str | None, str]] = set()
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
                continue
            args = [a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None for a in node.args]
            if node.func.attr == "gettext" and args and args[0] is not None:
                found.add((None, args[0]))
            elif node.func.attr == "pgettext" and len(args) == 2 and args[0] is not None and args[1] is not None:
                found.add((args[0], args[1]))
    found |= {(None, m) for m in (*board._HALVES, *board._PERIODS, *board._SHOOTOUTS.values())}
    found |= {("round", m) for m in board._ROUNDS.values()}
    return found


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_the_scan_finds_the_screens_words() -> None:
    used = used_messages()
    assert {(None, "Half-time"), (None, "Time-out"), (None, "Final score"), ("table", "Pts"),
            ("round", "Semi-final"), (None, "Penalty shots")} <= used


@pytest.mark.parametrize("lang", [x for x in LANGUAGES if x != "en"])
def test_every_word_has_a_translation_with_the_same_placeholders(lang: str) -> None:
    entries = parse_po(catalog_path(lang).read_text(encoding="utf-8"), lang)
    catalog = {(e.msgctxt, e.msgid): e for e in entries if e.msgid}
    missing = sorted((c or "", m) for c, m in used_messages() if (c, m) not in catalog)
    assert missing == []
    for e in catalog.values():
        assert e.translated, (lang, e.msgid)
        assert fields(e.msgstr[0]) == fields(e.msgid), (lang, e.msgid, e.msgstr[0])
    w = words_for(lang)
    for c, m in used_messages():
        translated = w.pgettext(c, m) if c else w.gettext(m)
        assert translated == catalog[(c, m)].msgstr[0]


def test_language_codes_are_normalised_and_unknown_ones_refused() -> None:
    assert normalise("sv_SE.UTF-8") == "sv" and normalise("SK-sk") == "sk" and normalise(None) == "en"
    assert words_for("sv-SE").gettext("Break") == "Paus"
    assert words_for("en").gettext("Break") == "Break"
    with pytest.raises(UnknownLanguage, match=r"'de'.*en, sv, sk"):
        words_for("de")


def match_messages() -> set[str]:
    """The match's words (rules/words/state.py, rules/words/entered.py and the refusal templates) the table's
    feedback passes to ``_``."""
    from rules.match.refusals import ACTIONS, TEMPLATES
    from rules.words.entered import AT, IN, SHOTS, TARGETS
    from rules.words.state import APPLIED

    found = {*TEMPLATES.values(), *ACTIONS.values(), *APPLIED.values(), *TARGETS.values(), *SHOTS.values(), AT, IN}
    for path in (ROOT / "rules" / "words" / "state.py", ROOT / "rules" / "match" / "refusals.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "_" and node.args
                    and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                found.add(node.args[0].value)
    return found


@pytest.mark.parametrize("lang", [x for x in LANGUAGES if x != "en"])
def test_the_match_feedback_and_refusals_are_translated(lang: str) -> None:
    entries = parse_po(catalog_path(lang).read_text(encoding="utf-8"), lang)
    keys = [(e.msgctxt, e.msgid) for e in entries]
    assert len(keys) == len(set(keys)), "a message is in the catalog twice"
    plain = {e.msgid for e in entries if e.msgctxt is None and e.translated}
    assert sorted(match_messages() - plain) == []


def test_a_refusal_reads_in_the_tournaments_language() -> None:
    from rules.errors import IllegalCommand
    from rules.match import ClockStarted, Match
    from rules.ruleset import load_ruleset
    from rules.words.state import refusal_text

    match = Match(load_ruleset("indoor-hockey"))
    match.apply(ClockStarted(at=0, seq=1))
    with pytest.raises(IllegalCommand) as err:
        match.apply(ClockStarted(at=5, seq=2))
    assert refusal_text(err.value, words_for("sv").gettext) == "klockan går redan"
    assert refusal_text(err.value, words_for("sk").gettext) == "čas už beží"

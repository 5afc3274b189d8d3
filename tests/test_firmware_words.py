"""The table's own words (firmware/words.py): in the catalogues beside the engine's, and a Swedish table says
them in Swedish."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware.session import Recovery
from firmware.words import WORDS, table_text
from rules.words import LANGUAGES, catalog_path, words_for
from rules.words.po import parse_po
from tests.firmware_support import board


@pytest.mark.parametrize("lang", [x for x in LANGUAGES if x != "en"])
def test_every_word_of_the_table_is_translated(lang: str) -> None:
    # The placeholders of each translation are checked with the whole catalogue's (tests/test_words.py).
    translated = {e.msgid for e in parse_po(catalog_path(lang).read_text(encoding="utf-8"), lang)
                  if e.msgctxt is None and e.translated}
    assert sorted(set(WORDS.values()) - translated) == []


def _refused(b: object) -> list[str]:
    return [n.text for n in b.loop.notices if n.kind == "refused"]  # type: ignore[attr-defined]


def test_a_swedish_table_refuses_prompts_and_notes_in_swedish(tmp_path: Path) -> None:
    with board(tmp_path, rules="ice-hockey") as b:
        b.loop.screen.language = "sv"  # type: ignore[attr-defined]
        b.press("undo")
        assert _refused(b)[-1] == "inget att ångra"
        b.at(1.0)
        b.press("next")
        assert _refused(b)[-1] == ("matchen har inte börjat: START startar den; "
                                   "håll MODE för att hämta en annan match")
        b.at(2.0)
        b.press("clock_start")
        b.at(3.0)
        b.press("goal_home", length=2.0)  # hold: take off the last goal
        assert _refused(b)[-1] == "HEMMA har inget mål att ta bort"
        b.at(6.0)
        b.type("12")
        assert b.loop.view().prompt == "spelare #12 - MÅL eller UTVISNING tar den, ÅNGRA avbryter"
        b.at(7.0)
        b.press("penalty_away")
        assert b.loop.view().prompt == "BORTA #12 Mindre straff - MODE: nästa slag, NEXT bekräftar, UNDO avbryter"
        b.at(8.0)
        b.press("undo")
        assert b.loop.notices[-1].text == "avbrutet" and b.loop.view().prompt == ""


def test_an_english_table_says_them_as_written(tmp_path: Path) -> None:
    with board(tmp_path, rules="ice-hockey") as b:
        b.press("undo")
        assert _refused(b)[-1] == "nothing to undo"
        b.at(1.0)
        b.press("clock_start")
        b.at(2.0)
        b.press("goal_away", length=2.0)
        assert _refused(b)[-1] == "AWAY has no goal to take off"


def test_the_restart_notice_in_each_language() -> None:
    stopped = Recovery(down_s=12.4, stopped_clock_at="14:31", torn_line=False)
    assert stopped.notice() == ("table restarted after 12 s down; the clock was stopped at 14:31: press START to "
                                "go on, or correct it")
    assert stopped.notice(words_for("sv").gettext) == (
        "sekretariatet startade om efter 12 s avbrott; klockan stoppades på 14:31: tryck START för att fortsätta, "
        "eller rätta den")
    unknown = Recovery(down_s=None, stopped_clock_at=None, torn_line=False)
    assert unknown.notice(words_for("sk").gettext) == "stolík sa reštartoval po výpadku neznámej dĺžky; nič nebežalo"


def test_a_team_is_said_as_the_table_names_it_and_a_label_is_translated() -> None:
    sv = words_for("sv").gettext
    assert table_text("typing_length", sv, team="home", player="4", label="Major", minutes="5") == (
        "HEMMA #4 Större straff: längd 5 min - NEXT bekräftar")
    assert table_text("no_lengthening", team="away") == "AWAY has no penalty that can be lengthened"

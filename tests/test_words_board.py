"""The scoreboard's words in each sport's terms."""

from __future__ import annotations

from rules.ruleset import load_ruleset
from rules.words import words_for
from rules.words.board import duration, interval_title, period_title, result_how, round_title

EN, SV, SK = words_for("en"), words_for("sv"), words_for("sk")


def test_period_titles() -> None:
    hockey, polo, ice = load_ruleset("indoor-hockey"), load_ruleset("water-polo"), load_ruleset("ice-hockey")
    assert [period_title(EN, hockey, "regular", n) for n in (1, 2)] == ["1st half", "2nd half"]
    assert period_title(SK, polo, "regular", 3) == "3. štvrtina"
    assert period_title(SK, ice, "regular", 2) == "2. perióda"
    assert period_title(SV, hockey, "extra_time", 2) == "Förlängning 2"
    assert period_title(EN, hockey, "regular", 7) == "Period 7"
    assert period_title(SV, load_ruleset("youth-football"), "shootout", 1) == "Straffar"


def test_breaks() -> None:
    polo, ice = load_ruleset("water-polo"), load_ruleset("ice-hockey")
    assert [interval_title(EN, polo, p) for p in (1, 2, 3)] == ["Break", "Half-time", "Break"]
    assert interval_title(EN, ice, 1) == "Break"
    assert interval_title(SV, load_ruleset("indoor-hockey"), 1) == "Halvtid"
    assert interval_title(EN, load_ruleset("indoor-hockey"), 2) == "Break"  # before extra time


def test_results_and_rounds() -> None:
    hockey = load_ruleset("indoor-hockey")
    assert result_how(EN, hockey, "overtime", None, None) == "after golden goal"
    assert result_how(SK, hockey, "shootout", 4, 3) == "Trestné údery 4–3"
    assert result_how(EN, hockey, "regular", None, None) is None
    assert result_how(SV, hockey, "walkover", None, None) == "Walk over"
    assert round_title(SK, "semi_final") == "Semifinále"
    assert round_title(EN, "my_cup_round") == "my cup round"
    assert round_title(EN, None) is None


def test_duration() -> None:
    assert [duration(ms) for ms in (40_000, 420_000, 7_500_000)] == ["40 s", "7 min", "2 h 05 min"]

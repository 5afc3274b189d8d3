"""Reading a tournament file and its ruleset: the bytes, the TOML, the ruleset it points to."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.errors import RulesetError, TournamentError
from rules.ruleset import preset_text
from rules.tournament.loading import load_tournament, parse_tournament, read_tournament_file

EXAMPLES = Path(__file__).resolve().parent.parent / "rules" / "examples"
HOCKEY = (EXAMPLES / "indoor-hockey.toml").read_text(encoding="utf-8")


def test_load_tournament_gives_the_file_and_its_checked_ruleset() -> None:
    t, ruleset = load_tournament(EXAMPLES / "water-polo.toml")
    assert ruleset.name == t.ruleset == "water-polo"


def test_a_byte_order_mark_is_skipped(tmp_path: Path) -> None:
    path = tmp_path / "cup.toml"
    path.write_bytes(b"\xef\xbb\xbf" + HOCKEY.encode("utf-8"))
    assert read_tournament_file(path).name == parse_tournament(HOCKEY, "x").name


def test_a_file_that_is_not_utf8_is_refused_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "cup.toml"
    path.write_bytes(HOCKEY.encode("utf-8").replace("Köln".encode(), "Köln".encode("latin-1")))
    with pytest.raises(TournamentError) as caught:
        read_tournament_file(path)
    line = next(n for n, text in enumerate(HOCKEY.splitlines(), 1) if "Köln" in text)
    assert str(caught.value).startswith(f"{path}: line {line}: not UTF-8 text (byte 0xf6)")


def test_a_file_of_50_mb_is_refused_fast_with_the_limit(tmp_path: Path) -> None:
    path = tmp_path / "huge.toml"
    with open(path, "wb") as f:
        f.truncate(50 * 1024 * 1024)
    with pytest.raises(TournamentError, match=r"larger than 4,194,304 bytes"):
        read_tournament_file(path)  # reads at most the limit and one byte (rules.tomlfile.read_bytes)


def test_too_many_lines_are_refused_with_the_limit() -> None:
    with pytest.raises(TournamentError, match=r"100,001 lines; a file of this kind has at most 100,000"):
        parse_tournament("\n" * 100_000, "cup.toml")


@pytest.mark.parametrize(("text", "expected"), [
    ("x = " + "[" * 50_000 + "]" * 50_000, "nested too deeply"),
    ("name = " + "1" * 5000, "not valid TOML"),
    ("name = 'cup'\n[schedule]\nstart = 2026-01-17\n", "is a date; give the time too"),
    ("name = 'cup'\n[schedule]\nstart = 2026-01-17T09:00:00+01:00\n", "time-zone offset"),
])
def test_a_broken_file_is_a_clean_refusal(text: str, expected: str) -> None:
    with pytest.raises(TournamentError) as caught:
        parse_tournament(text, "cup.toml")
    assert expected in str(caught.value)


def test_a_ruleset_name_that_is_neither_preset_nor_file_names_the_key(tmp_path: Path) -> None:
    path = tmp_path / "cup.toml"
    path.write_text(HOCKEY.replace('ruleset = "indoor-hockey"', 'ruleset = "hockey"'), encoding="utf-8")
    with pytest.raises(TournamentError) as caught:
        load_tournament(path)
    assert caught.value.key == "ruleset" and "neither a preset" in caught.value.message


def test_a_ruleset_file_it_points_to_that_is_not_utf8_names_that_file(tmp_path: Path) -> None:
    (tmp_path / "mine.toml").write_bytes(preset_text("indoor-hockey").replace("x 20", "\u00d7 20").encode("cp1252"))
    path = tmp_path / "cup.toml"
    path.write_text(HOCKEY.replace('ruleset = "indoor-hockey"', 'ruleset = "mine.toml"'), encoding="utf-8")
    with pytest.raises(RulesetError) as caught:
        load_tournament(path)
    assert caught.value.source == str(tmp_path / "mine.toml") and "not UTF-8" in str(caught.value)


def test_a_misspelt_round_in_the_file_is_refused_on_load(tmp_path: Path) -> None:
    path = tmp_path / "cup.toml"
    path.write_text(HOCKEY.replace('round = "semi_final"', 'round = "semifinal"', 1), encoding="utf-8")
    with pytest.raises(TournamentError) as caught:
        load_tournament(path)
    assert caught.value.key.endswith("].round") and "did you mean 'semi_final'" in caught.value.message

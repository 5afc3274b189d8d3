"""Team sheets (rules.tournament.sheets): written in the tournament file or in a CSV of the team's own, and refused
with the file, the key or line and the reason when a number is worn twice, a name is not plain text or a sheet
is longer than a team can be."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.errors import FileLineError, TournamentError
from rules.tournament.cup import parse_cup
from rules.tournament.sheets import MAX_OFFICIALS, MAX_PLAYERS, parse_sheet_csv, team_sheets

EXAMPLES = Path(__file__).resolve().parent.parent / "rules" / "examples"


def _cup(teams: str, extra: str = "") -> str:
    return f'''name = "Cup"
ruleset = "ice-hockey"
{extra}
[schedule]
start = "2026-04-11T07:00"
courts = ["Rink"]
[[pools]]
name = "A"
teams = ["Wolves", "Bears"]
{teams}
'''


def test_the_ice_hockey_examples_sheets_one_in_the_file_one_in_a_csv_of_its_own() -> None:
    cup = parse_cup((EXAMPLES / "ice-hockey.toml").read_text(encoding="utf-8"), str(EXAMPLES / "ice-hockey.toml"))
    sheets = team_sheets(cup, str(EXAMPLES / "ice-hockey.toml"))
    assert sorted(sheets) == ["Bears AA", "Wolves AA"]
    wolves, bears = sheets["Wolves AA"], sheets["Bears AA"]
    assert wolves.name_of("13") == "Hugo Ekström" and wolves.officials == ("Maria Lindqvist",)
    assert bears.name_of("91") == "Albin Karlsson" and bears.officials == ("Johan Persson",)
    assert bears.name_of("99") is None and bears.name_of(None) is None and len(bears.players) == 6


def test_a_number_worn_twice_in_the_file_is_refused_naming_both(tmp_path: Path) -> None:
    text = _cup('[[teams]]\nname = "Wolves"\nplayers = [{number = 7, name = "A B"}, {number = 7, name = "C D"}]\n'
                '[[teams]]\nname = "Bears"\n')
    with pytest.raises(TournamentError) as refused:
        team_sheets(parse_cup(text, "cup.toml"), "cup.toml")
    assert str(refused.value) == (
        "cup.toml: teams[0].players[1].number: #7 is already teams[0].players[0]: a number is worn once")


def test_a_sheet_file_and_players_in_the_file_for_one_team_are_refused(tmp_path: Path) -> None:
    text = _cup('[[teams]]\nname = "Wolves"\nsheet = "w.csv"\nofficials = ["X Y"]\n[[teams]]\nname = "Bears"\n')
    with pytest.raises(TournamentError, match=r"teams\[0\]\.sheet: a sheet file, or players and officials"):
        team_sheets(parse_cup(text, "cup.toml"), "cup.toml")


def test_a_name_with_a_control_character_in_the_file_is_refused_by_its_key() -> None:
    text = _cup('[[teams]]\nname = "Wolves"\nplayers = [{number = 7, name = "A\\u0007B"}]\n[[teams]]\nname = "Bears"\n')
    with pytest.raises(TournamentError, match=r"teams\[0\]\.players\[0\]\.name: .*control character U\+0007"):
        parse_cup(text, "cup.toml")


@pytest.mark.parametrize(("text", "line", "reason"), [
    ("number,name\n7,Anna\n8,Bo\n7,Cilla\n", 4, "#7 is already on line 2: a number is worn once"),
    ("number,name\n7,An\tna\n", 2, "contains the control character U+0009"),
    ("number,name\nseven,Anna\n", 2, "number 'seven' is not a shirt number"),
    ("number,name\n7,\n", 2, "the name is missing"),
    ("number,name,role\n,Coach,trainer\n", 2, "role 'trainer' is not player or official"),
    ("name,number\n7,Anna\n", 1, "the header must be number,name"),
    ("number,name\n7,Anna,extra\n", 2, "more cells than the header has columns"),
])
def test_a_faulty_sheet_csv_is_refused_at_its_line(text: str, line: int, reason: str) -> None:
    with pytest.raises(FileLineError) as refused:
        parse_sheet_csv(text, "bears.csv", "Bears")
    assert refused.value.line == line and reason in str(refused.value) and "bears.csv" in str(refused.value)


def test_a_sheet_longer_than_a_team_is_refused_and_a_missing_file_names_it(tmp_path: Path) -> None:
    rows = "".join(f"{n},Player {n}\n" for n in range(1, MAX_PLAYERS + 2))
    with pytest.raises(FileLineError, match=f"at most {MAX_PLAYERS} players"):
        parse_sheet_csv("number,name\n" + rows, "big.csv", "Big")
    staff = "".join(f",Coach {n},official\n" for n in range(1, MAX_OFFICIALS + 2))
    with pytest.raises(FileLineError) as refused:
        parse_sheet_csv("number,name,role\n" + staff, "staff.csv", "Staff")
    assert refused.value.line == MAX_OFFICIALS + 2 and f"at most {MAX_OFFICIALS} officials" in str(refused.value)
    text = _cup('[[teams]]\nname = "Wolves"\nsheet = "gone.csv"\n[[teams]]\nname = "Bears"\n')
    with pytest.raises(FileLineError, match=r"gone\.csv"):
        team_sheets(parse_cup(text, str(tmp_path / "cup.toml")), str(tmp_path / "cup.toml"))

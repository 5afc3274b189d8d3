"""A cup's classes read from a tournament file: each a tournament of its own, named uniquely across the cup."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from rules.errors import TournamentError
from rules.tournament.cup import load_cup, parse_cup, read_cup_file, validate_cup

EXAMPLES = Path(__file__).resolve().parent.parent / "rules" / "examples"
CUP = EXAMPLES / "youth-cup.toml"


def cup_data() -> dict[str, Any]:
    with CUP.open("rb") as f:
        return tomllib.load(f)


def refused(data: dict[str, Any]) -> TournamentError:
    with pytest.raises(TournamentError) as caught:
        validate_cup(data, "cup.toml")
    return caught.value


def test_the_example_cup_has_four_classes_each_a_tournament_of_its_own() -> None:
    cup, rulesets = load_cup(CUP)
    assert cup.has_classes and [c.name for c in cup] == ["P10", "F10", "P13", "F13"]
    assert {c.name: c.published for c in cup} == {"P10": False, "F10": False, "P13": True, "F13": True}
    p10, p13 = cup.class_named("P10"), cup.class_named("P13")
    assert p10 is not None and p13 is not None
    # Each class's own courts, slot and ruleset; the cup's days and breaks hold for all.
    assert p10.tournament.schedule.courts == ["7v7 Plan 1", "7v7 Plan 2"]
    assert p13.tournament.schedule.courts == ["11v11 Plan 3", "11v11 Plan 4", "11v11 Plan 5"]
    assert p10.tournament.schedule.slot == 40 * 60_000 and p13.tournament.schedule.slot == 50 * 60_000
    assert p10.tournament.schedule.breaks == cup.schedule.breaks
    assert rulesets["P10"].match.period_length == 15 * 60_000 and rulesets["P13"].name == "youth-football"
    # A stage or a team names its class.
    assert cup.class_of_stage("P13-AF") is p13 and cup.class_of_stage("P10-A") is p10
    assert cup.class_of_stage("A") is None and cup.published("P13-AF") and not cup.published("P10-A")
    # A result or a decision belongs to the class of the stage it names; one naming no class's stage to every
    # class, whose progress says what is wrong with it.
    assert cup.owns(p13, "P13-A") and not cup.owns(p10, "P13-A") and cup.owns(p10, "Z") and cup.owns(p13, "Z")


def test_a_file_without_classes_is_a_cup_of_one_unnamed_class() -> None:
    path = EXAMPLES / "indoor-hockey.toml"
    cup = read_cup_file(path)
    assert not cup.has_classes and [c.name for c in cup] == [""]
    only = cup.classes[0]
    assert only.published and only.tournament.name == cup.name and cup.schedule == only.tournament.schedule
    assert parse_cup(path.read_text(encoding="utf-8"), str(path)) == cup
    assert cup.owns(only, "A") and cup.owns(only, "no such pool")


def test_a_stage_name_two_classes_use_is_refused_with_a_name_that_would_do() -> None:
    data = cup_data()
    data["classes"][1]["pools"][0]["name"] = "P10-A"
    err = refused(data)
    assert err.key == "classes[1] (F10).pools[0].name"
    assert "'P10-A' is also a stage of class P10" in err.message and "F10-P10-A" in err.message


def test_a_team_in_two_classes_is_refused() -> None:
    data = cup_data()
    data["classes"][1]["teams"][0]["name"] = "Hällby IF P10"
    data["classes"][1]["pools"][0]["teams"][0] = "Hällby IF P10"
    err = refused(data)
    assert err.key == "classes[1] (F10).teams[0].name" and "also plays in class P10" in err.message


def test_a_class_named_twice_and_a_court_the_venue_lacks_are_refused() -> None:
    data = cup_data()
    data["classes"][1]["name"] = "P10"
    assert "class 'P10' is declared twice" in refused(data).message
    data = cup_data()
    data["classes"][0]["courts"] = ["7v7 Plan 1", "Plan 9"]
    err = refused(data)
    assert err.key == "classes[0] (P10).courts" and "'Plan 9' is not one of schedule.courts" in err.message


def test_a_class_error_names_the_class_and_the_key_inside_it() -> None:
    data = cup_data()
    data["classes"][2]["matches"][0]["home"] = "1 P13-Z"
    err = refused(data)
    assert err.key.startswith("classes[2] (P13).matches[0]") and "P13-Z" in err.message


def test_the_cup_keys_hold_for_every_class() -> None:
    data = cup_data()
    data["classes"][0]["schedule"] = {"start": "2026-06-13T08:00", "courts": ["x"]}
    assert "the cup's schedule holds for every class" in refused(data).message
    data = cup_data()
    data["teams"] = []
    err = refused(data)
    assert err.key == "teams" and "under its [[classes]]" in err.message
    data = cup_data()
    data["classes"] = []
    assert refused(data).key == "classes"
    data = cup_data()
    data["classes"][0]["name"] = "P 10"
    assert refused(data).key == "classes[0].name"


def test_a_class_slot_shorter_than_its_match_is_refused_with_the_numbers(tmp_path: Path) -> None:
    text = CUP.read_text(encoding="utf-8").replace('slot = "40:00"                           # 2 x 15 min',
                                                   'slot = "30:00"                           # 2 x 15 min', 1)
    path = tmp_path / "youth-cup.toml"
    path.write_text(text, encoding="utf-8")
    (tmp_path / "youth-cup-7v7-rules.toml").write_text((EXAMPLES / "youth-cup-7v7-rules.toml").read_text("utf-8"),
                                                      encoding="utf-8")
    with pytest.raises(TournamentError) as caught:
        load_cup(path)
    assert caught.value.key == "classes[0] (P10).schedule.slot"
    assert "30:00 is shorter than the shortest football match" in caught.value.message

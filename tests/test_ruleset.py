"""Rulesets: the five presets load with the seeds' numbers, and wrong files are refused clearly."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from rules.errors import CourtsideError, RulesetError, UnknownRuleset
from rules.ruleset import PRESETS, load_ruleset, parse_ruleset, preset_text, read_ruleset_file

MIN = 60_000


def preset_data(name: str) -> dict[str, Any]:
    return tomllib.loads(preset_text(name))


def problems_of(data: dict[str, Any]) -> list[tuple[str, str]]:
    with pytest.raises(RulesetError) as caught:
        parse_ruleset(data, "my.toml")
    assert caught.value.source == "my.toml"
    return caught.value.problems


@pytest.mark.parametrize("name", PRESETS)
def test_every_preset_loads_and_names_itself(name: str) -> None:
    ruleset = load_ruleset(name)
    assert ruleset.name == name
    assert ruleset.ranking.criteria[0] == "points"


@pytest.mark.parametrize("name", PRESETS)
def test_every_setting_of_a_preset_carries_a_comment_naming_its_rule(name: str) -> None:
    # Each preset is read by organisers: a bare setting with no rule named is a defect.
    lines = preset_text(name).splitlines()
    bare = []
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if not stripped or stripped.startswith(("#", "[")) or "=" not in stripped:
            continue
        key = stripped.split("=", 1)[0].strip()
        if key in {"name", "sport", "source", "description", "label", "short", "note", "period_name"}:
            continue
        previous = lines[number - 2].strip() if number > 1 else ""
        if "#" not in line and not previous.startswith("#"):
            bare.append(f"{name}.toml:{number}: {stripped}")
    assert bare == []


def test_indoor_hockey_follows_seed_000() -> None:
    r = load_ruleset("indoor-hockey")
    assert (r.match.periods, r.match.period_length, r.match.intervals) == (2, 20 * MIN, [5 * MIN])
    assert r.match.overtime is not None and r.match.overtime.kind == "golden_goal"
    assert r.match.overtime.period_length == 5 * MIN
    assert (r.points.win, r.points.draw, r.points.loss) == (5, 2, 0)
    assert [r.points.for_loss(m) for m in (1, 2, 3, 7)] == [1, 1, 0, 0]
    assert r.penalty("green").length == 1 * MIN
    assert r.penalty("yellow").length == 3 * MIN and r.penalty("yellow").minimum
    assert r.penalty("red").player_out_for_match
    assert (r.timeouts.per_team, r.timeouts.per, r.timeouts.carry_over, r.timeouts.in_overtime) == (1, "half", False, 1)
    assert set(r.timeouts.not_during) == {"penalty_corner", "penalty_stroke"}


def test_water_polo_follows_seed_001_and_the_readme_reading_of_its_shoot_out() -> None:
    r = load_ruleset("water-polo")
    assert (r.match.periods, r.match.period_length) == (4, 7 * MIN)
    assert r.match.intervals == [1 * MIN, 2 * MIN, 1 * MIN]
    assert r.match.stopped_time and r.match.overtime is None
    assert r.match.shootout is not None
    assert (r.match.shootout.rounds, r.match.shootout.sudden_death) == ([3, 5], True)
    assert r.match.possession_clock is not None
    assert (r.match.possession_clock.length, r.match.possession_clock.reset_length) == (30_000, 20_000)
    assert r.timeouts.only_in_rounds == ["semi_final", "final"]
    assert r.penalty("exclusion").length == 20_000 and r.penalty("exclusion").ends_on_goal == "any"
    assert r.penalty("brutality").suspended_next_matches == 1
    assert (r.points.win, r.points.draw, r.points.loss) == (2, 1, 0)
    assert r.ranking.criteria == ["points", "bl_9_6_3", "penalty_competition"]


def test_indoor_football_youth_football_and_ice_hockey_follow_their_seeds() -> None:
    football = load_ruleset("indoor-football")
    assert (football.match.period_length, football.match.intervals) == (10 * MIN, [1 * MIN])
    assert football.match.shootout is not None and football.match.shootout.rounds == [3]
    assert football.penalty("sin_bin").length == 2 * MIN and football.penalty("sin_bin").ends_on_goal == "never"

    youth = load_ruleset("youth-football")
    assert (youth.points.win, youth.points.draw, youth.points.walkover_score) == (3, 1, (3, 0))
    assert youth.ranking.criteria == ["points", "goal_difference", "goals_for", "head_to_head", "lots"]
    assert youth.match.shootout is not None and youth.match.shootout.rounds == [5]
    assert youth.penalty("red").suspended_next_matches == 1
    assert youth.penalty("yellow").escalates_to == "red" and youth.penalty("yellow").escalates_after == 2

    ice = load_ruleset("ice-hockey")
    assert (ice.match.periods, ice.match.period_length, ice.match.wall_clock_cap) == (2, 15 * MIN, 45 * MIN)
    assert ice.penalties.max_reducing_per_team == 2
    assert [ice.penalty(k).length for k in ("minor", "major", "misconduct", "game_misconduct")] == [
        2 * MIN,
        5 * MIN,
        10 * MIN,
        20 * MIN,
    ]
    assert ice.penalty("minor").ends_on_goal == "against"
    assert not ice.penalty("misconduct").reduces_strength
    assert ice.points.forfeit_score == (5, 0)


def test_players_on_the_field_follow_each_sport() -> None:
    # FIH indoor: 6 incl. goalkeeper; water polo: 7 incl. goalkeeper; seed 002: "Four players
    # per team on pitch"; seed 004: "5 vs 5" skaters; seed 003 does not say (age-dependent).
    on_field = {name: load_ruleset(name).match.on_field for name in PRESETS}
    assert on_field == {
        "indoor-hockey": 6, "water-polo": 7, "indoor-football": 4, "youth-football": None, "ice-hockey": 5,
    }


def test_players_on_the_field_must_be_at_least_one() -> None:
    data = preset_data("indoor-football")
    data["match"]["on_field"] = 0
    assert [key for key, _ in problems_of(data)] == ["match.on_field"]


def test_durations_read_as_seconds_or_minutes_and_seconds() -> None:
    data = preset_data("indoor-football")
    data["match"]["period_length"] = "12:30"
    data["match"]["intervals"] = [90]
    r = parse_ruleset(data, "x")
    assert r.match.period_length == 750_000
    assert r.match.intervals == [90_000]


def test_an_unknown_key_is_named_with_its_path() -> None:
    data = preset_data("indoor-hockey")
    data["match"]["halftime"] = "5:00"
    assert problems_of(data) == [("match.halftime", "unknown key")]


def test_a_wrong_type_is_named_with_its_path() -> None:
    data = preset_data("ice-hockey")
    data["penalties"]["max_reducing_per_team"] = "two"
    (key, message), *_ = problems_of(data)
    assert key == "penalties.max_reducing_per_team"
    assert "integer" in message


def test_a_negative_duration_is_refused() -> None:
    data = preset_data("indoor-football")
    data["penalties"]["kinds"]["sin_bin"]["length"] = -120
    (key, message), *_ = problems_of(data)
    assert key == "penalties.kinds.sin_bin.length"
    assert "negative" in message


def test_a_ranking_criterion_that_does_not_exist_is_refused() -> None:
    data = preset_data("youth-football")
    data["ranking"]["criteria"] = ["points", "goal_average"]
    (key, message), *_ = problems_of(data)
    assert key == "ranking.criteria[1]"
    assert "'goal_average' is not one of the allowed values" in message


def test_points_that_make_a_loss_worth_more_than_a_draw_are_refused() -> None:
    data = preset_data("water-polo")
    data["points"]["loss"] = 2
    (key, message), *_ = problems_of(data)
    assert key == "points"
    assert "loss <= draw <= win" in message

    data = preset_data("indoor-hockey")
    data["points"]["loss_bands"] = [{"max_margin": 2, "points": 3}]
    (key, message), *_ = problems_of(data)
    assert "more than a draw" in message


def test_a_decision_criterion_must_come_last() -> None:
    data = preset_data("indoor-football")
    data["ranking"]["criteria"] = ["points", "lots", "goal_difference"]
    (key, message), *_ = problems_of(data)
    assert key == "ranking" and "lots" in message


def test_intervals_must_fit_the_periods() -> None:
    data = preset_data("water-polo")
    data["match"]["intervals"] = ["1:00", "2:00"]
    (key, message), *_ = problems_of(data)
    assert key == "match" and "4 periods need 3" in message


def test_a_knockout_that_can_never_be_decided_is_refused() -> None:
    data = preset_data("indoor-football")
    del data["match"]["shootout"]
    (_, message), *_ = problems_of(data)
    assert "overtime or a shootout" in message


def test_every_problem_is_reported_at_once() -> None:
    data = preset_data("indoor-hockey")
    data["match"]["halftime"] = 5
    data["points"]["win"] = "five"
    keys = [key for key, _ in problems_of(data)]
    assert "match.halftime" in keys and "points.win" in keys


def test_a_file_that_is_not_toml_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text("[match\nperiods = 2\n")
    with pytest.raises(RulesetError, match=r"broken\.toml: not valid TOML"):
        read_ruleset_file(path)


def test_an_unknown_name_is_neither_preset_nor_file() -> None:
    with pytest.raises(UnknownRuleset, match="neither a preset"):
        load_ruleset("basketball")
    with pytest.raises(CourtsideError):
        preset_text("basketball")


def test_errors_also_subclass_builtins() -> None:
    assert issubclass(RulesetError, ValueError)
    assert issubclass(UnknownRuleset, LookupError)

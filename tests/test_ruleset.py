"""Rulesets: the five presets load with the seeds' numbers, and wrong files are refused clearly."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from rules.errors import CourtsideError, RulesetError, UnknownRuleset
from rules.ruleset import (
    PRESETS,
    load_ruleset,
    parse_ruleset,
    preset_text,
    read_ruleset_file,
    ruleset_digest,
    ruleset_settings,
)

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


# --- round names -----------------------------------------------------------------------------

def test_rounds_have_a_stage_and_a_final_is_a_knockout() -> None:
    from rules.ruleset import round_names, stage_of_round

    polo = load_ruleset("water-polo")
    assert {"pool", "quarter_final", "semi_final", "final"} <= set(round_names(polo))
    assert stage_of_round(polo, "final") == "knockout"
    assert stage_of_round(polo, "pool") == "round_robin"


@pytest.mark.parametrize(("typed", "meant"), [("semifinal", "semi_final"), ("Semi Final", "semi_final"),
                                              ("quarterfinal", "quarter_final"), ("finale", "final")])
def test_a_misspelt_round_is_refused_with_the_names_it_could_be(typed: str, meant: str) -> None:
    from rules.errors import UnknownRound
    from rules.ruleset import check_round

    with pytest.raises(UnknownRound) as caught:
        check_round(load_ruleset("water-polo"), typed)
    assert f"did you mean '{meant}'" in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_a_ruleset_may_name_its_own_rounds_and_its_round_rules_must_use_them() -> None:
    data = preset_data("water-polo")
    data["rounds"] = {"group": "round_robin", "semi_final": "knockout", "gold_medal_match": "knockout"}
    data["timeouts"]["only_in_rounds"] = ["semi_final", "gold_medal_match"]
    assert list(parse_ruleset(data, "x").rounds) == ["group", "semi_final", "gold_medal_match"]
    data["timeouts"]["only_in_rounds"] = ["semi_final", "final"]
    (key, message), *_ = problems_of(data)
    assert key == "" and "'final'" in message and "gold_medal_match" in message
    data["rounds"] = {"semi_final": "knock-out"}
    assert [key for key, _ in problems_of(data)] == ["rounds.semi_final"]


# --- the digest ------------------------------------------------------------------------------

def test_the_digest_follows_the_settings_not_the_spelling() -> None:
    from rules.ruleset import ruleset_digest

    data = preset_data("indoor-hockey")
    same = preset_data("indoor-hockey")
    same["match"]["period_length"] = 1200  # "20:00" written as seconds
    digest = ruleset_digest(parse_ruleset(data, "a"))
    assert len(digest) == 64 and digest == ruleset_digest(load_ruleset("indoor-hockey"))
    assert ruleset_digest(parse_ruleset(same, "b")) == digest
    data["points"]["win"] = 3
    assert ruleset_digest(parse_ruleset(data, "c")) != digest


def test_every_preset_has_its_own_digest() -> None:
    from rules.ruleset import ruleset_digest

    assert len({ruleset_digest(load_ruleset(name)) for name in PRESETS}) == len(PRESETS)


# --- bad values, each refused with its key --------------------------------------------------

@pytest.mark.parametrize("value", [float("inf"), float("nan"), "inf", "nan", "1e400", -0.5, 86_401, "1441:00"])
def test_a_duration_that_no_match_has_is_refused(value: Any) -> None:
    data = preset_data("indoor-football")
    data["match"]["period_length"] = value
    assert [key for key, _ in problems_of(data)] == ["match.period_length"]


@pytest.mark.parametrize(("where", "value"), [
    (("match", "periods"), 11), (("match", "periods"), 10**30), (("points", "win"), 101),
    (("ranking", "meetings"), 11), (("timeouts", "per_team"), 11), (("match", "periods"), True),
    (("match", "on_field"), 31), (("match", "late_press_grace"), 61),
])
def test_numbers_beyond_any_real_match_are_refused(where: tuple[str, str], value: Any) -> None:
    data = preset_data("indoor-hockey")
    data[where[0]][where[1]] = value
    assert [key for key, _ in problems_of(data)] == [".".join(where)]


@pytest.mark.parametrize("label", ["", "Green\x00card", "Green\x1bcard", "x" * 101])
def test_labels_must_be_plain_text(label: str) -> None:
    data = preset_data("indoor-hockey")
    data["penalties"]["kinds"]["green"]["label"] = label
    assert [key for key, _ in problems_of(data)] == ["penalties.kinds.green.label"]


def test_a_wrong_shape_is_named_not_a_traceback() -> None:
    data = preset_data("indoor-hockey")
    data["match"] = [1, 2]
    data["penalties"]["kinds"] = {"green": "one minute"}
    data["points"]["walkover_score"] = [5]
    keys = [key for key, _ in problems_of(data)]
    assert sorted(keys) == ["match", "penalties.kinds.green", "points.walkover_score"]


# --- the file itself -------------------------------------------------------------------------

def test_a_byte_order_mark_is_skipped(tmp_path: Path) -> None:
    path = tmp_path / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbf" + preset_text("ice-hockey").encode("utf-8"))
    assert read_ruleset_file(path).name == "ice-hockey"


def test_text_that_is_not_utf8_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "latin1.toml"
    path.write_bytes(preset_text("ice-hockey").replace('sport = "ice hockey"', 'sport = "ishockey \xe5"')
                     .encode("latin-1", errors="replace"))
    with pytest.raises(RulesetError) as caught:
        read_ruleset_file(path)
    line = next(n for n, text in enumerate(preset_text("ice-hockey").splitlines(), 1) if text.startswith("sport"))
    assert f"line {line}: not UTF-8 text (byte 0xe5)" in str(caught.value)


@pytest.mark.parametrize(("text", "expected"), [
    ("periods = " + "9" * 5000, "not valid TOML"),
    ("x = " + "[" * 50_000 + "]" * 50_000, "nested too deeply"),
    ("#\n" * 6000, "6,001 lines"),
])
def test_a_file_no_ruleset_looks_like_is_refused_with_the_reason(tmp_path: Path, text: str, expected: str) -> None:
    path = tmp_path / "odd.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RulesetError) as caught:
        read_ruleset_file(path)
    assert str(caught.value).startswith(f"{path}: ") and expected in str(caught.value)


def test_a_file_too_large_is_refused_without_reading_it_all(tmp_path: Path) -> None:
    path = tmp_path / "big.toml"
    with open(path, "wb") as f:
        f.truncate(50 * 1024 * 1024)  # 50 MB of zeros, sparse: reading it all would be the bug
    with pytest.raises(RulesetError, match=r"larger than 262,144 bytes"):
        read_ruleset_file(path)


def test_a_missing_file_names_the_file(tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match="cannot read the file"):
        read_ruleset_file(tmp_path / "none.toml")


@pytest.mark.parametrize("name", PRESETS)
def test_every_preset_states_what_the_mutual_matches_count(name: str) -> None:
    # seed 003's "c) Inbördes möten" and the seeds README's "head-to-head" name no measure: each
    # preset says which reading it takes (points only keeps every table printed so far)
    assert load_ruleset(name).ranking.mutual == "points"
    assert any(line.startswith("mutual = ") and "#" in line for line in preset_text(name).splitlines())


def test_mutual_matches_counting_goals_cannot_also_list_the_goal_criteria() -> None:
    data = preset_data("ice-hockey")
    data["ranking"]["mutual"] = "points_goal_difference_goals"
    (key, message), *_ = problems_of(data)
    assert key == "ranking" and "'head_to_head_goal_difference'" in message and "count them again" in message
    data["ranking"]["mutual"] = "goals"
    (key, message), *_ = problems_of(data)
    assert key == "ranking.mutual"


def test_fair_play_needs_both_the_criterion_and_its_points() -> None:
    data = preset_data("youth-football")
    data["ranking"]["criteria"] = ["points", "goal_difference", "fair_play", "lots"]
    (key, message), *_ = problems_of(data)
    assert key == "ranking" and "[ranking.fair_play]" in message
    data["ranking"]["fair_play"] = {"cards": {"yellow": 1, "red": 3}, "officials": False}
    assert parse_ruleset(data, "my.toml").ranking.fair_play is not None
    data["ranking"]["fair_play"] = {"cards": {}}
    (key, _), *_ = problems_of(data)
    assert key == "ranking.fair_play.cards"


def test_the_new_ranking_settings_leave_stored_digests_alone_until_used() -> None:
    ruleset = load_ruleset("youth-football")
    assert "mutual" not in ruleset_settings(ruleset)["ranking"]
    counted = ruleset.replace(ranking=ruleset.ranking.replace(mutual="points_goal_difference_goals"))
    assert ruleset_digest(counted) != ruleset_digest(ruleset)


def test_the_estimate_of_the_stoppages_plays_no_part_in_the_digest() -> None:
    """It checks a tournament's slot only: a journal written before it existed still names its preset."""
    ruleset = load_ruleset("water-polo")
    assert ruleset.match.stoppages == 120_000
    other = ruleset.replace(match=ruleset.match.replace(stoppages=0))
    assert ruleset_digest(other) == ruleset_digest(ruleset)
    assert ruleset_digest(ruleset.replace(match=ruleset.match.replace(period_length=480_000))) != \
        ruleset_digest(ruleset)

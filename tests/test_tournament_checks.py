"""Cross-references of a tournament file: names that exist, no team in two places, rounds the ruleset knows."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from rules.errors import TournamentError
from rules.ruleset import load_ruleset
from rules.tournament.checks import check_against_ruleset
from rules.tournament.loading import validate_tournament

BASE: dict[str, Any] = {
    "name": "Test cup",
    "ruleset": "indoor-hockey",
    "teams": [{"name": n, "club": n} for n in ("Ka", "Kb", "Kc", "La", "Lb", "Lc", "Ma", "Mb", "Mc")],
    "schedule": {"start": "2026-01-17T09:00", "courts": ["Hall 1", "Hall 2"], "slot": "55:00"},
    "pools": [
        {"name": "A", "teams": ["Ka", "Kb", "Kc"]},
        {"name": "B", "teams": ["La", "Lb", "Lc"]},
        {"name": "C", "teams": ["Ma", "Mb", "Mc"]},
    ],
    "matches": [
        {"name": "SF1", "home": "1A", "away": "best 2nd", "round": "semi_final"},
        {"name": "SF2", "home": "1B", "away": "1C", "round": "semi_final"},
        {"name": "F", "home": "winner SF1", "away": "winner SF2", "round": "final"},
    ],
}


def refused(change: Any) -> TournamentError:
    data = copy.deepcopy(BASE)
    change(data)
    with pytest.raises(TournamentError) as caught:
        validate_tournament(data, "cup.toml")
    return caught.value


def test_the_base_file_is_valid() -> None:
    assert validate_tournament(copy.deepcopy(BASE), "cup.toml").match("F") is not None


def test_a_best_first_beside_the_first_it_may_be_is_refused() -> None:
    # "best 1st" may turn out to be 1A's team: one team would be in SF1 and SF2 at once.
    err = refused(lambda d: d["matches"][1].update(away="best 1st"))
    assert err.key == "matches[0].home"
    assert "'1A' may be the same team as 'best 1st' (matches[1].away)" in err.message


def test_a_qualifier_slot_by_pools_beside_a_place_of_one_of_its_pools_is_refused() -> None:
    def change(d: dict[str, Any]) -> None:
        d["matches"][0].update(home="2A", away="1B")
        d["matches"][1].update(home="1A", away="2B/C")
        d["matches"].append({"name": "P", "home": "2C", "away": "3A", "round": "placement"})

    err = refused(change)
    assert err.key == "matches[3].home" and "'2B/C'" in err.message


def test_a_ranking_that_names_the_same_placeholder_twice_is_refused() -> None:
    err = refused(lambda d: d.update(rankings=[{"name": "R", "teams": ["3A", "3B", "3 A"]}]))
    assert err.key == "rankings[0].teams[2]" and "named twice" in err.message


@pytest.mark.parametrize(("name", "why"), [
    ("", "must not be empty"), ("Ka\x00", "U+0000"), (" Ka", "spaces at either end"), ("K\u0085a", "U+0085"),
])
def test_a_team_name_must_be_plain_text(name: str, why: str) -> None:
    err = refused(lambda d: d["teams"][0].update(name=name))
    assert err.key == "teams[0].name" and why in err.message


def test_a_clock_time_with_a_time_zone_offset_is_refused() -> None:
    from datetime import datetime, timedelta, timezone

    at = datetime(2026, 1, 17, 9, 0, tzinfo=timezone(timedelta(hours=1)))  # what TOML's 09:00:00+01:00 gives
    err = refused(lambda d: d["schedule"].update(start=at))
    assert err.key == "schedule.start" and "time-zone offset" in err.message
    err = refused(lambda d: d["schedule"].update(start="2026-01-17T09:00+01:00"))
    assert "time-zone offset" in err.message


@pytest.mark.parametrize("start", ["9999-12-31T23:00", "1899-01-01T09:00", "2026-13-01T09:00"])
def test_dates_no_tournament_has_are_refused(start: str) -> None:
    err = refused(lambda d: d["schedule"].update(start=start))
    assert err.key == "schedule.start"


@pytest.mark.parametrize("slot", ["inf", "nan", float("inf"), "1e400", 86_401, -60])
def test_a_slot_no_match_has_is_refused(slot: Any) -> None:
    err = refused(lambda d: d["schedule"].update(slot=slot))
    assert err.key == "schedule.slot"


def test_a_duration_as_text_says_which_minutes_and_seconds_it_means() -> None:
    """Issue 32: `slot = "45"` was read as 45 seconds, without a word."""
    err = refused(lambda d: d["schedule"].update(slot="45"))
    assert err.key == "schedule.slot"
    assert 'ambiguous: write "45:00" for 45 minutes, "0:45" or the number 45 for seconds' in err.message
    err = refused(lambda d: d["schedule"].update(slot="55:75"))
    assert "below 60" in err.message
    data = copy.deepcopy(BASE)
    data["schedule"].update(slot="1:10:00", min_rest=2700)  # h:mm:ss, and a number of seconds
    schedule = validate_tournament(data, "cup.toml").schedule
    assert (schedule.slot, schedule.min_rest) == (70 * 60_000, 45 * 60_000)


@pytest.mark.parametrize(("ruleset", "slot", "said"), [
    ("water-polo", "20:00", "20:00 is shorter than the shortest water polo match: 4 x 7:00 of play, 4:00 of intervals "
                            "and about 4 x 2:00 the clock stands still (match.stoppages) = 40:00"),
    ("indoor-hockey", "44:00", "44:00 is shorter than the shortest indoor hockey match: 2 x 20:00 of play and 5:00 of "
                               "intervals = 45:00"),
])
def test_a_slot_shorter_than_the_shortest_match_is_refused_with_its_numbers(ruleset: str, slot: str,
                                                                             said: str) -> None:
    """Water polo's 4 x 7 minutes of stopped time fitted a 20-minute slot: a stopped clock was given no floor."""
    data = copy.deepcopy(BASE)
    data["ruleset"] = ruleset
    data["schedule"]["slot"] = slot
    tournament = validate_tournament(data, "cup.toml")
    with pytest.raises(TournamentError) as caught:
        check_against_ruleset(tournament, load_ruleset(ruleset), "cup.toml")
    assert caught.value.key == "schedule.slot" and caught.value.message == said
    data["schedule"]["slot"] = "45:00"  # a tight water-polo schedule a real venue keeps passes
    check_against_ruleset(validate_tournament(data, "cup.toml"), load_ruleset(ruleset), "cup.toml")


def test_every_field_problem_is_named_at_once() -> None:
    def change(d: dict[str, Any]) -> None:
        d["teams"][1]["pot"] = 0
        d["schedule"]["courts"] = []
        d["pools"][0]["hue"] = "red"

    err = refused(change)
    assert "teams[1].pot" in str(err) and "schedule.courts" in str(err) and "pools[0].hue: unknown key" in str(err)


def test_a_misspelt_round_is_refused_with_the_names_it_could_be() -> None:
    data = copy.deepcopy(BASE)
    data["matches"][0]["round"] = "semifinal"
    t = validate_tournament(data, "cup.toml")
    with pytest.raises(TournamentError) as caught:
        check_against_ruleset(t, load_ruleset("indoor-hockey"), "cup.toml")
    assert caught.value.key == "matches[0].round"
    assert "did you mean 'semi_final'" in caught.value.message


def test_same_club_final_rounds_are_rounds_of_the_ruleset() -> None:
    data = copy.deepcopy(BASE)
    data["same_club"] = {"final_rounds": ["finals"]}
    t = validate_tournament(data, "cup.toml")
    with pytest.raises(TournamentError) as caught:
        check_against_ruleset(t, load_ruleset("indoor-hockey"), "cup.toml")
    assert caught.value.key == "same_club.final_rounds[0]" and "'final'" in caught.value.message

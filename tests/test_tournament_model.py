"""The tournament file: the five examples load, and broken files name the file, the key and the reason."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from rules.errors import CourtsideError, TournamentError
from rules.ruleset import load_ruleset
from rules.tournament.checks import check_against_ruleset, slot_lengths
from rules.tournament.loading import load_tournament_ruleset, parse_tournament, validate_tournament
from rules.tournament.stages import stage_order

EXAMPLES = Path(__file__).resolve().parent.parent / "rules" / "examples"
SEEDS = ["indoor-hockey", "water-polo", "indoor-football", "youth-football", "ice-hockey"]

BASE: dict[str, Any] = {
    "name": "Test cup",
    "ruleset": "indoor-hockey",
    "teams": [{"name": n, "club": n} for n in ("Ka", "Kb", "Kc", "La", "Lb", "Lc")],
    "schedule": {"start": "2026-01-17T09:00", "courts": ["Hall 1", "Hall 2"], "slot": "55:00"},
    "pools": [{"name": "A", "teams": ["Ka", "Kb", "Kc"]}, {"name": "B", "teams": ["La", "Lb", "Lc"]}],
    "matches": [
        {"name": "SF1", "home": "1A", "away": "2B", "round": "semi_final"},
        {"name": "SF2", "home": "1B", "away": "2A", "round": "semi_final"},
        {"name": "F", "home": "winner SF1", "away": "winner SF2", "round": "final"},
    ],
}


def broken(change: Any) -> TournamentError:
    data = copy.deepcopy(BASE)
    change(data)
    with pytest.raises(TournamentError) as caught:
        validate_tournament(data, "cup.toml")
    assert caught.value.source == "cup.toml"
    assert str(caught.value).startswith("cup.toml: ")
    return caught.value


@pytest.mark.parametrize("name", SEEDS)
def test_every_example_loads_with_its_ruleset(name: str) -> None:
    path = EXAMPLES / f"{name}.toml"
    t = parse_tournament(path.read_text(encoding="utf-8"), str(path))
    assert load_tournament_ruleset(t, str(path)).name == name
    assert len(t.final_ranking) == len(t.teams)


def test_the_base_file_is_valid_and_stages_come_after_what_they_wait_for() -> None:
    t = validate_tournament(copy.deepcopy(BASE), "cup.toml")
    order = stage_order(t)
    assert order.index("F") > order.index("SF1") > order.index("A")
    assert order.index("SF2") > order.index("B")
    assert t.stages_in_order == tuple(order) and t.stages_in_order is t.stages_in_order  # worked out once


def test_a_placeholder_naming_a_pool_that_does_not_exist() -> None:
    err = broken(lambda d: d["matches"][0].update(away="2Z"))
    assert err.key == "matches[0].away"
    assert "pool 'Z'" in err.message and "does not exist" in err.message


def test_a_placeholder_naming_a_match_that_does_not_exist() -> None:
    err = broken(lambda d: d["matches"][2].update(home="winner SF9"))
    assert err.key == "matches[2].home"
    assert "match 'SF9'" in err.message


def test_a_place_beyond_the_size_of_the_pool() -> None:
    err = broken(lambda d: d["matches"][0].update(home="4A"))
    assert err.key == "matches[0].home" and "only 3 places" in err.message


def test_a_pool_with_one_team() -> None:
    def change(d: dict[str, Any]) -> None:
        d["pools"][0]["teams"] = ["Ka"]
        d["pools"].append({"name": "X", "teams": ["Kb", "Kc"]})

    err = broken(change)
    assert err.key == "pools[0].teams"
    assert "at least two" in err.message


def test_a_team_in_two_pools() -> None:
    err = broken(lambda d: d["pools"][1]["teams"].append("Ka"))
    assert err.key == "pools[1].teams[3]"
    assert "'Ka' is already in pool A" in err.message


def test_a_team_in_no_pool() -> None:
    err = broken(lambda d: d["teams"].append({"name": "Nomad"}))
    assert err.key == "teams" and "Nomad is in no pool" in err.message


def test_a_pool_naming_an_unknown_team() -> None:
    err = broken(lambda d: d["pools"][0]["teams"].__setitem__(2, "Kx"))
    assert err.key == "pools[0].teams[2]" and "not a team" in err.message


def test_a_court_that_does_not_exist() -> None:
    err = broken(lambda d: d["matches"][2].update(court="Hall 3"))
    assert err.key == "matches[2].court"
    assert "'Hall 3' does not exist" in err.message and "Hall 1, Hall 2" in err.message


def test_other_court_needs_a_match_feeding_it() -> None:
    err = broken(lambda d: d["matches"][0].update(court="other"))
    assert err.key == "matches[0].court"


def test_an_unknown_key_and_a_wrong_type_are_named_by_their_path() -> None:
    err = broken(lambda d: d["schedule"].update(slots="55:00"))
    assert err.key == "schedule.slots" and err.message.startswith("unknown key")
    err = broken(lambda d: d["pools"][0].update(double="yes"))
    assert err.key == "pools[0].double"


def test_a_bad_start_time() -> None:
    err = broken(lambda d: d["schedule"].update(start="Saturday 9am"))
    assert err.key == "schedule.start" and "2026-05-16T09:00" in err.message


def test_not_toml_at_all() -> None:
    with pytest.raises(TournamentError) as caught:
        parse_tournament("name = \n", "cup.toml")
    assert "not valid TOML" in str(caught.value)
    assert isinstance(caught.value, CourtsideError) and isinstance(caught.value, ValueError)


def test_a_placeholder_that_fills_two_slots() -> None:
    err = broken(lambda d: d["matches"][1].update(away="1A"))
    assert err.key == "matches[1].away" and "already plays in matches[0].home" in err.message


def test_two_stages_with_one_name() -> None:
    err = broken(lambda d: d["matches"][0].update(name="A"))
    assert err.key == "matches[0].name" and "already names a pool" in err.message


def test_stages_waiting_for_each_other_in_a_circle() -> None:
    def change(d: dict[str, Any]) -> None:
        d["matches"][0]["home"] = "winner F"

    err = broken(change)
    assert "circle" in err.message and "SF1" in err.message and "F" in err.message


def test_final_ranking_must_give_every_team_one_place() -> None:
    err = broken(lambda d: d.update(final_ranking=["winner F", "loser F"]))
    assert err.key == "final_ranking" and "2 places for 6 teams" in err.message
    err = broken(lambda d: d.update(final_ranking=["winner F", "winner F", "3A", "3B", "loser SF1", "loser SF2"]))
    assert err.key == "final_ranking[1]" and "two places" in err.message


def test_best_placed_needs_pools_of_one_size() -> None:
    def change(d: dict[str, Any]) -> None:
        d["teams"].append({"name": "Ld"})
        d["pools"][1]["teams"].append("Ld")
        d["matches"][1]["home"] = "best 3rd"

    err = broken(change)
    assert err.key == "matches[1].home" and "different sizes" in err.message


def test_drawn_pools_must_hold_the_teams_left() -> None:
    def change(d: dict[str, Any]) -> None:
        d["pools"] = [{"name": "A", "size": 3}, {"name": "B", "size": 2}]

    err = broken(change)
    assert err.key == "pools" and "hold 5 teams but 6" in err.message


def test_only_equally_placed_teams_may_be_swapped() -> None:
    err = broken(lambda d: d.update(same_club={"final_rounds": ["final"], "swappable": [["1A", "2B"]]}))
    assert err.key == "same_club.swappable[0]"


def test_more_round_times_than_rounds() -> None:
    times = ["2026-01-17T09:00", "2026-01-17T10:00", "2026-01-17T11:00", "2026-01-17T12:00"]
    err = broken(lambda d: d["pools"][0].update(rounds_not_before=times))
    assert err.key == "pools[0].rounds_not_before" and "4 times for 3 rounds" in err.message


def test_a_break_ending_before_it_starts() -> None:
    err = broken(lambda d: d["schedule"].update(breaks=[{"start": "2026-01-17T12:00", "end": "2026-01-17T11:00"}]))
    assert err.key == "schedule.breaks[0]"


def test_a_slot_shorter_than_a_match_of_the_ruleset() -> None:
    data = copy.deepcopy(BASE)
    data["schedule"]["slot"] = "40:00"  # indoor hockey: 2 x 20 min + 5 min half-time = 45 min
    t = validate_tournament(data, "cup.toml")
    with pytest.raises(TournamentError) as caught:
        check_against_ruleset(t, load_ruleset("indoor-hockey"), "cup.toml")
    assert caught.value.key == "schedule.slot" and "45:00" in caught.value.message


def test_the_ice_hockey_slot_is_the_45_minute_cap_unless_set() -> None:
    path = EXAMPLES / "ice-hockey.toml"
    t = parse_tournament(path.read_text(encoding="utf-8"), str(path))
    assert t.schedule.slot is None
    assert slot_lengths(t, load_ruleset("ice-hockey")) == (45 * 60_000, 45 * 60_000)
    data = copy.deepcopy(BASE)
    data["ruleset"] = "ice-hockey"
    data["schedule"]["slot"] = "40:00"
    t = validate_tournament(data, "cup.toml")
    with pytest.raises(TournamentError) as caught:
        check_against_ruleset(t, load_ruleset("ice-hockey"), "cup.toml")
    assert "45:00 a game may last" in caught.value.message


def test_a_ruleset_path_is_read_relative_to_the_tournament_file(tmp_path: Path) -> None:
    from rules.ruleset import preset_text

    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "mine.toml").write_text(preset_text("indoor-hockey"), encoding="utf-8")
    data = copy.deepcopy(BASE)
    data["ruleset"] = "rules/mine.toml"
    t = validate_tournament(data, str(tmp_path / "cup.toml"))
    assert load_tournament_ruleset(t, str(tmp_path / "cup.toml")).sport == "indoor hockey"


def three_pools(*qf: tuple[str, str]) -> dict[str, Any]:
    teams = [f"{p}{i}" for p in "ABC" for i in range(1, 4)]
    return {
        **copy.deepcopy(BASE),
        "teams": [{"name": n} for n in teams],
        "pools": [{"name": p, "teams": [f"{p}{i}" for i in range(1, 4)]} for p in "ABC"],
        "matches": [
            {"name": f"Q{i}", "home": h, "away": a, "round": "quarter_final"} for i, (h, a) in enumerate(qf, 1)
        ],
    }


def test_best_thirds_by_pools_load_when_every_pair_of_pools_can_be_placed() -> None:
    t = validate_tournament(three_pools(("1A", "3B/C"), ("1B", "3A/C")), "cup.toml")
    assert stage_order(t).index("Q1") > max(stage_order(t).index(p) for p in "ABC")


def test_best_thirds_by_pools_that_cannot_take_some_pair_are_refused() -> None:
    with pytest.raises(TournamentError) as caught:
        validate_tournament(three_pools(("1A", "3A/B"), ("1C", "3B/A")), "cup.toml")
    assert caught.value.key == "matches[0].away"
    assert "pools A, C" in caught.value.message and "cannot take" in caught.value.message


def test_best_thirds_by_pools_name_first_round_pools_only() -> None:
    with pytest.raises(TournamentError) as caught:
        validate_tournament(three_pools(("1A", "3B/Z"), ("1B", "3A/C")), "cup.toml")
    assert caught.value.key == "matches[0].away" and "'Z'" in caught.value.message


def test_best_third_and_slots_by_pools_cannot_both_place_the_qualifiers() -> None:
    with pytest.raises(TournamentError) as caught:
        validate_tournament(three_pools(("1A", "3B/C"), ("1B", "3A/C"), ("1C", "best 3rd")), "cup.toml")
    assert caught.value.key == "matches[2].away" and "one kind of slot" in caught.value.message


def test_a_round_spelled_unlike_the_ruleset_would_lose_its_time_outs() -> None:
    path = EXAMPLES / "water-polo.toml"
    text = path.read_text(encoding="utf-8").replace('round = "semi_final"', 'round = "Semi Final"', 1)
    t = parse_tournament(text, str(path))
    with pytest.raises(TournamentError) as caught:
        load_tournament_ruleset(t, str(path))
    key = caught.value.key
    assert key.startswith("matches[") and key.endswith("].round")
    assert t.matches[int(key[len("matches[") : key.index("]")])].round == "Semi Final"
    assert "'semi_final'" in caught.value.message


def test_no_module_of_rules_tournament_imports_itself_back_at_load_time() -> None:
    # model.py once imported exchange and thirds, which imported it back: the cycle is gone.
    import ast

    package = Path(__file__).resolve().parent.parent / "rules" / "tournament"
    edges: dict[str, set[str]] = {}
    for path in package.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        edges[path.stem] = {
            node.module.rsplit(".", 1)[1]
            for node in tree.body  # top-level imports only: those run when the module loads
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("rules.tournament.")
        }

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        return any(n == goal or (n not in seen and reaches(n, goal, seen | {n})) for n in edges.get(start, ()))

    assert [name for name in edges if reaches(name, name, set())] == []
    assert edges["model"] <= {"placeholders"}



def test_look_ups_by_name_find_each_kind_of_stage() -> None:
    t = validate_tournament(copy.deepcopy(BASE), "cup.toml")
    assert t.pool("A") is t.pools[0] and t.match("F") is t.matches[2] and t.team("Kb") is t.teams[1]
    assert t.pool("F") is None and t.match("A") is None and t.ranking("A") is None and t.team("1A") is None

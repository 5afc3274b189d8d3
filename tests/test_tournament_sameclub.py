"""Seed 004's same-club rule: switch equally placed teams, in the seed's order of preference."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from rules.tournament.loading import parse_tournament, validate_tournament
from rules.tournament.model import Tournament
from rules.tournament.sameclub import choose_swaps, meeting_places

ICE = Path(__file__).resolve().parent.parent / "rules" / "examples" / "ice-hockey.toml"


def ice() -> Tournament:
    return parse_tournament(ICE.read_text(encoding="utf-8"), str(ICE))


def test_meeting_places_before_the_final_placement_games() -> None:
    places = meeting_places(ice())
    # 2A plays M1, then the final placement games G5/G7, which do not count.
    assert places["2A"] == {"M1"}
    assert places["2A"] & places["2C"] and not places["2A"] & places["2B"]
    assert places["winner M1"] == set()


def raw_places(groups: dict[str, list[str]]) -> tuple[dict[str, str], dict[str, str]]:
    raw = {f"{rank}{pool}": team for pool, teams in groups.items() for rank, team in enumerate(teams, 1)}
    pool_of = {team: pool for pool, teams in groups.items() for team in teams}
    return raw, pool_of


def test_no_switch_when_no_club_would_meet_early() -> None:
    t = ice()
    raw, pool_of = raw_places({
        "A": ["Falcons AA", "Wolves AA", "Bears AA"], "B": ["Lions AA", "Hawks AA", "Tigers AA"],
        "C": ["Eagles A", "Falcons A", "Owls A"], "D": ["Ravens A", "Lions A", "Sharks A"],
    })
    assigned, swaps = choose_swaps(t, raw, pool_of)
    assert swaps == () and assigned == raw


def test_a_switch_keeps_two_teams_of_one_club_apart() -> None:
    t = ice()
    raw, pool_of = raw_places({
        "A": ["Wolves AA", "Falcons AA", "Bears AA"], "B": ["Hawks AA", "Tigers AA", "Lions AA"],
        "C": ["Eagles A", "Falcons A", "Owls A"], "D": ["Ravens A", "Sharks A", "Lions A"],
    })
    # Falcons AA (2A) would meet Falcons A (2C) in M1, and Lions AA (3B) Lions A (3D) in B2.
    assigned, swaps = choose_swaps(t, raw, pool_of)
    assert len(swaps) == 2 and all("club" in s.reason for s in swaps)
    for home, away in (("1A", "1C"), ("1B", "1D"), ("2A", "2C"), ("2B", "2D"), ("3A", "3C"), ("3B", "3D")):
        assert assigned[home].split()[0] != assigned[away].split()[0]
        # Switching within A/B or within C/D keeps every branch game Elite v Division 1 (third preference).
        assert assigned[home].endswith("AA") and not assigned[away].endswith("AA")


def generic(clubs: dict[str, str], leagues: dict[str, str] | None = None) -> Tournament:
    leagues = leagues or {}
    data: dict[str, Any] = {
        "name": "x", "ruleset": "ice-hockey",
        "teams": [{"name": n, "club": c, "league": leagues.get(n, "")} for n, c in clubs.items()],
        "schedule": {"start": "2026-01-01T08:00", "courts": ["Rink"]},
        "pools": [{"name": p, "teams": [f"{p}{i}" for i in (1, 2)]} for p in "ABCD"],
        "matches": [
            {"name": "S1", "home": "1A", "away": "1B", "round": "placement"},
            {"name": "S2", "home": "1C", "away": "1D", "round": "placement"},
            {"name": "F", "home": "winner S1", "away": "winner S2", "round": "final"},
        ],
        "same_club": {"final_rounds": ["final"], "swappable": [["1A", "1B", "1C", "1D"]]},
    }
    return validate_tournament(data, "x.toml")


def test_a_club_clash_outweighs_a_league_clash() -> None:
    names = [f"{p}{i}" for p in "ABCD" for i in (1, 2)]
    clubs = {n: n for n in names} | {"A1": "X", "B1": "X"}
    leagues = {"A1": "L", "C1": "L"}
    t = generic(clubs, leagues)
    raw = {"1A": "A1", "1B": "B1", "1C": "C1", "1D": "D1"}
    pool_of = {n: n[0] for n in names}
    assigned, swaps = choose_swaps(t, raw, pool_of)
    # A1 and B1 share a club. Switching 1A with 1D or 1B with 1C parts them but pairs A1 with C1,
    # two teams of one league; switching 1A with 1C parts both, and it is the first such switch.
    assert assigned == {"1A": "C1", "1B": "B1", "1C": "A1", "1D": "D1"}
    assert [s.slots for s in swaps] == [("1A", "1C")]


def test_only_switches_never_a_reshuffle_of_the_whole_tier() -> None:
    names = [f"{p}{i}" for p in "ABCD" for i in (1, 2)]
    t = generic({n: n for n in names})
    raw = {"1A": "A1", "1B": "B1", "1C": "C1", "1D": "D1"}
    assigned, swaps = choose_swaps(t, raw, {n: n[0] for n in names})
    assert swaps == () and assigned == raw


def test_a_clash_in_every_tier_takes_a_switch_in_every_tier() -> None:
    # Three clubs with two teams each, one pair in each tier's first branch game (1A v 1C, 2A v 2C, 3A v 3C):
    # three switches are needed, one per tier.
    data = tomllib.loads(ICE.read_text(encoding="utf-8"))
    for team in data["teams"]:
        if team["name"] == "Owls A":
            team["club"] = "Bears"
    t = validate_tournament(data, str(ICE))
    raw, pool_of = raw_places({
        "A": ["Falcons AA", "Lions AA", "Bears AA"], "B": ["Hawks AA", "Tigers AA", "Wolves AA"],
        "C": ["Falcons A", "Lions A", "Owls A"], "D": ["Ravens A", "Sharks A", "Eagles A"],
    })
    assigned, swaps = choose_swaps(t, raw, pool_of)
    clubs = {team["name"]: team["club"] for team in data["teams"]}
    for home, away in (("1A", "1C"), ("1B", "1D"), ("2A", "2C"), ("2B", "2D"), ("3A", "3C"), ("3B", "3D")):
        assert clubs[assigned[home]] != clubs[assigned[away]], (home, away)
    assert len(swaps) == 3
    assert {s.slots[0][0] for s in swaps} == {"1", "2", "3"}


def test_one_switch_that_parts_two_clubs_beats_two_switches() -> None:
    # One tier, three branch games; club X holds 1A and 1B, club Y 1C and 1D, and 1E/1F are free.
    # Switching 1A with 1C parts both clubs at once (Y v X, X v Y): the fewest switches win.
    data: dict[str, Any] = {
        "name": "x", "ruleset": "ice-hockey",
        "teams": [{"name": f"{p}{i}", "club": f"{p}{i}"} for p in "ABCDEF" for i in (1, 2)],
        "schedule": {"start": "2026-01-01T08:00", "courts": ["Rink"]},
        "pools": [{"name": p, "teams": [f"{p}{i}" for i in (1, 2)]} for p in "ABCDEF"],
        "matches": [
            {"name": f"S{k}", "home": f"1{a}", "away": f"1{b}", "round": "placement"}
            for k, (a, b) in enumerate((("A", "B"), ("C", "D"), ("E", "F")), 1)
        ],
        "same_club": {"final_rounds": ["final"], "swappable": [[f"1{p}" for p in "ABCDEF"]]},
    }
    data["teams"][0]["club"] = data["teams"][2]["club"] = "X"
    data["teams"][4]["club"] = data["teams"][6]["club"] = "Y"
    t = validate_tournament(data, "x.toml")
    raw = {f"1{p}": f"{p}1" for p in "ABCDEF"}
    assigned, swaps = choose_swaps(t, raw, {f"{p}{i}": p for p in "ABCDEF" for i in (1, 2)})
    clubs = {team["name"]: team["club"] for team in data["teams"]}
    assert all(clubs[assigned[f"1{a}"]] != clubs[assigned[f"1{b}"]] for a, b in (("A", "B"), ("C", "D"), ("E", "F")))
    assert [s.slots for s in swaps] == [("1A", "1C")]

"""The pool draw: reproducible from its seed, pots respected, clubs kept apart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rules.errors import TournamentError
from rules.tournament.draw import make_draw, pool_teams
from rules.tournament.loading import parse_tournament, validate_tournament
from rules.tournament.model import Tournament

EXAMPLES = Path(__file__).resolve().parent.parent / "rules" / "examples"


def example(name: str) -> Tournament:
    path = EXAMPLES / f"{name}.toml"
    return parse_tournament(path.read_text(encoding="utf-8"), str(path))


def test_the_same_seed_gives_the_same_draw_and_another_seed_another() -> None:
    t = example("water-polo")
    assert make_draw(t, 710) == make_draw(t, 710)
    draws = {tuple(make_draw(t, seed).pools.items()) for seed in range(10)}
    assert len(draws) > 1


def test_seeded_pots_put_one_team_of_each_pot_in_every_pool() -> None:
    t = example("water-polo")
    pot = {team.name: team.pot for team in t.teams}
    for seed in range(20):
        pools = make_draw(t, seed).pools
        assert sorted(pools) == ["A", "B", "C", "D"]
        for teams in pools.values():
            assert sorted(pot[x] or 0 for x in teams) == [1, 2, 3, 4]
        assert sorted(x for teams in pools.values() for x in teams) == sorted(pot)


def test_teams_of_one_club_are_drawn_into_different_pools() -> None:
    t = example("ice-hockey")
    club = {team.name: team.club for team in t.teams}
    for seed in range(30):
        draw = make_draw(t, seed)
        assert draw.notes == ()
        for teams in draw.pools.values():
            clubs = [club[x] for x in teams]
            assert len(clubs) == len(set(clubs))


def small(clubs: list[str], keep_apart: bool = True) -> Tournament:
    data: dict[str, Any] = {
        "name": "x", "ruleset": "ice-hockey",
        "teams": [{"name": f"t{i}", "club": c} for i, c in enumerate(clubs)],
        "schedule": {"start": "2026-01-01T09:00", "courts": ["Rink"]},
        "draw": {"keep_clubs_apart": keep_apart},
        "pools": [{"name": "A", "size": 2}, {"name": "B", "size": 2}],
    }
    return validate_tournament(data, "x.toml")


def test_when_a_club_cannot_be_kept_apart_the_draw_says_so() -> None:
    draw = make_draw(small(["X", "X", "X", "Y"]), 1)
    assert len(draw.notes) == 1 and "X" in draw.notes[0]


def test_the_recorded_seed_reproduces_the_pools_and_no_seed_is_an_error() -> None:
    t = example("indoor-football")
    assert t.draw.seed == 2026
    assert pool_teams(t, "f.toml") == make_draw(t, 2026).pools
    assert pool_teams(t, "f.toml", 7) == make_draw(t, 7).pools
    unseeded = small(["X", "Y", "Z", "W"])
    with pytest.raises(TournamentError) as caught:
        pool_teams(unseeded, "x.toml")
    assert caught.value.key == "draw.seed" and "courtside tournament draw" in caught.value.message


def test_listed_pools_are_kept_as_they_are() -> None:
    t = example("indoor-hockey")
    assert pool_teams(t, "h.toml")["A"] == ("Rot-Weiss Köln", "Amsterdam H&BC", "Three Rock Rovers", "Slavia Praha")

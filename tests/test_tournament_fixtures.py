"""Round-robin rounds and the fixture list."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from rules.tournament.fixtures import all_fixtures, carried_pairs, pool_fixture_count, pool_fixtures, round_robin
from rules.tournament.loading import validate_tournament
from rules.tournament.model import Pool


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8])
def test_everyone_meets_once_and_nobody_plays_twice_in_a_round(n: int) -> None:
    teams = [f"t{i}" for i in range(n)]
    rounds = round_robin(teams)
    assert len(rounds) == (n if n % 2 else n - 1)
    pairs = [frozenset(p) for r in rounds for p in r]
    assert Counter(pairs) == Counter(frozenset(p) for p in combinations(teams, 2))
    for r in rounds:
        playing = [t for p in r for t in p]
        assert len(playing) == len(set(playing))


def test_a_pool_of_five_plays_five_rounds_of_two_and_four_matches_each() -> None:
    # Seed 002: "Each team plays 4 group matches"; one team rests each round.
    rounds = round_robin(["a", "b", "c", "d", "e"])
    assert [len(r) for r in rounds] == [2] * 5
    assert Counter(t for r in rounds for p in r for t in p) == dict.fromkeys("abcde", 4)


def test_home_and_away_even_out() -> None:
    rounds = round_robin(["a", "b", "c", "d"])
    homes = Counter(p[0] for r in rounds for p in r)
    assert max(homes.values()) - min(homes.values()) <= 1


def test_a_double_round_robin_plays_each_pair_home_and_away() -> None:
    rounds = round_robin(["a", "b", "c", "d"], double=True)
    ordered = Counter(p for r in rounds for p in r)
    assert len(rounds) == 6 and len(ordered) == 12 and set(ordered.values()) == {1}
    assert all((b, a) in ordered for a, b in ordered)
    fixtures = pool_fixtures(Pool(name="A", teams=["a", "b", "c", "d"], double=True), ("a", "b", "c", "d"))
    assert Counter(f.leg for f in fixtures) == {1: 6, 2: 6}


@pytest.mark.parametrize("size", range(2, 9))
@pytest.mark.parametrize(("double", "carry_forward"), [(False, False), (True, False), (False, True), (True, True)])
def test_a_pools_fixtures_are_counted_without_making_them(size: int, double: bool, carry_forward: bool) -> None:
    teams = tuple(f"{rank}{pool}" for rank in (1, 2, 3, 4) for pool in "AB")[:size]
    pool = Pool(name="C", teams=list(teams), double=double, carry_forward=carry_forward)
    assert pool_fixture_count(pool, teams) == len(pool_fixtures(pool, teams))


def test_pool_c_does_not_replay_the_carried_meetings() -> None:
    pool = Pool(name="C", teams=["3A", "4A", "3B", "4B"], carry_forward=True)
    assert carried_pairs(pool) == {frozenset({"3A", "4A"}), frozenset({"3B", "4B"})}
    played = {frozenset((f.home, f.away)) for f in pool_fixtures(pool, ("3A", "4A", "3B", "4B"))}
    # "Each team will play the other 2 teams in Pool C": four new matches.
    assert played == {frozenset(p) for p in [("3A", "3B"), ("3A", "4B"), ("4A", "3B"), ("4A", "4B")]}


def test_parallel_pools_are_interleaved_round_by_round_and_knockouts_follow() -> None:
    t = validate_tournament(
        {
            "name": "x", "ruleset": "indoor-hockey",
            "teams": [{"name": n} for n in "abcdefgh"],
            "schedule": {"start": "2026-01-01T09:00", "courts": ["c"], "slot": "60:00"},
            "pools": [{"name": "A", "teams": list("abcd")}, {"name": "B", "teams": list("efgh")}],
            "matches": [{"name": "F", "home": "1A", "away": "1B", "round": "final"}],
        },
        "x.toml",
    )
    fixtures = all_fixtures(t, {"A": tuple("abcd"), "B": tuple("efgh")})
    assert [f.stage for f in fixtures] == ["A", "A", "B", "B"] * 3 + ["F"]
    assert [f.pool_round for f in fixtures[:4]] == [1, 1, 1, 1]

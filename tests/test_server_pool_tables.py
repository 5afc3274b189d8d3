"""A pool's table as the loop publishes it: a first-round pool ranked on its own, a later one from the progress;
each the table the tournament's whole progress gives it."""

from __future__ import annotations

from server import desk
from server.pool_tables import pool_state, pool_states
from server.store import Store


def test_a_first_round_pool_ranked_on_its_own_equals_the_whole_progress(store: Store) -> None:
    scores = [(3, 1), (0, 0), (2, 2), (1, 4), (0, 1), (2, 0)]
    for (home, away), match_id in zip(scores, ["1", "2", "5", "6", "9", "10"], strict=True):
        winner = "home" if home > away else "away" if away > home else None
        desk.record_result(store, match_id, {"home_goals": home, "away_goals": away, "outcome": "regular",
                                             "winner": winner}, who="ann", why="sheet")
        with store.session() as s:
            assert pool_state(store, s, "A") == store.compute_progress(s)[""].pools["A"]
    with store.session() as s:
        assert pool_state(store, s, "A").complete
        assert pool_state(store, s, "C") == store.compute_progress(s)[""].pools["C"]


def test_several_pools_at_once_rank_as_the_whole_progress_does(store: Store) -> None:
    for match_id, (home, away) in zip(["1", "2", "3", "4"], [(1, 0), (2, 2), (0, 3), (1, 1)], strict=True):
        winner = "home" if home > away else "away" if away > home else None
        desk.record_result(store, match_id, {"home_goals": home, "away_goals": away, "outcome": "regular",
                                             "winner": winner}, who="ann", why="sheet")
    with store.session() as s:
        states = pool_states(store, s, ["A", "B", "C", "no such pool"])
        progress = store.compute_progress(s)[""]
    assert set(states) == {"A", "B", "C"}
    assert all(states[name] == progress.pools[name] for name in states)

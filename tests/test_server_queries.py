"""server/queries.py: the fixtures' views the pages and the courts' schedules are made of, made again only for what
changed (the views of the other queries are tested where they are used: tests/test_server_service_store.py)."""

from __future__ import annotations

from pathlib import Path

from server import desk, queries
from server.plan import load_plan
from server.store import Store

HOCKEY = load_plan(Path(__file__).resolve().parent.parent / "rules" / "examples" / "indoor-hockey.toml")


def test_a_courts_schedule_and_the_pages_snapshot_share_the_views_of_its_matches(store: Store) -> None:
    """The loop publishes a court's schedule after a result and the pages build their snapshot: each finds the
    views the other made (the schedule reads its matches' results as rows of its own, equal to the feed's), so
    neither makes a cup's 4,000 views again after every result."""
    for number in ("1", "2", "5"):
        desk.record_result(store, number, {"home_goals": 2, "away_goals": 1, "outcome": "regular", "winner": "home"},
                           who="ann", why="sheet")
    with store.reading() as s:
        before = {v.match_id: v for v in queries.schedule(store, s)}
    published = queries.court_schedules(store, {"hall-1", "hall-2"})  # as the service's loop sends them
    with store.reading() as s:
        after = {v.match_id: v for v in queries.schedule(store, s)}
    assert {v.match_id for v in published["hall-1"] if v.status == "finished"} == {"1", "5"}
    assert all(after[v.match_id] is v for views in published.values() for v in views)
    assert all(after[i] is before[i] for i in before)  # nothing was made again: nothing changed

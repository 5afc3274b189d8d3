"""server.payloads: a pool's table and a court's schedule as the service publishes them, checked against
the protocol's schemas (docs/asyncapi.yaml)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from rules import protocol as p
from server import desk, queries
from server.payloads import schedule_payload, table_payload
from server.plan import load_plan
from server.pool_tables import pool_states
from server.store import Store
from tests.test_protocol import schema_for

EXAMPLE = Path(__file__).resolve().parent.parent / "rules" / "examples" / "indoor-hockey.toml"


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store.open(f"sqlite:///{tmp_path / 'db.sqlite'}", load_plan(EXAMPLE))
    yield s
    s.close()


def test_a_table_before_and_after_a_result(store: Store) -> None:
    with store.session() as s:
        before = table_payload(pool_states(store, s, ["A"])["A"])
    desk.record_result(store, "1", {"home_goals": 2, "away_goals": 0, "outcome": "regular", "winner": "home"},
                       who="ann", why="sheet")
    with store.session() as s:
        after = table_payload(pool_states(store, s, ["A"])["A"])
    assert (before["played"], after["played"], after["complete"]) == (0, 1, False)
    top = after["rows"][0]
    win = store.plan.rulesets[""].points.win  # this seed gives more than 3 for a win
    assert (top["team"], top["points"], top["goal_difference"]) == ("Rot-Weiss Köln", win, 2) and top["reason"]
    for payload in (before, after):
        schema_for("table")[1].validate(p.build(id="t", type="table", payload=payload).to_dict())


def test_a_schedule_names_who_may_not_play_only_where_someone_may_not(store: Store) -> None:
    fixtures = queries.court_schedule(store, "hall-1")
    sitting_out = {"side": "away", "player": "9", "kind": "red", "label": "Red card", "given_in": 1,
                   "matches_left": 1}
    payload = schedule_payload(store, "hall-1", fixtures, {fixtures[1].match_id: [sitting_out]})
    assert payload["court_name"] == "Hall 1"
    assert [m["match"] for m in payload["matches"]] == [f.match_id for f in fixtures]
    assert [m.get("suspended") for m in payload["matches"][:3]] == [None, [sitting_out], None]
    assert payload["matches"][0]["home_known"] and payload["matches"][0]["status"] == "scheduled"
    schema_for("schedule")[1].validate(p.build(id="s", type="schedule", court="hall-1", payload=payload).to_dict())


def test_a_schedule_says_how_an_abandoned_match_is_played_on_once_the_desk_settled_it(store: Store) -> None:
    from datetime import UTC, datetime

    from server.db.models import Conflict, EventRow

    now = datetime.now(UTC)
    fixtures = queries.court_schedule(store, "hall-1")
    first, second = fixtures[0].match_id, fixtures[1].match_id
    with store.session.begin() as s:  # both played and abandoned at the table: events, the held report
        for match_id in (first, second):
            for seq, body in enumerate(({"type": "clock_started", "at": 0}, {"type": "match_abandoned", "at": 9}), 1):
                s.add(EventRow(match_id=match_id, court="hall-1", seq=seq, type=body["type"], at=body["at"],
                               body={"v": 2, "seq": seq, **body}, message_id=f"{match_id}.{seq}", received_at=now))
            s.add(Conflict(match_id=match_id, court="hall-1", seq=2, reason="abandoned", message_id=f"r{match_id}",
                           payload={"home_goals": 0, "away_goals": 0, "outcome": "abandoned", "winner": None},
                           received_at=now))
    with store.session() as s:
        reports = {c.match_id: c.id for c in s.query(Conflict)}
    assert all("continues" not in m for m in schedule_payload(store, "hall-1")["matches"])  # held: not yet
    desk.settle_conflict(store, reports[first], apply=False, who="ann", why="heard both", settlement="replay")
    desk.settle_conflict(store, reports[second], apply=False, who="ann", why="heard both")  # settled another way
    with pytest.raises(desk.DeskError, match="'again' is not one of resume, replay"):
        desk.settle_conflict(store, reports[second], apply=False, who="ann", why="x", settlement="again")
    payload = schedule_payload(store, "hall-1")
    by_id = {m["match"]: m for m in payload["matches"]}
    assert (by_id[first]["status"], by_id[first]["continues"]) == ("live", "replay")
    assert "continues" not in by_id[second] and [m for m in payload["matches"] if "continues" in m] == [by_id[first]]
    schema_for("schedule")[1].validate(p.build(id="s", type="schedule", court="hall-1", payload=payload).to_dict())
    # Once the replay's result is stored the match is finished and the schedule says no more.
    desk.record_result(store, first, {"home_goals": 1, "away_goals": 0, "outcome": "regular", "winner": "home"},
                       who="ann", why="sheet")
    assert "continues" not in {m["match"]: m for m in schedule_payload(store, "hall-1")["matches"]}[first]


def test_a_schedule_made_again_after_a_result_and_a_suspension_is_the_one_made_afresh(store: Store) -> None:
    """Each match of a court's schedule is kept while its view, suspensions and settlement are the same: after a
    result, a suspension and its end, the payload is what a service started afresh on the database sends."""
    schedule_payload(store, "hall-1")
    kept = dict(store.kept_views.court_matches)
    match_id = queries.court_schedule(store, "hall-1")[0].match_id
    desk.record_result(store, match_id, {"home_goals": 2, "away_goals": 0, "outcome": "regular", "winner": "home"},
                       who="ann", why="sheet")
    fixtures = queries.court_schedule(store, "hall-1")
    sitting_out = {"side": "away", "player": "9", "kind": "red", "label": "Red card", "given_in": 1,
                   "matches_left": 1}
    for suspended in ({}, {fixtures[1].match_id: [sitting_out]}, {}):
        again = schedule_payload(store, "hall-1", fixtures, suspended)
        afresh = Store.open(store.engine.url.render_as_string(hide_password=False), store.plan)
        try:
            assert again == schedule_payload(afresh, "hall-1", None, suspended)
        finally:
            afresh.close()
    assert again["matches"][0]["result"] is not None
    assert store.kept_views.court_matches[match_id] is not kept[match_id]
    # The others as they were, but the one suspended and then not.
    assert [m for m in kept if store.kept_views.court_matches[m] is not kept[m]] == [match_id, fixtures[1].match_id]

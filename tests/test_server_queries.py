"""server/queries.py: the fixtures' views the pages and the courts' schedules are made of, made again only for what
changed (the views of the other queries are tested where they are used: tests/test_server_service_store.py)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from server import desk, queries
from server.db.models import Conflict, EventRow, Presence, TeamSheetRow
from server.plan import load_plan
from server.store import Store

EXAMPLES = Path(__file__).resolve().parent.parent / "rules" / "examples"


def test_a_courts_schedule_and_the_pages_snapshot_share_the_views_of_its_matches(store: Store) -> None:
    """The loop publishes a court's schedule after a result and the pages build their snapshot: each finds the
    views the other made (both read the result feed's objects), so neither makes the views of a court's finished
    matches again after every result. A court's schedule read its results as rows of its own, which never compared
    equal to the feed's: each made them again for the other, and the pages their rows."""
    for number in ("1", "2", "5"):
        desk.record_result(store, number, {"home_goals": 2, "away_goals": 1, "outcome": "regular", "winner": "home"},
                           who="ann", why="sheet")
    with store.reading() as s:
        before = {v.match_id: v for v in queries.schedule(store, s)}
    published = queries.court_schedules(store, {"hall-1"})  # as the service's loop sends a court's
    with store.reading() as s:
        after = {v.match_id: v for v in queries.schedule(store, s)}
    assert {v.match_id for v in published["hall-1"] if v.status == "finished"} == {"1", "5"}
    assert all(before[v.match_id] is v for v in published["hall-1"])
    assert all(after[i] is before[i] for i in before)  # nothing was made again: nothing changed


def test_a_match_s_view_holds_its_scheduled_match_as_stored_and_a_move_names_the_new_court(store: Store) -> None:
    """One shape of a scheduled match: the view holds the store's record itself (the organiser's moves applied),
    with the court's id beside it for addresses and the wire."""
    desk.move_match(store, "1", court="hall-2", who="ann", why="floor wet")
    with store.reading() as s:
        stored = store.fixtures(s)
        views = {v.match_id: v for v in queries.schedule(store, s)}
    assert all(v.scheduled is stored[i] for i, v in views.items())
    moved = views["1"]
    assert (moved.court, moved.court_name, moved.scheduled.court) == ("hall-2", "Hall 2", "Hall 2")
    assert store.plan.fixtures["1"].court != "Hall 2"  # the file's schedule had it elsewhere
    assert [v.match_id for v in queries.court_schedule(store, "hall-2")].count("1") == 1
    assert "1" not in {v.match_id for v in queries.court_schedule(store, "hall-1")}


def test_a_result_keeps_the_views_of_its_class_s_waiting_matches_whose_teams_it_does_not_name(tmp_path: Path) -> None:
    """A result changes its class's progress, and each match of the class still waiting for its teams ("winner
    P14-A1") was given a new view, and a new row on the pages, after every result of the class. Only those whose
    teams the result names are made again."""
    plan = load_plan(EXAMPLES / "youth-cup.toml")
    store = Store.open(f"sqlite:///{tmp_path / 'cup.db'}", plan)
    try:
        with store.reading() as s:
            before = {v.match_id: v for v in queries.schedule(store, s)}
        playoffs = {m.class_name for m in plan.fixtures.values() if m.round != "pool"}
        pool = next(m for m in sorted(plan.fixtures.values(), key=lambda m: m.number)
                    if m.round == "pool" and m.class_name in playoffs)
        desk.record_result(store, str(pool.number), {"home_goals": 2, "away_goals": 1, "outcome": "regular",
                                                     "winner": "home"}, who="ann", why="sheet")
        with store.reading() as s:
            after = {v.match_id: v for v in queries.schedule(store, s)}
        waiting = [m for m in plan.fixtures.values() if m.class_name == pool.class_name and m.round != "pool"]
        assert waiting and all(after[str(m.number)] is before[str(m.number)] for m in waiting)
        assert after[str(pool.number)] is not before[str(pool.number)] and after[str(pool.number)].status == "finished"
    finally:
        store.close()


def test_the_whole_schedule_after_each_change_is_the_one_a_fresh_service_makes(store: Store, db_url: str) -> None:
    """The whole schedule's views are kept between reads and only those whose result, status or class's progress
    moved are made again. After each step of a day (a match started, results, a conflict held, the pools complete
    and name the semi-finals' teams) it is the schedule a service started afresh on the same database reads."""
    def step() -> None:
        fresh = Store.open(db_url, store.plan)
        try:
            with store.reading() as s:
                kept = queries.schedule(store, s)
            assert kept == queries.schedule(fresh)
        finally:
            fresh.close()

    step()
    pools = sorted((m for m in store.plan.fixtures.values() if m.round == "pool"), key=lambda m: m.number)
    for n, m in enumerate(pools):
        if m.stage == "C":
            continue  # its teams are the 3rd and 4th of A and B
        if n == 2:
            with store.session.begin() as s:
                s.add(EventRow(match_id=str(m.number), court=store.plan.court_id(m.court), seq=1, type="clock_started",
                               at=0, body={"type": "clock_started"}, message_id="m1", received_at=datetime.now(UTC)))
            step()
        desk.record_result(store, str(m.number), {"home_goals": n % 3 + 2, "away_goals": n % 2, "outcome": "regular",
                                                  "winner": "home"}, who="ann", why="sheet")
        if n == 4:
            with store.session.begin() as s:
                s.add(Conflict(match_id=str(pools[0].number), court=store.plan.court_id(pools[0].court), seq=9,
                               payload={},
                               reason="another score", message_id="c1", received_at=datetime.now(UTC)))
        step()
    with store.reading() as s:
        semi = next(v for v in queries.schedule(store, s) if v.stage == "SF1")
    assert semi.home is not None and semi.away is not None and semi.status == "scheduled"


def test_a_court_s_presence_view_is_made_again_only_when_its_row_changes(store: Store) -> None:
    """The pages read every court's presence after every live state: a court whose row is as last read keeps its
    view, and one whose table spoke has a new view that says so."""
    first = {p.court: p for p in queries.court_presence(store)}
    assert all(p.state == "unknown" for p in first.values())
    court = next(iter(first))
    at = datetime(2026, 12, 6, 10, 0, tzinfo=UTC)
    with store.session.begin() as s:
        s.add(Presence(court=court, state="online", since=at, last_message_at=at, last_type="live", last_match="1"))
    second = {p.court: p for p in queries.court_presence(store)}
    assert second[court] is not first[court] and (second[court].state, second[court].last_match) == ("online", "1")
    assert all(second[c] is first[c] for c in first if c != court)
    with store.session.begin() as s:
        row = s.get(Presence, court)
        assert row is not None
        row.last_match = "2"
    third = {p.court: p for p in queries.court_presence(store)}
    assert third[court].last_match == "2" and all(third[c] is second[c] for c in first if c != court)


def test_a_team_sheet_the_desk_stored_is_read_once_and_again_when_it_changes(store: Store) -> None:
    team = sorted(store.entry_team_names)[0]
    assert queries.team_sheets(store) == store.plan.sheets
    at = datetime(2026, 12, 6, 10, 0, tzinfo=UTC)
    with store.session.begin() as s:
        s.add(TeamSheetRow(team=team, sheet="number,name\n7,Anna Berg\n", who="ann", at=at))
    first = queries.team_sheets(store)[team]
    assert first.label("7") == "#7 Anna Berg" and queries.team_sheets(store)[team] is first
    with store.session.begin() as s:
        row = s.get(TeamSheetRow, team)
        assert row is not None
        row.sheet = "number,name\n7,Anna Berg\n9,Eva Lind\n"
    again = queries.team_sheets(store)[team]
    assert again is not first and again.label("9") == "#9 Eva Lind"


def test_the_open_conflicts_are_read_and_a_settled_one_is_not(store: Store) -> None:
    at = datetime(2026, 12, 6, 10, 0, tzinfo=UTC)
    payload = {"home_goals": 2, "away_goals": 1, "outcome": "regular", "winner": "home"}
    with store.session.begin() as s:
        for match_id, settled in (("1", None), ("2", at)):
            s.add(Conflict(match_id=match_id, court="hall-1", seq=9, payload=payload, reason="differs",
                           message_id=f"m{match_id}", received_at=at, settled_at=settled))
    (only,) = queries.open_conflicts(store)
    assert (only.match_id, only.court, only.reason, only.settled_at) == ("1", "hall-1", "differs", None)
    assert (only.result.home_goals, only.result.away_goals) == (2, 1)

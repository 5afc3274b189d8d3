"""The desk's rules, pure: what may be corrected, a walk-over or forfeit, an abandoned match in seed 004's
order, a move, a decision for a tie, a conflict settled, a card ruled on, and a reason for each; every refusal
one DeskError (a CourtsideError and a ValueError) naming the form's field. The service's transactions and the
pages' backend apply them (tests/test_web_service_*.py, tests/test_server_service_store.py).

Then the writes as two organisers make them at once (issue 31): each checked against what is stored when it
is applied, in the transaction that applies it, one after the other across instances (two Stores on one
PostgreSQL stand for two instances): a second decision for a tie, a decision for a tie a correction dissolved,
a write on a page older than the match, a conflict settled twice; one is stored, the other refused with why."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from rules.errors import CourtsideError
from rules.standings import Decision
from server import desk, queries
from server.db.models import Conflict, Fixture, ResultRow
from server.desk import DeskError, StaleView
from server.plan import load_plan
from server.pool_tables import pool_state
from server.store import Store
from tests.service_support import at_once

CLOSED = "match 1's protest window closed at 14:35; the result is final"


def test_every_change_needs_its_reason() -> None:
    assert desk.reason("  scoresheet ") == "scoresheet"
    for empty in ("", "   "):
        with pytest.raises(DeskError, match="required") as err:
            desk.reason(empty)
        assert err.value.field == "why"
    assert issubclass(DeskError, CourtsideError) and issubclass(DeskError, ValueError)


def test_a_walkover_goes_to_one_of_the_matchs_teams() -> None:
    desk.walkover(13, "Hammarby IF P14", "AIK P14", "AIK P14")
    with pytest.raises(DeskError, match="does not play match 13") as err:
        desk.walkover(13, "Hammarby IF P14", "AIK P14", "Real Madrid")
    assert err.value.field == "winner"


def test_an_abandoned_match_is_settled_in_the_seeds_order() -> None:
    assert [key for key, _ in desk.ABANDONED_ORDER] == ["resume", "replay", "leader", "tie"]
    assert desk.abandoned("resume") == "game resumed at a later time"
    assert desk.abandoned("replay") == "game played at a later time"
    assert desk.abandoned("leader", 2, 1) == "leading team considered the winner"
    assert desk.abandoned("tie", 1, 1) == "game determined a tie"
    with pytest.raises(DeskError, match="no team leads at 1-1"):
        desk.abandoned("leader", 1, 1)
    with pytest.raises(DeskError, match="a tie is level") as err:
        desk.abandoned("tie", 2, 1)
    assert err.value.field == "home_goals"
    with pytest.raises(DeskError, match="'toss' is not one of resume, replay, leader, tie"):
        desk.abandoned("toss")


def test_a_match_moves_to_a_court_of_the_tournament_by_its_id_or_its_name() -> None:
    courts = {"plan-1": "Plan 1", "plan-2": "Plan 2"}
    assert desk.court_id(courts, "Plan 2") == desk.court_id(courts, "plan-2") == "plan-2"
    with pytest.raises(DeskError, match=r"there is no court 'Centre Court' \(not one of the courts: Plan 1, Plan 2"):
        desk.court_id(courts, "Centre Court")


def test_a_decision_orders_an_open_tie_of_a_played_pool() -> None:
    ties = [("C", frozenset({"GAIS P14", "Djurgården P14"}))]
    desk.open_tie("C", ("Djurgården P14", "GAIS P14"), ties, played=6, expected=6)
    with pytest.raises(DeskError, match="no open tie") as err:
        desk.open_tie("A", ("Djurgården P14", "GAIS P14"), ties, played=6, expected=6)
    assert err.value.field == "order"
    # At midday the same two are level, but pool C's last two matches may still part them.
    with pytest.raises(DeskError, match="pool C has played 4 of its 6 matches: a tie is decided once") as err:
        desk.open_tie("C", ("Djurgården P14", "GAIS P14"), [], played=4, expected=6)
    assert err.value.field == "pool"
    with pytest.raises(DeskError, match="method"):
        desk.decision(Decision(pool="C", method="dice", order=("a", "b")))
    with pytest.raises(DeskError, match="twice"):
        desk.decision(Decision(pool="C", method="lots", order=("a", "a")))


def test_a_conflicting_result_cannot_replace_a_locked_one() -> None:
    desk.conflict("held", None)
    with pytest.raises(DeskError, match="protest window closed") as err:
        desk.conflict("held", CLOSED)
    assert err.value.field == "keep"
    desk.conflict("stored", CLOSED)  # keeping the stored result changes nothing and may still be recorded


def test_the_organiser_rules_on_a_reported_card_only() -> None:
    desk.sanction(True, 7, "Hammarby IF P14", "7")
    with pytest.raises(DeskError, match=r"no report for 1 \(X\) in match 1"):
        desk.sanction(False, 1, "X", "1")


HOCKEY = load_plan(Path(__file__).resolve().parent.parent / "rules" / "examples" / "indoor-hockey.toml")
SHEET = {"outcome": "regular", "winner": None}


def _level_pool(store: Store) -> tuple[str, list[str]]:
    """Pool A all 1-1: a tie only a penalty competition breaks; the pool and the tie's teams."""
    for number, m in HOCKEY.fixtures.items():
        if m.stage == "A":
            desk.record_result(store, number, {"home_goals": 1, "away_goals": 1, **SHEET}, who="ann", why="sheet")
    with store.session() as s:
        table = pool_state(store, s, "A").table
    assert table is not None and table.unresolved
    return "A", list(table.unresolved[0].teams)


def test_a_second_decision_for_one_tie_is_refused(store: Store) -> None:
    pool, tie = _level_pool(store)
    desk.record_decision(store, pool, "penalty_competition", tie, who="ann", why="shoot-out held")
    with pytest.raises(DeskError, match=f"pool {pool} has no open tie"):
        desk.record_decision(store, pool, "penalty_competition", tie[::-1], who="bob", why="shoot-out held")
    assert len(store_decisions(store)) == 1


def test_two_organisers_deciding_one_tie_on_two_instances_store_one(pg_url: str) -> None:
    """Both sent at once, both were stored (200 each) and the table followed the later row."""
    one, two = Store.open(pg_url, HOCKEY), Store.open(pg_url, HOCKEY)
    try:
        pool, tie = _level_pool(one)
        raised = at_once(
            lambda: desk.record_decision(one, pool, "penalty_competition", tie, who="ann", why="held"),
            lambda: desk.record_decision(two, pool, "penalty_competition", tie[::-1], who="bob", why="held"))
        assert sorted(type(e).__name__ for e in raised) == ["DeskError", "NoneType"], raised
        assert len(store_decisions(one)) == 1
    finally:
        one.close()
        two.close()


def test_a_decision_for_a_tie_a_correction_dissolved_meanwhile_is_refused(store: Store) -> None:
    pool, tie = _level_pool(store)
    first = next(n for n, m in HOCKEY.fixtures.items() if m.stage == pool)
    desk.record_result(store, first, {"home_goals": 3, "away_goals": 1, "outcome": "regular", "winner": "home"},
                       who="ann", why="protest upheld")
    with pytest.raises(DeskError, match="no open tie"):
        desk.record_decision(store, pool, "penalty_competition", tie, who="bob", why="shoot-out held")
    assert store_decisions(store) == []


def test_a_write_on_a_page_older_than_the_match_is_refused_with_what_is_there_now(store: Store) -> None:
    """A correction and a walk-over on one match at once: both were told "saved" and the last won."""
    seen = _version(store, "1")
    desk.record_result(store, "1", {"home_goals": 0, "away_goals": 6, "outcome": "regular", "winner": "away"},
                       who="ann", why="score sheet", seen=seen)
    walkover = {"home_goals": 0, "away_goals": 0, "outcome": "walkover", "winner": "home"}
    with pytest.raises(StaleView, match=r"match 1 changed since this page was shown: now 0–6 from the desk"):
        desk.record_result(store, "1", walkover, who="bob", why="no show", seen=seen)
    with pytest.raises(StaleView):
        desk.move_match(store, "1", court="hall-2", who="bob", why="floor", seen=seen)
    assert [(r.home_goals, r.away_goals, r.outcome) for r in queries.results(store)] == [(0, 6, "regular")]
    desk.record_result(store, "1", walkover, who="bob", why="no show", seen=_version(store, "1"))  # looked again
    assert queries.results(store)[0].outcome == "walkover"


def test_a_conflict_settled_by_two_organisers_at_once_is_settled_once(pg_url: str) -> None:
    """Settling was two transactions: a second organiser could record the opposite settlement meanwhile."""
    one, two = Store.open(pg_url, HOCKEY), Store.open(pg_url, HOCKEY)
    try:
        conflict = _held_against_2_1(one)
        raised = at_once(
            lambda: desk.settle_conflict(one, conflict, apply=True, who="ann", why="the table is right"),
            lambda: desk.settle_conflict(two, conflict, apply=False, who="bob", why="the sheet is right"))
        assert sorted(type(e).__name__ for e in raised) == ["DeskError", "NoneType"], raised
        assert "no open conflict" in str(next(e for e in raised if e is not None))
        with one.session() as s:
            settled = s.get(Conflict, conflict)
            stored = s.get(ResultRow, "1")
            assert settled is not None and stored is not None
            applied = settled.settlement == "applied"
            assert (stored.home_goals, stored.away_goals) == ((2, 2) if applied else (2, 1))
    finally:
        one.close()
        two.close()


def _held_against_2_1(store: Store) -> int:
    """Match 1 stored 2-1; its table's 2-2 held as a conflict for the organiser: the conflict's id."""
    desk.record_result(store, "1", {"home_goals": 2, "away_goals": 1, "outcome": "regular", "winner": "home"},
                       who="ann", why="sheet")
    with store.session.begin() as s:
        c = Conflict(match_id="1", court="hall-1", seq=9, payload={"home_goals": 2, "away_goals": 2, **SHEET},
                     reason="differs", message_id="m-1", received_at=datetime.now(UTC))
        s.add(c)
        s.flush()
        return c.id


def _version(store: Store, match_id: str) -> str:
    with store.session() as s:
        f = s.get(Fixture, match_id)
        assert f is not None
        return desk.match_version(f.court_name, f.start, s.get(ResultRow, match_id))


def store_decisions(store: Store) -> list[Any]:
    with store.session() as s:
        return list(store.decisions(s))


def test_a_rejected_conflict_names_its_court_so_every_instance_hears_of_it(store: Store) -> None:
    """A rejection changes no pool: it was published nowhere, and another instance listed the conflict as open
    until its snapshot went stale (10 s). The court's schedule is published now (server.watch hears it)."""
    conflict = _held_against_2_1(store)
    affected = desk.settle_conflict(store, conflict, apply=False, who="ann", why="the sheet is right")
    assert affected.courts == {"hall-1"} and affected.matches == {"1"} and not affected.pools


def test_a_tables_result_arriving_while_a_desk_write_is_applied_waits_for_it_and_is_held(
        mosquitto: Any, pg_url: str) -> None:
    """The desk's lock was the desk's alone: a table's result stored between a desk write's check ("no result")
    and its insert made the write fail (a 500 for the organiser), or could be replaced by a write that never saw
    it. Now a batch of the tables' messages waits for the desk write under way, and then meets what it stored."""
    from sqlalchemy import func, select, text

    from rules.link_payloads import ErrorPayload
    from server.db.models import Change
    from tests.service_support import TableClient, played, running_service

    broker = mosquitto()
    plan = HOCKEY
    with running_service(pg_url, broker.url, plan=plan) as service:
        table = TableClient(broker.url, plan.id, "hall-1")
        try:
            events, result = played(plan.rulesets[""], 3, 4)
            for e in events:
                table.send_event("1", e)
            table.wait_for("ack", lambda a: a.payload == {"of": "event", "through": len(events)})
            with desk.writing(service.store) as s:  # the organiser's write: checked, not yet stored
                table.send_result("1", len(events), result)
                waiting = text("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND "
                               "database = (SELECT oid FROM pg_database WHERE datname = current_database())")
                with service.store.engine.connect() as look:  # the service's batch waits for this write's lock
                    deadline = time.monotonic() + 30
                    while not look.execute(waiting).scalar():
                        assert time.monotonic() < deadline, "the table's result did not wait for the desk's write"
                        time.sleep(0.02)
                desk.put_result(service.store, s, "1", desk.check_result(
                    {"home_goals": 1, "away_goals": 0, "outcome": "regular", "winner": "home"}),
                    who="ann", why="score sheet")
            error = table.wait_for("error", lambda m: isinstance(m.body, ErrorPayload) and m.body.conflict).body
            assert isinstance(error, ErrorPayload)
            assert "match 1 is finished already at 1-0 (regular) (organiser)" in error.reason
        finally:
            table.close()
    after = Store.open(pg_url, plan)
    with after.session() as s:
        stored = s.get(ResultRow, "1")
        assert stored is not None and (stored.home_goals, stored.away_goals, stored.source) == (1, 0, "organiser")
        held = s.scalars(select(Conflict.payload).where(Conflict.match_id == "1")).all()
        assert [(p["home_goals"], p["away_goals"]) for p in held] == [(3, 4)]
        assert s.scalar(select(func.count()).select_from(Change)) == 1
    after.close()


def test_a_result_at_the_desk_names_its_court_and_the_courts_of_the_matches_that_wait_on_it(store: Store) -> None:
    """Indoor hockey: SF1 on Hall 1, SF2 on Hall 2, the third place and the final on Hall 1. Every court's schedule
    was sent again after each desk result: at a cup's 110 courts, 180 ms of the service's loop for each."""
    for number, m in HOCKEY.fixtures.items():
        if m.stage in ("A", "B"):
            affected = desk.record_result(store, number, {"home_goals": 2, "away_goals": 1, "outcome": "regular",
                                                          "winner": "home"}, who="ann", why="sheet")
            assert affected.courts == {"hall-1", "hall-2"}  # the semi-finals and pool C take their teams from it
    final = next(n for n, m in HOCKEY.fixtures.items() if m.stage == "F")
    won = {"home_goals": 3, "away_goals": 1, "outcome": "regular", "winner": "home"}
    assert desk.record_result(store, "15", won, who="ann", why="sheet").courts == {"hall-1"}  # SF1
    assert desk.record_result(store, "16", won, who="ann", why="sheet").courts == {"hall-2", "hall-1"}  # SF2
    assert desk.record_result(store, final, won, who="ann", why="sheet").courts == {"hall-1"}

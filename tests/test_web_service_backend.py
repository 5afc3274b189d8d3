"""The pages' backend over the service's store, on SQLite and PostgreSQL: a desk result goes through
the service's loop and its audit; the protest window (youth football: one hour) runs on the stored
instant; a refusal changes nothing."""

from __future__ import annotations

import contextlib
import dataclasses
import re
import threading
import time
import uuid
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from rules import protocol as p
from rules.live import live_payload
from rules.match import (
    ClockStarted,
    Goal,
    Match,
    MatchAbandoned,
    event_to_dict,
)
from rules.standings import MatchResult
from server.desk import ABANDONED_ORDER, DeskError
from server.desk_commands import CorrectResult, MoveMatch, RuleSanction, SettleConflict
from server.plan import load_plan
from server.service import Service
from server.store import Store
from server.web import create_app, service_backend
from server.web.service_backend import ServiceBackend
from server.web.view import View
from tests.service_support import TableClient, played, running_service

EXAMPLES = Path(__file__).resolve().parent.parent / "rules" / "examples"
YOUTH = EXAMPLES / "youth-football.toml"


def test_a_desk_result_is_stored_audited_and_provisional(mosquitto: Any, db_url: str) -> None:
    broker = mosquitto()
    with running_service(db_url, broker.url, plan=load_plan(YOUTH)) as service:
        backend = ServiceBackend(service)
        first = View(backend.data()).by_number[1]
        result = MatchResult(pool=first.stage, home=first.home, away=first.away, home_goals=2, away_goals=2)
        backend.submit(CorrectResult(who="anna", why="scoresheet", number=1, result=result))
        view = View(backend.data())
        row = view.by_number[1]
        assert row.recorded is not None and row.recorded.result.home_goals == 2 and row.recorded.by == "anna"
        assert row.locked_at is not None and abs(row.locked_at - (datetime.now() + timedelta(hours=1))) < timedelta(
            minutes=5)
        assert not row.locked(view.data.now) and row.locked(view.data.now + timedelta(hours=2))
        assert view.data.audit[-1].who == "anna" and view.data.audit[-1].why == "scoresheet"
        before = backend.data()
        with pytest.raises(DeskError, match="not one of the courts"):
            backend.submit(MoveMatch(who="anna", why="x", number=1, court="Centre Court", start=row.start))
        after = backend.data()  # the loop may have told the pages of its own publishing meanwhile: a new snapshot
        assert (after.moves, after.audit, after.results) == (before.moves, before.audit, before.results)
        with TestClient(create_app(backend, accounts_url=db_url, lang="en", secure_cookies=False)) as client:
            page = client.get(f"/pool/{first.stage}")
        assert page.status_code == 200 and "provisional until" in page.text


def _with_penalties(ruleset: Any, penalties: tuple[tuple[str, str], ...]) -> tuple[list[dict[str, Any]],
                                                                                   dict[str, Any]]:
    """A 1-0 match in which the away team's players are given ``penalties`` ((kind, player) pairs)."""
    return played(ruleset, 1, 0, cards=[("away", kind, player) for kind, player in penalties])


def test_the_snapshot_reads_no_match_of_its_own_after_a_result(mosquitto: Any, db_url: str) -> None:
    """Issue 32: the snapshot read each finished match's events with a query of its own, so the first page after a
    result cost more as the day went on (81 ms after 53 results, 212 ms after 703). A rebuild reads the matches
    with a card in one statement and replays a match's events only when they changed: after nine results without
    a card it reads no match's events at all."""
    from sqlalchemy import event

    broker = mosquitto()
    plan = load_plan(YOUTH)
    with running_service(db_url, broker.url, plan=plan) as service:
        backend = ServiceBackend(service)
        statements: list[str] = []
        here = threading.get_ident()  # the service's loop reads on its own thread meanwhile: not counted
        event.listen(service.store.engine, "before_cursor_execute",
                     lambda _c, _cur, sql, *_a: statements.append(sql) if threading.get_ident() == here else None)
        for n in sorted(int(n) for n, m in plan.fixtures.items() if m.round == "pool")[:9]:
            row = View(backend.data()).by_number[n]
            backend.submit(CorrectResult(who="anna", why="sheet", number=n, confirmed=True, result=MatchResult(
                pool=row.stage, home=row.home, away=row.away, home_goals=1, away_goals=0)))
        statements.clear()
        data = backend.data()
        assert len(data.results) == 9 and statements
        # A match of its own: the events of one match id bound as a parameter (SQLite's "?", psycopg's "%(...)s").
        one_match = [s for s in statements if "FROM events" in s and re.search(r"events\.match_id = (\?|%\()", s)]
        assert one_match == [], one_match


def test_the_snapshot_after_a_live_state_reads_on_one_connection(db_url: str) -> None:
    """A court's live state rebuilds the light part of the snapshot (live states, presence, conflicts, the matches
    with new events, a late card) several times a second. Each read took a connection of its own, and on
    PostgreSQL each checkout is a ping and its return a rollback, eight round trips more than one connection
    needs, on the pages' loop. The reads now share one, and still see each new state."""
    from sqlalchemy import event

    plan = load_plan(YOUTH)
    store = Store.open(db_url, plan)
    service = Service(store, "mqtt://127.0.0.1:9", group=None)  # never connected, alone: its batches run here
    backend = ServiceBackend(service)
    backend.data()
    checkouts: list[object] = []
    event.listen(store.engine, "checkout", lambda *a: checkouts.append(a))
    first = plan.fixtures["1"]
    rules = plan.ruleset_of(first.stage)
    match = Match(rules)
    match.apply(ClockStarted(at=0))
    topic = p.court_topic(plan.id, plan.court_id(first.court), "live")
    for clock_at in (1000, 2000):
        payload = live_payload(match.state_at(clock_at), rules, "1")
        service._messages([(topic, p.encode(p.build(id=uuid.uuid4().hex, type="live", court=plan.court_id(
            first.court), match="1", payload=payload)))], set(), set())  # which tells the backend, as the loop does
        checkouts.clear()
        data = backend.data()
        assert data.live[first.court].clock_ms == rules.match.period_length - clock_at
        assert len(checkouts) == 1
    store.close()


def test_a_stored_result_is_told_to_the_pages_at_once_a_live_state_at_the_rounds_pace(db_url: str) -> None:
    """The pages' rounds come at most every ROUND_S (server.web.fanout), the pace of a cup's live states; a stored
    result (what its pool's pages read in full) is told at once and does not wait for the next."""
    plan = load_plan(YOUTH)
    store = Store.open(db_url, plan)
    service = Service(store, "mqtt://127.0.0.1:9", group=None)  # never connected, alone: its batches run here
    backend = ServiceBackend(service)
    hub = backend.changes
    first = plan.fixtures["1"]
    court = plan.court_id(first.court)
    rules = plan.ruleset_of(first.stage)
    match = Match(rules)
    match.apply(ClockStarted(at=0))
    live = p.build(id=uuid.uuid4().hex, type="live", court=court, match="1",
                   payload=live_payload(match.state_at(1000), rules, "1"))
    before = hub.version
    service._messages([(p.court_topic(plan.id, court, "live"), p.encode(live))], set(), set())
    assert hub.version > before and not hub.told_at_once(before)
    events, result = played(rules, 2, 0)
    before = hub.version
    service._messages([(p.court_topic(plan.id, court, "events"), p.encode(p.event_message(
        id=uuid.uuid4().hex, court=court, match="1", event=e))) for e in events], set(), set())
    assert not hub.told_at_once(before)  # events alone: the court's pages, at the rounds' pace
    service._messages([(p.court_topic(plan.id, court, "result"), p.encode(p.result_message(
        id=uuid.uuid4().hex, court=court, match="1", seq=events[-1]["seq"], result=result)))], set(), set())
    assert hub.told_at_once(before)
    assert 1 in backend.data().results
    store.close()


def test_the_publishing_and_the_snapshot_after_a_result_read_on_one_connection_each(db_url: str) -> None:
    """After a result the loop publishes (the pool's table, the class's scorers, the suspensions, the courts'
    schedules) and the pages rebuild their whole snapshot (schedule, results, progress, change log, team sheets,
    cards, rulings). Each part read on a connection of its own: four checkouts in the publishing and six in the
    snapshot, each a ping and a rollback on PostgreSQL. Each now reads on one, and the progress the publishing
    worked out is kept for the loop's next check. The snapshot read the events' marks twice, for its schedule and
    for the timelines: once now."""
    from sqlalchemy import event

    plan = load_plan(YOUTH)
    store = Store.open(db_url, plan)
    service = Service(store, "mqtt://127.0.0.1:9", group=None)  # never connected, alone: its batches run here
    backend = ServiceBackend(service)
    backend.data()
    first = plan.fixtures["1"]
    court = plan.court_id(first.court)
    lines, result = played(plan.ruleset_of(first.stage), 2, 1)
    messages = [(p.court_topic(plan.id, court, "events"), p.encode(p.event_message(
        id=uuid.uuid4().hex, court=court, match="1", event=line))) for line in lines]
    messages.append((p.court_topic(plan.id, court, "result"), p.encode(p.result_message(
        id=uuid.uuid4().hex, court=court, match="1", seq=lines[-1]["seq"], result=result))))
    pools: set[str] = set()
    courts: set[str] = set()
    service._messages(messages, pools, courts)
    assert pools == {first.stage}
    checkouts: list[object] = []
    event.listen(store.engine, "checkout", lambda *a: checkouts.append(a))
    service.publishing.changes(pools, courts)
    assert len(checkouts) == 1
    worked_out: list[object] = []
    work_out = store.progresses.work_out

    def counted(s: Any) -> Any:
        worked_out.append(s)
        return work_out(s)

    store.progresses.work_out = counted  # type: ignore[method-assign]
    assert store.progress().pools[first.stage].table is not None
    assert worked_out == []  # the publishing's, kept under the key it read first
    service.publishing.changes(set(), courts)  # as after a batch of events: the same results, the kept progress
    assert worked_out == []
    checkouts.clear()
    statements: list[str] = []
    event.listen(store.engine, "before_cursor_execute", lambda _c, _cur, sql, *_a: statements.append(sql))
    data = backend.data()
    assert 1 in data.results and len(checkouts) == 1
    # The events' marks (the matches under way, the timelines' freshness) read once: by the base's schedule.
    assert len([s for s in statements if "FROM events WHERE events.id >" in " ".join(s.split())]) == 1, statements
    store.close()


def test_a_tables_result_adds_its_own_record_to_the_snapshot_and_a_correction_remakes_it(
        mosquitto: Any, db_url: str) -> None:
    """The snapshot keeps the last one's records of the results and adds a new result's own (a result is stored
    last); a correction at the desk makes the corrected match's record again, with what it was."""
    broker = mosquitto()
    plan = load_plan(YOUTH)
    with running_service(db_url, broker.url, plan=plan) as service:
        backend = ServiceBackend(service)
        first, second = (View(backend.data()).by_number[n] for n in (1, 2))
        backend.submit(CorrectResult(who="anna", why="sheet", number=1, confirmed=True, result=MatchResult(
            pool=first.stage, home=first.home, away=first.away, home_goals=1, away_goals=0)))
        before = backend.data().results
        table = TableClient(broker.url, plan.id, plan.court_id(second.court))
        try:
            events, result = played(plan.ruleset_of(second.stage), 3, 1)
            table.play("2", events, result)
            deadline = time.monotonic() + 20
            while 2 not in (after := backend.data().results):
                assert time.monotonic() < deadline, "the table's result never reached the snapshot"
                time.sleep(0.05)
        finally:
            table.close()
        assert after[1] is before[1] and after[2].by == "table"
        assert (after[2].result.home_goals, after[2].result.away_goals) == (3, 1)
        backend.submit(CorrectResult(who="anna", why="sheet", number=2, confirmed=True, result=MatchResult(
            pool=second.stage, home=second.home, away=second.away, home_goals=3, away_goals=2)))
        corrected = backend.data().results[2]
        assert (corrected.result.away_goals, corrected.by, corrected.was) == (2, "anna", "3-1")
        assert list(backend.data().results) == [1, 2]


def test_a_match_moved_and_moved_back_is_marked_moved_then_not(mosquitto: Any, db_url: str) -> None:
    """The snapshot looks again only at the views that changed since the last one, in their places: a move puts
    them in other places, and its match's mark and version must follow it there and back."""
    broker = mosquitto()
    with running_service(db_url, broker.url, plan=load_plan(YOUTH)) as service:
        backend = ServiceBackend(service)
        first = backend.data()
        row = View(first).by_number[1]
        later = row.start + timedelta(hours=3)
        backend.submit(MoveMatch(who="anna", why="pitch", number=1, court=row.court, start=later))
        moved = backend.data()
        assert moved.moves == {1: (row.court, later)} and moved.versions[1] != first.versions[1]
        assert all(moved.versions[n] == v for n, v in first.versions.items() if n != 1)
        backend.submit(MoveMatch(who="anna", why="pitch dry", number=1, court=row.court, start=row.start))
        back = backend.data()
        assert back.moves == {} and back.versions == first.versions
        # To another pitch at the same time and back: the match keeps its place in the schedule's order.
        other = next(c for c in View(back).courts if c != row.court)
        backend.submit(MoveMatch(who="anna", why="goal broken", number=1, court=other, start=row.start))
        assert backend.data().moves == {1: (other, row.start)}
        backend.submit(MoveMatch(who="anna", why="goal mended", number=1, court=row.court, start=row.start))
        assert backend.data().moves == {}


@pytest.mark.parametrize(("example", "court", "penalties", "flagged"), [
    # Seed 004: "All game penalties are addressed to Tournament Organizers"; a minor is not.
    ("ice-hockey", "rink", (("minor", "3"), ("game_misconduct", "12"), ("match_penalty", "19")),
     {("12", "Game misconduct", 0), ("19", "Match penalty", 0)}),
    # Seed 001: brutality suspends for at least one match and goes before the disciplinary committee;
    # an exclusion for misconduct ends with the match.
    ("water-polo", "pool-1", (("misconduct", "4"), ("brutality", "6")), {("6", "Red card (brutality)", 1)}),
])
def test_game_penalties_and_brutality_from_a_tables_match_wait_for_the_organisers_ruling(
        mosquitto: Any, tmp_path: Path, example: str, court: str, penalties: tuple[tuple[str, str], ...],
        flagged: set[tuple[str, str, int]]) -> None:
    broker = mosquitto()
    plan = load_plan(EXAMPLES / f"{example}.toml")
    with running_service(f"sqlite:///{tmp_path / 's.db'}", broker.url, plan=plan) as service:
        table = TableClient(broker.url, service.plan.id, court)
        try:
            events, result = _with_penalties(plan.rulesets[""], penalties)
            table.play("1", events, result)
            table.wait_for("ack", lambda m: m.payload["of"] == "result")
        finally:
            table.close()
        backend = ServiceBackend(service)
        view = View(backend.data())
        away = view.by_number[1].away
        waiting = view.pending_rulings()
        assert {(s.player, s.label, s.suspended_matches) for s in waiting} == flagged
        assert all(s.team == away and s.needs_decision for s in waiting)
        with _desk(backend, f"sqlite:///{tmp_path / 's.db'}") as (client, _):
            desk = client.get("/desk").text
            assert desk.count('action="/desk/sanction"') == len(flagged)
        ruled = waiting[0]
        backend.submit(RuleSanction(who="anna", why="heard both teams and the referees", number=1, team=away,
                                    player=ruled.player, matches=2))
        after = View(backend.data())
        assert {s.player for s in after.pending_rulings()} == {s.player for s in waiting} - {ruled.player}
        (done,) = [s for s in after.suspensions if s.sanction.player == ruled.player]
        later = [m.number for m in after.team_matches(away) if m.number != 1]
        assert done.sanction.decided == "misses 2 match(es)" and done.misses == tuple(later[:2]) != ()


def test_once_the_protest_window_closes_the_service_refuses_every_change_to_the_result(
        mosquitto: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The youth cup's window, one hour, shortened to a second so the test can wait for it on the real clock;
    # the snapshot's instant moves on every 0.2 s instead of 10 with nothing else happening.
    monkeypatch.setattr(service_backend, "TICK", 0.2)
    youth = load_plan(YOUTH)
    plan = dataclasses.replace(youth, rulesets={"": youth.rulesets[""].replace(protest_window=1000)})
    broker = mosquitto()
    with running_service(f"sqlite:///{tmp_path / 's.db'}", broker.url, plan=plan) as service:
        table = TableClient(broker.url, plan.id, "plan-1")
        try:
            table.play_then_correct("1", plan.rulesets[""])  # the service holds the 2-1 for the organiser
        finally:
            table.close()
        backend = ServiceBackend(service)
        deadline = time.monotonic() + 10
        while not (view := View(backend.data())).by_number[1].locked(view.data.now):
            assert time.monotonic() < deadline, "the protest window did not close"
            time.sleep(0.1)
        view = View(backend.data())
        (conflict,) = view.data.conflicts
        row = view.by_number[1]
        late = MatchResult(pool=row.stage, home=row.home, away=row.away, home_goals=0, away_goals=3)
        for command in (CorrectResult(who="anna", why="late protest", number=1, result=late),
                        SettleConflict(who="anna", why="the table's correction", conflict=conflict.id, keep="held")):
            with pytest.raises(DeskError, match="protest window closed"):
                backend.submit(command)
        # Keeping the stored result changes nothing, so the conflict can still be closed that way.
        backend.submit(SettleConflict(who="anna", why="after the window", conflict=conflict.id, keep="stored"))
        after = View(backend.data())
        assert after.data.conflicts == ()
        assert after.by_number[1].recorded is not None and after.by_number[1].recorded.result.home_goals == 1
        # The pages say so: final on the desk, no longer provisional on the pool page, locked in the API;
        # the desk's form for the result is refused with the reason.
        with _desk(backend, f"sqlite:///{tmp_path / 's.db'}") as (client, token):
            assert "final (protest window closed" in client.get("/desk/match/1").text
            assert "provisional until" not in client.get(f"/pool/{row.stage}").text
            assert client.get("/api/v1/matches/1").json()["match"]["locked"] is True
            late = client.post("/desk/match/1/result", data={"csrf": token, "home_goals": "0", "away_goals": "3",
                                                            "why": "late protest"})
            assert late.status_code == 409 and "protest window closed" in late.text


@contextlib.contextmanager
def _desk(backend: ServiceBackend, db_url: str) -> Iterator[tuple[TestClient, str]]:
    """The desk in English, anna logged in: the client and the session's CSRF token."""
    app = create_app(backend, accounts_url=db_url, lang="en", secure_cookies=False)
    app.state.site.accounts.add("anna", "a long desk password")
    with TestClient(app, base_url="http://127.0.0.1") as client:
        page = client.get("/desk/login")
        csrf = re.search(r'name="csrf" value="([^"]+)"', page.text)
        assert csrf is not None
        client.post("/desk/login", data={"csrf": csrf.group(1), "name": "anna", "password": "a long desk password"})
        token = re.search(r'name="csrf" value="([^"]+)"', client.get("/desk").text)
        assert token is not None
        yield client, token.group(1)


def _abandoned(ruleset: Any, home: int, away: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """A match the table abandons at ``home``-``away`` (the officials' long hold on the abandon button)."""
    match = Match(ruleset, stage="round_robin", round="pool")
    match.apply(ClockStarted(at=0))
    at = 0
    for side, goals in (("home", home), ("away", away)):
        for _ in range(goals):
            at += 1000
            match.apply(Goal(at=at, team=side))  # type: ignore[arg-type]
    match.apply(MatchAbandoned(at=at + 1000, reason="the ice machine broke down"))
    outcome = match.result()
    assert outcome is not None and outcome.outcome == "abandoned"
    return [event_to_dict(e) for e in match.events], {"home_goals": outcome.home_goals,
                                                      "away_goals": outcome.away_goals,
                                                      "outcome": "abandoned", "winner": None}


@pytest.mark.parametrize(("settle", "fields"), [
    # Seed 004's order of consideration, each as the organiser picks it on the desk.
    ("resume", {"court": "Rink", "start": "2026-04-11T18:00"}),
    ("replay", {"court": "Rink", "start": "2026-04-12T07:00"}),
    ("leader", {"home_goals": "2", "away_goals": "1"}),
    ("tie", {"home_goals": "1", "away_goals": "1"}),
])
def test_a_match_the_table_abandons_waits_on_the_desk_and_is_settled_in_the_seeds_order(
        mosquitto: Any, tmp_path: Path, settle: str, fields: dict[str, str]) -> None:
    broker = mosquitto()
    db = f"sqlite:///{tmp_path / 's.db'}"
    plan = load_plan(EXAMPLES / "ice-hockey.toml")
    with running_service(db, broker.url, plan=plan) as service:
        table = TableClient(broker.url, plan.id, "rink")
        try:
            events, result = _abandoned(plan.rulesets[""], 2, 1)
            table.play("1", events, result)
            table.wait_for("error", lambda m: "abandoned" in m.payload.get("reason", ""))
        finally:
            table.close()
        backend = ServiceBackend(service)
        view = View(backend.data())
        (report,) = view.data.abandoned
        assert (report.number, report.court, report.home_goals, report.away_goals) == (1, "Rink", 2, 1)
        assert view.data.conflicts == () and view.by_number[1].recorded is None  # no result, no "conflict"
        with _desk(backend, db) as (client, token):
            desk = client.get("/desk").text
            assert 'href="/desk/match/1"' in desk and "Abandoned at the table at 2–1" in desk
            page = client.get("/desk/match/1").text
            assert 'id="xh" name="home_goals" inputmode="numeric" value="2"' in page  # the score when it stopped
            if settle == "tie":  # a tie is level: 2-1 as it stopped is refused, and says so
                refused = client.post("/desk/match/1/abandoned", data={
                    "csrf": token, "settle": "tie", "home_goals": "2", "away_goals": "1", "why": "x"})
                assert refused.status_code == 409 and "a tie is level, not 2-1" in refused.text
            done = client.post("/desk/match/1/abandoned", data={
                "csrf": token, "settle": settle, "home_goals": "2", "away_goals": "1",
                "why": "both teams and the referees heard", **fields}, follow_redirects=False)
            assert done.status_code == 303, done.text
            assert "Abandoned matches" not in client.get("/desk").text
        after = View(backend.data())
        assert after.data.abandoned == () and after.data.conflicts == ()
        row = after.by_number[1]
        label = dict(ABANDONED_ORDER)[settle]
        assert any(a.who == "anna" and f"abandoned, {label}: both teams" in a.why for a in after.data.audit)
        if settle in ("leader", "tie"):
            assert row.recorded is not None and row.recorded.by == "anna"
            assert row.recorded.note == f"abandoned: {label}"
            score = (int(fields["home_goals"]), int(fields["away_goals"]))
            assert (row.recorded.result.home_goals, row.recorded.result.away_goals) == score
            assert row.winner == (row.home if settle == "leader" else None)
        else:  # played again later, on the court and at the time the desk gave, the table's score only a report
            assert row.recorded is None and row.moved and row.start == datetime.fromisoformat(fields["start"])


# -- seed 004's first two ways played through a real table: resumed, replayed ------------------------------


def _pump(b: Any, until: Any, timeout: float = 20.0) -> None:
    """Be the table's loop in real time while its clock is virtual: hand it what its link posted."""
    deadline = time.monotonic() + timeout
    while not until():
        assert time.monotonic() < deadline, f"gave up waiting; the link says {b.loop.link.status()}"
        b.loop.step()
        time.sleep(0.02)


@contextlib.contextmanager
def _rink_table(broker_url: str, plan_id: str, journal: Path) -> Iterator[Any]:
    """The ice-hockey example's one court as a real table (loop, journal, outbox, MQTT link), pins mocked."""
    from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

    from firmware.link import Link
    from firmware.screen import HeadlessScreen
    from firmware.table import TableOptions, open_table
    from tests.firmware_support import Board

    link = Link(broker_url, tournament=plan_id, court_id="rink", court_name="Rink", journal=journal)
    screen = HeadlessScreen(echo=lambda _: None)
    table = open_table(TableOptions(tournament=str(EXAMPLES / "ice-hockey.toml"), court="Rink", journal=journal,
                                    speed=0, factory=MockFactory()), screen=screen, link=link)
    b = Board(table, screen)
    link.start(b.loop.queue.put)
    link.match_loaded(b.loop.session.header, b.loop.session.match.events)
    try:
        yield b
    finally:
        link.stop()
        table.close()


def _goal(b: Any, side: str, player: str) -> None:
    b.type(player)
    b.press(f"goal_{side}")  # ice hockey's clock stops on a goal: the officials start it again
    b.at(b.loop.clock.seconds() + 10)
    b.press("clock_start")


def _play_out(b: Any) -> None:
    """On from where the clock stands to the final horn: each period run out, the next one started."""
    while b.state.phase != "finished":
        b.at(b.loop.clock.seconds() + 1000)  # past a period's end and the 1-minute break
        if b.state.phase == "play" and not b.state.running:
            b.press("clock_start")


@pytest.mark.parametrize(("settle", "goals", "final"), [
    ("resume", (("away", "21"),), (1, 1)),  # goes on from 1-0
    ("replay", (("away", "21"), ("away", "8")), (0, 2)),  # starts from 0-0: the abandoned 1-0 counts for nothing
])
def test_an_abandoned_match_settled_resume_or_replay_is_played_on_at_the_table_then_stored_and_ranked(
        mosquitto: Any, db_url: str, tmp_path: Path, settle: str, goals: tuple[tuple[str, str], ...],
        final: tuple[int, int]) -> None:
    from firmware.actions import ActionName
    from firmware.buttons import Action

    broker = mosquitto()
    plan = load_plan(EXAMPLES / "ice-hockey.toml")
    with running_service(db_url, broker.url, plan=plan) as service, \
            _rink_table(broker.url, plan.id, tmp_path / "journal") as b:
        backend = ServiceBackend(service)
        b.press("clock_start")
        b.at(120.0)
        _goal(b, "home", "9")
        b.at(360.0)
        b.loop.do(Action(name=ActionName.ABANDON, at=b.loop.clock.seconds()))  # the officials' long hold
        _pump(b, lambda: View(backend.data()).data.abandoned != ())
        (report,) = View(backend.data()).data.abandoned
        assert (report.number, report.home_goals, report.away_goals) == (1, 1, 0)
        b.press("next")  # before the organiser's word NEXT goes on to match 2, not back to match 1
        assert b.loop.session.scheduled.match == "2" and "1" in b.loop.abandoned
        with _desk(backend, db_url) as (client, token):
            done = client.post("/desk/match/1/abandoned", data={
                "csrf": token, "settle": settle, "court": "Rink", "start": "2026-04-11T07:40",
                "why": "both teams and the referees heard"}, follow_redirects=False)
            assert done.status_code == 303, done.text
        # The court's schedule now says how match 1 goes on; its table takes it (match 2 not yet started).
        _pump(b, lambda: any(m.match == "1" and m.continues == settle for m in b.loop.source.matches))
        b.press("mode", length=3.5)  # match 2 not started: the long hold loads the next, match 1 again
        session = b.loop.session
        assert session.scheduled.match == "1"
        assert session.match.events[-1].type == {"resume": "match_resumed", "replay": "match_replayed"}[settle]
        assert session.match.events[-1].seq == session.match.events[-2].seq + 1  # the seq goes on
        assert (b.state.home_goals, b.state.away_goals) == ((1, 0) if settle == "resume" else (0, 0))
        b.press("clock_start")
        for side, player in goals:
            b.at(b.loop.clock.seconds() + 60)
            _goal(b, side, player)
        _play_out(b)
        assert (b.state.home_goals, b.state.away_goals) == final
        _pump(b, lambda: View(backend.data()).by_number[1].recorded is not None)
        view = View(backend.data())
        row = view.by_number[1]
        assert row.recorded is not None
        assert (row.recorded.result.home_goals, row.recorded.result.away_goals) == final
        assert view.data.abandoned == () and view.data.conflicts == ()
        progress = view.data.progress
        assert progress is not None
        table = progress.pools[row.stage].table
        assert table is not None
        standing = {r.team: r for r in table.rows}
        home, away = standing[row.home], standing[row.away]
        assert (home.played, home.goals_for, away.goals_for) == (1, final[0], final[1])
        points = plan.rulesets[""].points
        assert (home.points, away.points) == ((points.draw, points.draw) if final[0] == final[1]
                                              else (points.loss, points.win))

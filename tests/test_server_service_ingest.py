"""The service against a real Mosquitto and a real database: acks after commit, idempotency, refusals."""

from __future__ import annotations

import contextlib
import json
import threading
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from rules import protocol as p
from rules.link_payloads import ErrorPayload
from rules.live import live_payload
from rules.match import ClockStarted, Match
from rules.ruleset import load_ruleset
from server import queries
from server.db.models import EventRow, MessageLog, ResultRow
from server.ingest import fixtures_of, ingest
from server.plan import load_plan
from server.service import Service
from server.store import Store
from server.web.service_backend import ServiceBackend
from tests.service_support import HOCKEY, TableClient, played, running_service
from tests.test_protocol import schema_for

RULES = load_ruleset("indoor-hockey")


def test_a_match_from_a_court_is_acked_stored_ranked_and_published(mosquitto: Any, db_url: str) -> None:
    broker = mosquitto()
    with running_service(db_url, broker.url) as service:
        table = TableClient(broker.url, service.plan.id, "hall-1")
        events, result = played(RULES, 3, 1)
        table.play("1", events, result)
        ack = table.wait_for("ack", lambda m: m.payload["of"] == "result")
        assert (ack.match, ack.seq, ack.payload["through"]) == ("1", events[-1]["seq"], events[-1]["seq"])
        pool = table.wait_for("table", lambda m: m.payload["pool"] == "A" and m.payload["played"] == 1)
        assert pool.payload["rows"][0]["team"] == "Rot-Weiss Köln"
        # The same messages again, and out of order: nothing changes, every one is acked again.
        for e in reversed(events):
            table.send_event("1", e)
        table.send_result("1", events[-1]["seq"], result)
        table.wait_for("ack", lambda m: m.payload["of"] == "result")
        with service.store.session() as s:
            assert s.scalar(select(func.count()).select_from(EventRow)) == len(events)
            assert s.scalar(select(func.count()).select_from(ResultRow)) == 1
        assert queries.fixture(service.store, "1").status == "finished"  # type: ignore[union-attr]
        table.close()
    # Everything the service sent, as captured from the broker, fits docs/asyncapi.yaml.
    kinds = set()
    for topic, raw in table.raw:
        kind = p.parse_topic(topic).kind
        channel = {"errors": "error", "events": "event"}.get(kind, kind)
        schema_for(channel)[1].validate(json.loads(raw))
        kinds.add(channel)
    assert kinds >= {"ack", "table", "schedule"}


def test_wrong_court_unknown_match_bad_payload_and_false_result_are_refused(mosquitto: Any, db_url: str) -> None:
    broker = mosquitto()
    with running_service(db_url, broker.url) as service:
        table = TableClient(broker.url, service.plan.id, "hall-2")
        events, result = played(RULES, 2, 0)
        table.send_event("1", events[0])  # match 1 is on hall-1
        err = table.wait_for("error")
        assert "scheduled on Hall 1, not here" in err.payload["reason"]
        schema_for("error")[1].validate(err.to_dict())
        table.send_event("99", events[0])
        assert "no match '99'" in table.wait_for("error").payload["reason"]
        table.send_raw("events", b'{"v": 1, "id": "x"')
        assert "json" in table.wait_for("error").payload["reason"]
        table.send_raw("events", json.dumps({"v": 1}).encode() + b" " * 20_000)
        assert "size" in table.wait_for("error").payload["reason"]
        for e in events:
            table.send_event("2", e)
        table.send_result("2", events[-1]["seq"], {**result, "home_goals": 5})
        err = table.wait_for("error", lambda m: m.match == "2")
        assert "differs from what its events give" in err.payload["reason"]
        with service.store.session() as s:
            assert s.scalar(select(func.count()).select_from(ResultRow)) == 0
            refused = s.scalar(select(func.count()).select_from(MessageLog).where(MessageLog.status == "refused"))
            assert refused == 5
        table.close()


def test_a_different_result_for_a_finished_match_is_held_not_applied(mosquitto: Any, db_url: str) -> None:
    broker = mosquitto()
    with running_service(db_url, broker.url) as service:
        table = TableClient(broker.url, service.plan.id, "hall-1")
        events, result = played(RULES, 1, 1)
        table.play("1", events, result)
        table.wait_for("ack", lambda m: m.payload["of"] == "result")
        # The table corrected the score after the end and sends the new result with the correction.
        more = [*events, {"v": 2, "seq": len(events) + 1, "at": events[-1]["at"] + 1000, "type": "score_corrected",
                          "home": 2, "away": 1}]
        table.send_event("1", more[-1])
        table.send_result("1", len(more), {"home_goals": 2, "away_goals": 1, "outcome": "regular", "winner": "home"})
        table.wait_for("ack", lambda m: m.payload["of"] == "result" and m.seq == len(more))
        err = table.wait_for("error", lambda m: isinstance(m.body, ErrorPayload) and m.body.conflict)
        assert "waits for the organiser" in err.payload["reason"]
        (held,) = queries.open_conflicts(service.store)
        assert held.result.home_goals == 2
        assert queries.results(service.store)[0].home_goals == 1
        table.close()


def test_an_event_far_ahead_of_a_match_not_started_is_refused(mosquitto: Any, db_url: str) -> None:
    """Issue 21: a table could store an event 100,000 sequence numbers ahead for a match it had not started."""
    from server.ingest import MAX_SEQ_AHEAD

    broker = mosquitto()
    with running_service(db_url, broker.url) as service:
        table = TableClient(broker.url, service.plan.id, "hall-1")
        events, _ = played(RULES, 1, 0)
        for seq in (100_000, MAX_SEQ_AHEAD + 1):
            table.send_event("1", {**events[0], "seq": seq})
            err = table.wait_for("error", lambda m, seq=seq: m.seq == seq)
            assert "far past the last stored (0)" in err.payload["reason"]
        table.send_event("1", {**events[0], "seq": MAX_SEQ_AHEAD})  # a long gap a table could leave: it waits
        table.send_event("1", events[0])
        table.wait_for("ack", lambda m: m.payload["of"] == "event" and m.seq == 1)
        with service.store.session() as s:
            assert sorted(s.scalars(select(EventRow.seq))) == [1, MAX_SEQ_AHEAD]
        table.close()


def stored_by_another_instance(db_url: str, plan: Any, events: list[dict[str, Any]],
                                result: dict[str, Any] | None = None) -> None:
    """Match 1's ``events`` (and its ``result``) on hall-1 stored as another instance on the same database stores
    the messages the shared subscription gave it: in one transaction."""
    other = Store.open(db_url, plan)
    try:
        with other.session.begin() as s:
            fixtures = fixtures_of(s, other)
            messages = [p.event_message(id=uuid.uuid4().hex, court="hall-1", match="1", event=e) for e in events]
            if result is not None:
                messages.append(p.result_message(id=uuid.uuid4().hex, court="hall-1", match="1",
                                                 seq=events[-1]["seq"], result=result))
            for m in messages:
                assert ingest(other, s, m, datetime.now(UTC), fixtures).status == "stored"
    finally:
        other.close()


def test_a_result_waiting_for_events_another_instance_took_is_read_again_without_the_tables_resend(
        mosquitto: Any, db_url: str) -> None:
    """With a court's topics shared, its result can reach this instance before another has stored the events it
    took. The service reads the result again itself (RECHECK_S), so the ack does not wait for the table's
    resend; this test's table never sends anything twice."""
    broker = mosquitto()
    with running_service(db_url, broker.url) as service:
        table = TableClient(broker.url, service.plan.id, "hall-1")
        events, result = played(RULES, 2, 1)
        table.send_result("1", events[-1]["seq"], result)  # alone: its events went to the other instance
        deadline = time.monotonic() + 10
        while service.counts["waiting"] == 0:
            assert time.monotonic() < deadline, "the result was not kept waiting"
            time.sleep(0.02)
        stored_by_another_instance(db_url, service.plan, events)  # which stores them now, its acks lost
        ack = table.wait_for("ack", lambda m: m.payload["of"] == "result")
        assert (ack.match, ack.seq) == ("1", events[-1]["seq"])
        with service.store.session() as s:
            assert s.scalar(select(func.count()).select_from(ResultRow)) == 1
        table.close()


def test_a_result_waiting_for_events_is_read_again_on_each_ack_of_its_events(
        mosquitto: Any, db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The instances ack the events they stored once committed; this instance's watch hears another's ack and
    reads the waiting result again at once, not RECHECK_S later (here an hour: only an ack can settle it). A
    match's events are spread over the instances, each ack's ``through`` counting only what its instance saw
    committed, so every ack is a reason to read it again: one that leaves it waiting uses up no timer."""
    import server.service

    monkeypatch.setattr(server.service, "RECHECK_S", 3600.0)
    broker = mosquitto()
    with running_service(db_url, broker.url) as service:
        table = TableClient(broker.url, service.plan.id, "hall-1")
        events, result = played(RULES, 2, 1)
        last = events[-1]["seq"]
        table.send_result("1", last, result)
        deadline = time.monotonic() + 10
        while service.counts["waiting"] == 0:
            assert time.monotonic() < deadline, "the result was not kept waiting"
            time.sleep(0.02)

        def stored_and_acked(of_these: list[dict[str, Any]]) -> None:
            stored_by_another_instance(db_url, service.plan, of_these)
            table.send_raw("ack", p.encode(p.ack_message(id=uuid.uuid4().hex, court="hall-1", match="1",
                                                         seq=of_these[-1]["seq"], of="event", through=0)))

        stored_and_acked(events[:-1])  # all but the last: read again, and still waiting
        while service.counts["waiting"] < 2:
            assert time.monotonic() < deadline + 10, "the ack did not read the result again"
            time.sleep(0.02)
        stored_and_acked(events[-1:])  # through 0, as the other instance may have seen it: read again
        ack = table.wait_for("ack", lambda m: m.payload["of"] == "result")
        assert (ack.match, ack.seq) == ("1", last)
        assert (service.counts["waiting"], service.counts["stored"]) == (2, 1)
        with service.store.session() as s:
            assert s.scalar(select(func.count()).select_from(ResultRow)) == 1
        table.close()


def test_a_result_waiting_for_events_is_read_again_once_this_instance_stores_the_last_of_them(
        mosquitto: Any, db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The event the result waits for last can reach the same instance, after it: storing it reads the result
    again (RECHECK_S an hour: nothing else could settle it here)."""
    import server.service

    monkeypatch.setattr(server.service, "RECHECK_S", 3600.0)
    broker = mosquitto()
    with running_service(db_url, broker.url) as service:
        table = TableClient(broker.url, service.plan.id, "hall-1")
        events, result = played(RULES, 1, 1)
        stored_by_another_instance(db_url, service.plan, events[:-1])  # its acks lost
        table.send_result("1", events[-1]["seq"], result)
        deadline = time.monotonic() + 10
        while service.counts["waiting"] == 0:
            assert time.monotonic() < deadline, "the result was not kept waiting"
            time.sleep(0.02)
        table.send_event("1", events[-1])
        ack = table.wait_for("ack", lambda m: m.payload["of"] == "result")
        assert (ack.match, ack.seq) == ("1", events[-1]["seq"])
        table.close()


def test_another_instances_result_reaches_the_pages_with_its_ack_before_its_table_is_published(
        mosquitto: Any, db_url: str) -> None:
    """Another instance stored a result and acked it: this instance's pages read the store again on hearing that
    ack, not only when that instance's tables and schedules come (here they never do)."""
    broker = mosquitto()
    with running_service(db_url, broker.url) as service:
        pages = ServiceBackend(service)
        assert 1 not in pages.data().results
        table = TableClient(broker.url, service.plan.id, "hall-1")
        events, result = played(RULES, 2, 1)
        last = events[-1]["seq"]
        stored_by_another_instance(db_url, service.plan, events, result)
        table.send_raw("ack", p.encode(p.ack_message(id=uuid.uuid4().hex, court="hall-1", match="1", seq=last,
                                                     of="result", through=last)))
        deadline = time.monotonic() + 10
        while 1 not in pages.data().results:
            assert time.monotonic() < deadline, "the pages did not read the result another instance acked"
            time.sleep(0.02)
        assert (pages.data().results[1].result.home_goals, pages.data().results[1].result.away_goals) == (2, 1)
        table.close()


def test_a_table_of_the_previous_protocol_is_refused_with_why_and_nothing_is_stored(
        mosquitto: Any, db_url: str) -> None:
    """A table not updated since protocol 1 (before classes) sends a match under courtside/v1: the service
    answers each message on that version's errors topic with the reason, logs it, and stores nothing."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    from tests.test_server_service_security import subscribe

    broker = mosquitto()
    with running_service(db_url, broker.url) as service:
        old = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"old-{uuid.uuid4().hex[:6]}")
        told: list[dict[str, Any]] = []
        old.on_message = lambda _c, _u, m: told.append(json.loads(m.payload))
        old.connect("127.0.0.1", int(broker.url.rsplit(":", 1)[1]))
        old.loop_start()
        try:
            subscribe(old, f"courtside/v1/{service.plan.id}/errors")
            events, _ = played(RULES, 1, 0)
            topic = f"courtside/v1/{service.plan.id}/court/hall-1/events"
            envelope = {**p.event_message(id="old-1", court="hall-1", match="1", event=events[0]).to_dict(), "v": 1}
            old.publish(topic, json.dumps(envelope), qos=1).wait_for_publish(5)
            deadline = time.monotonic() + 20
            while not told:
                assert time.monotonic() < deadline, "the old table was told nothing"
                time.sleep(0.02)
        finally:
            old.loop_stop()
            old.disconnect()
        assert told[0]["v"] == 1 and told[0]["type"] == "error" and told[0]["court"] == "hall-1"
        assert told[0]["payload"] == {"reason": p.OLDER_TABLE, "topic": topic}
        with service.store.session() as s:
            assert s.scalar(select(func.count()).select_from(EventRow)) == 0
            logged = s.scalars(select(MessageLog).where(MessageLog.topic == topic)).all()
        assert [(m.status, m.reason) for m in logged] == [("refused", p.OLDER_TABLE)]


def test_a_result_names_its_court_and_the_courts_whose_matches_wait_on_its_stage(store: Store) -> None:
    """The schedules a result can change: its own court's, and once it decides who plays (a pool complete, a
    knock-out match played) those of the courts with a match that takes a team from it. A cup's knock-out result
    sent all its 110 courts' schedules again. Indoor hockey: SF1 "2A v 1B" on Hall 1, SF2 "1A v 2B" on Hall 2, the
    third place and the final on Hall 1."""
    courts: dict[str, set[str]] = {}

    def play(match: str, court: str, *, knockout: bool = False) -> None:
        events, result = played(RULES, 2, 1, kind="knockout" if knockout else "round_robin",
                                round="semi_final" if knockout else "pool")
        with store.session.begin() as s:
            fixtures = fixtures_of(s, store)
            for e in events:
                m = p.event_message(id=uuid.uuid4().hex, court=court, match=match, event=e)
                assert ingest(store, s, m, datetime.now(UTC), fixtures).status == "stored"
            m = p.result_message(id=uuid.uuid4().hex, court=court, match=match, seq=events[-1]["seq"], result=result)
            out = ingest(store, s, m, datetime.now(UTC), fixtures)
            assert out.status == "stored", out.reason
            courts[match] = set(out.courts)

    with store.session() as s:  # pools A and B (pool C, a placement pool, takes its teams from them too)
        pool_matches = {i: f for i, f in store.fixtures(s).items() if f.stage in ("A", "B")}
    for match_id, f in pool_matches.items():
        play(match_id, store.plan.court_id(f.court))
    first, last = (list(pool_matches)[n] for n in (0, -1))  # played in playing order: the last completes B
    # Its pool not yet complete: no other team is decided.
    assert courts[first] == {store.plan.court_id(pool_matches[first].court)}
    assert courts[last] == {"hall-1", "hall-2"}  # both semi-finals and pool C take from it
    play("15", "hall-1", knockout=True)  # SF1: the third place and the final on Hall 1 take from it
    play("16", "hall-2", knockout=True)  # SF2: its own court, and Hall 1 where they play
    assert courts["15"] == {"hall-1"} and courts["16"] == {"hall-2", "hall-1"}


def test_the_pages_are_told_before_the_table_hears_its_ack_or_its_conflict(tmp_path: Path) -> None:
    """Once the table has its ack, or the error that its corrected result is held (a conflict), a page read then
    shows what it acknowledges: the service tells its pages first. (An organiser's test read the snapshot from
    before the conflict when the error came first.)"""
    store = Store.open(f"sqlite:///{tmp_path / 'told.db'}", load_plan(HOCKEY))
    service = Service(store, "mqtt://127.0.0.1:9")  # never connected: what it would publish stays queued in paho
    order: list[str] = []
    publish = service.client.publish

    def published(topic: str, *a: Any, **kw: Any) -> Any:  # what the service publishes, in order, then published
        order.append(topic.rsplit("/", 1)[1])
        return publish(topic, *a, **kw)

    service.client.publish = published  # type: ignore[method-assign]
    service.listeners.append(lambda pools, courts: order.append("pages"))
    court, ruleset = "hall-1", store.plan.ruleset_of("A")
    events, result = played(ruleset, 1, 1)

    def send(kind: str, m: p.Message) -> list[str]:
        order.clear()
        topic = p.court_topic(store.plan.id, court, "events" if kind == "event" else kind)
        service._messages([(topic, p.encode(m))], set(), set())
        return [o for o in order if o in ("pages", "ack", "errors")]

    for e in events:
        assert send("event", p.event_message(id=uuid.uuid4().hex, court=court, match="1", event=e)) == ["pages", "ack"]
    assert send("result", p.result_message(id=uuid.uuid4().hex, court=court, match="1", seq=events[-1]["seq"],
                                           result=result)) == ["pages", "ack"]
    fixed = {"v": 2, "seq": len(events) + 1, "at": events[-1]["at"] + 1000, "type": "score_corrected",
             "home": 2, "away": 1}
    send("event", p.event_message(id=uuid.uuid4().hex, court=court, match="1", event=fixed))
    held = send("result", p.result_message(id=uuid.uuid4().hex, court=court, match="1", seq=fixed["seq"],
                                           result={"home_goals": 2, "away_goals": 1, "outcome": "regular",
                                                   "winner": "home"}))
    assert held[0] == "pages" and "errors" in held and len(queries.open_conflicts(store)) == 1
    store.close()


def test_two_instances_storing_the_same_courts_live_states_at_once_do_not_deadlock(
        pg_url: str, capfd: pytest.CaptureFixture[str]) -> None:
    """Two instances share each court's messages, so both write the same courts' live rows in the same instant.
    Each of these two batches holds a live state of both courts, in opposite orders, and each stops after its
    first row until the other has written its own (or for three seconds, if the other cannot: it waits for this one's
    rows). Stored in the order they came, the two deadlocked and PostgreSQL broke one batch, which the service then
    stored message by message; stored by court, the second waits for the first and both commit whole."""
    from sqlalchemy import event

    plan = load_plan(HOCKEY)
    stores = [Store.open(pg_url, plan) for _ in range(2)]
    services = [Service(store, "mqtt://127.0.0.1:9", group=None) for store in stores]
    first_rows = threading.Barrier(2, timeout=3.0)
    ruleset = plan.ruleset_of("A")

    def live(court: str, match: str) -> tuple[str, bytes]:
        running = Match(ruleset)
        running.apply(ClockStarted(at=0))
        return p.court_topic(plan.id, court, "live"), p.encode(p.build(
            id=uuid.uuid4().hex, type="live", court=court, match=match, payload=live_payload(
                running.state_at(1000), ruleset, match)))

    for store in stores:
        written: list[str] = []

        def after_row(*a: Any, written: list[str] = written) -> None:
            if "INSERT INTO live" in a[2]:
                written.append(a[3]["court"])
                if len(written) == 1:
                    with contextlib.suppress(threading.BrokenBarrierError):
                        first_rows.wait()

        event.listen(store.engine, "after_cursor_execute", after_row)
    batches = [[live("hall-1", "1"), live("hall-2", "2")], [live("hall-2", "2"), live("hall-1", "1")]]
    threads = [threading.Thread(target=service._messages, args=(batch, set(), set()))
               for service, batch in zip(services, batches, strict=True)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert not any(t.is_alive() for t in threads)
    assert "batch_retried" not in capfd.readouterr().err
    assert [service.counts.get("noted") for service in services] == [2, 2]
    for store in stores:
        store.close()


def test_a_stored_result_tells_the_pages_its_stage_before_any_table_is_published(tmp_path: Path) -> None:
    """The pages read the results again as soon as a result is stored: with its stage named, they rebuild in full.
    They waited for the publishing of the batch's tables and schedules (0.2-0.5 s of a cup's burst of results): a
    page read once the table had its result's ack did not show the result yet."""
    store = Store.open(f"sqlite:///{tmp_path / 'told.db'}", load_plan(HOCKEY))
    service = Service(store, "mqtt://127.0.0.1:9", group=None)  # never connected: its batches are run here
    told: list[tuple[set[str], set[str]]] = []
    service.listeners.append(lambda pools, courts: told.append((set(pools), set(courts))))
    pages = ServiceBackend(service)
    pages.data()
    events, result = played(store.plan.ruleset_of("A"), 2, 0)
    topic = p.court_topic(store.plan.id, "hall-1", "events")
    pools: set[str] = set()
    service._messages([(topic, p.encode(p.event_message(id=uuid.uuid4().hex, court="hall-1", match="1", event=e)))
                       for e in events], pools, set())
    assert told and all(t == (set(), {"hall-1"}) for t in told)  # an event: the court's live parts alone
    told.clear()
    service._messages([(p.court_topic(store.plan.id, "hall-1", "result"), p.encode(p.result_message(
        id=uuid.uuid4().hex, court="hall-1", match="1", seq=events[-1]["seq"], result=result)))], pools, set())
    assert told == [({"A"}, {"hall-1"})] and pools == {"A"}  # told, and its table not yet published
    assert 1 in pages.data().results  # a page read once the table has its ack shows the result
    store.close()

"""Helpers for the service's tests: played matches as event logs, a service in a thread, a table client."""

from __future__ import annotations

import queue
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from display.view import ScoreboardView
from firmware.commands import LinkMessage, ScheduleUpdate
from firmware.link import RESEND_S, Link
from firmware.session import MatchSession
from rules import protocol as p
from rules.court_schedule import CourtMatch
from rules.link_payloads import ErrorPayload
from rules.match import ClockStarted, Goal, Match, PenaltyAwarded, PeriodAdvanced, Side, event_to_dict
from rules.result import result_payload
from rules.ruleset import Ruleset, load_ruleset
from server.db.models import EventRow
from server.plan import Plan, load_plan
from server.service import Service
from server.store import Store

EXAMPLES = Path(__file__).resolve().parent.parent / "rules" / "examples"
HOCKEY = EXAMPLES / "indoor-hockey.toml"
RULES = load_ruleset("indoor-hockey")


def played(ruleset: Ruleset, home: int, away: int, *, kind: str = "round_robin", round: str | None = "pool",
           cards: Sequence[tuple[Side, str, str]] = ()) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """A whole match's event lines with ``home``-``away`` goals, and the result the engine gives;
    ``cards``: (side, penalty kind, player) awarded one a second right after the start."""
    match = Match(ruleset, stage=kind, round=round)  # type: ignore[arg-type]
    at = 0
    match.apply(ClockStarted(at=at))
    for side, penalty, player in cards:
        at += 1000
        match.apply(PenaltyAwarded(at=at, team=side, kind=penalty, player=player))
    for _ in range(home):
        at += 1000
        match.apply(Goal(at=at, team="home"))
    for _ in range(away):
        at += 1000
        match.apply(Goal(at=at, team="away"))
    while match.result() is None:
        at += 1000
        state = match.state_at(at)
        match.apply(ClockStarted(at=at) if state.phase != "play" or (not state.running and state.phase == "play"
                    and state.clock_ms in (0, None)) else PeriodAdvanced(at=at))
    outcome = match.result()
    assert outcome is not None
    return [event_to_dict(e) for e in match.events], result_payload(outcome)


class TableClient:
    """A court's side of the protocol, by hand: publish events and results, collect what comes back."""

    def __init__(self, broker_url: str, tournament: str, court: str, *, username: str | None = None,
                 password: str | None = None) -> None:
        self.tournament, self.court = tournament, court
        port = int(broker_url.rsplit(":", 1)[1])
        self.got: queue.Queue[tuple[str, p.Message]] = queue.Queue()
        self.raw: list[tuple[str, bytes]] = []  # every message as it came from the broker
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"table-{court}-{uuid.uuid4().hex[:6]}")
        if username:
            self.client.username_pw_set(username, password)
        subscribed = threading.Event()
        self.client.on_subscribe = lambda *_a: subscribed.set()
        def on_message(_c: Any, _u: Any, m: mqtt.MQTTMessage) -> None:
            self.raw.append((m.topic, bytes(m.payload)))
            self.got.put((m.topic, p.parse(bytes(m.payload), limit=p.MAX_SERVICE_BYTES)))

        self.client.on_message = on_message
        self.client.connect("127.0.0.1", port)
        self.client.subscribe([(p.court_topic(tournament, court, "ack"), 1),
                               (p.court_topic(tournament, court, "schedule"), 1),
                               (p.errors_topic(tournament), 1), (f"{p.root(tournament)}/pool/+/table", 1),
                               (f"{p.root(tournament)}/class/+/scorers", 1)])
        self.client.loop_start()
        assert subscribed.wait(5)

    def send_event(self, match: str, event: dict[str, Any], *, id: str | None = None) -> None:
        m = p.event_message(id=id or uuid.uuid4().hex, court=self.court, match=match, event=event)
        self.send_raw("events", p.encode(m))

    def send_result(self, match: str, seq: int, result: dict[str, Any], *, id: str | None = None) -> None:
        m = p.result_message(id=id or uuid.uuid4().hex, court=self.court, match=match, seq=seq, result=result)
        self.send_raw("result", p.encode(m))

    def send_raw(self, kind: str, payload: bytes) -> None:
        self.client.publish(p.court_topic(self.tournament, self.court, kind), payload, qos=1).wait_for_publish(5)

    def play(self, match: str, events: list[dict[str, Any]], result: dict[str, Any]) -> None:
        for e in events:
            self.send_event(match, e)
        self.send_result(match, events[-1]["seq"], result)

    def play_until_acked(self, match: str, events: list[dict[str, Any]], result: dict[str, Any],
                         timeout: float = 20.0) -> None:
        """Play ``match``, then send its result again every RESEND_S until it is acknowledged, as a table does
        (firmware.link). With several instances sharing a court's topics, the result can reach one before
        another has stored the events it took: that instance keeps it waiting, and the resend settles it."""
        for e in events:
            self.send_event(match, e)
        m = p.result_message(id=uuid.uuid4().hex, court=self.court, match=match, seq=events[-1]["seq"], result=result)
        self.send_raw("result", p.encode(m))
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.wait_for("ack", lambda a: a.match == match and a.payload.get("of") == "result", RESEND_S)
                return
            except AssertionError:
                assert time.monotonic() < deadline, f"match {match}: its result was not acknowledged"
                self.send_raw("result", p.encode(m))

    def play_then_correct(self, match: str, ruleset: Ruleset) -> None:
        """Play ``match`` to 1-1, then correct its score to 2-1 after the end, as officials who noticed a goal
        late would: the service keeps the 1-1 it stored and holds the 2-1 for the organiser (a conflict)."""
        events, result = played(ruleset, 1, 1)
        self.play(match, events, result)
        self.wait_for("ack", lambda m: m.payload["of"] == "result")
        fixed = {"v": 2, "seq": len(events) + 1, "at": events[-1]["at"] + 1000, "type": "score_corrected",
                 "home": 2, "away": 1}
        self.send_event(match, fixed)
        self.send_result(match, fixed["seq"], {"home_goals": 2, "away_goals": 1, "outcome": "regular",
                                               "winner": "home"})
        self.wait_for("error", lambda m: isinstance(m.body, ErrorPayload) and m.body.conflict)

    def wait_for(self, kind: str, predicate: Any = lambda m: True, timeout: float = 10.0) -> p.Message:
        """The next message of ``kind`` (ack, schedule, table, scorers, error) that satisfies ``predicate``."""
        import time

        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {kind} message came")
            try:
                _, m = self.got.get(timeout=left)
            except queue.Empty:
                continue
            if m.type == kind and predicate(m):
                return m

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


@contextmanager
def running_service(db_url: str, broker_url: str, plan: Plan | None = None, **kw: Any) -> Iterator[Service]:
    plan = plan or load_plan(HOCKEY)
    store = Store.open(db_url, plan)
    service = Service(store, broker_url, **kw)
    thread = threading.Thread(target=service.run, daemon=True)
    thread.start()
    assert service.ready.wait(10), "the service did not connect"
    try:
        yield service
    finally:
        service.stop()
        thread.join(10)
        store.close()


class Table:
    """The loop's side of the link: a journal, the link, and the queue the link posts to."""

    def __init__(self, broker_url: str, journal: Path, court: str = "hall-1", name: str = "Hall 1") -> None:
        self.queue: queue.Queue[Any] = queue.Queue()
        self.schedules: list[tuple[CourtMatch, ...]] = []
        self.court_names: list[str] = []  # the court each schedule names, as the link took it
        self.journal, self.name = journal, name
        self.link = Link(broker_url, tournament="indoor-hockey", court_id=court, court_name=name, journal=journal)
        self.link.start(self.queue.put)
        self.session: MatchSession | None = None

    def load(self, match_id: str, home: str, away: str, *, stage: str = "A", round: str = "pool",
             kind: str = "round_robin") -> None:
        scheduled = CourtMatch(match=match_id, number=int(match_id), home=home, away=away, stage=stage, round=round,
                               start=None, kind=kind)  # type: ignore[arg-type]
        self.session = MatchSession.create(self.journal, RULES, "indoor-hockey", scheduled, court=self.name,
                                           session_now=0.0, speed=1.0)
        self.link.match_loaded(self.session.header, ())

    def apply(self, event: Any) -> None:
        assert self.session is not None
        applied = self.session.apply(event)
        self.link.on_event(self.session.header, applied.event)

    def play(self, home: int, away: int) -> None:
        at = 0
        self.apply(ClockStarted(at=at))
        sides: tuple[tuple[Side, int], ...] = (("home", home), ("away", away))
        for side, goals in sides:
            for _ in range(goals):
                at += 1000
                self.apply(Goal(at=at, team=side))
        self.finish(at)

    def finish(self, at: int) -> None:
        assert self.session is not None
        while self.session.match.result() is None:
            at += 1000
            state = self.session.match.state_at(at)
            self.apply(PeriodAdvanced(at=at) if (state.phase == "play" and state.running) or state.phase == "interval"
                       else ClockStarted(at=at))
        # What the loop does on every redraw: the link sees the state shown (now: finished).
        self.link.on_state(ScoreboardView(self.session.match.state_at(at), RULES,
                                          match=self.session.scheduled.match))

    def pump(self, until: Callable[[], bool], timeout: float = 20.0, others: tuple[Table, ...] = ()) -> None:
        """Be the loop: hand what the link posted back to it until ``until()`` (the ``others`` tables too)."""
        deadline = time.monotonic() + timeout
        while not until():
            assert time.monotonic() < deadline, f"gave up waiting; link says {self.link.status()}"
            busy = False
            for table in (self, *others):
                busy |= table.drain()
            if not busy:
                time.sleep(0.02)

    def drain(self) -> bool:
        busy = False
        while True:
            try:
                item = self.queue.get_nowait()
            except queue.Empty:
                return busy
            busy = True
            if isinstance(item, LinkMessage):
                self.link.handle(item.payload)
            elif isinstance(item, ScheduleUpdate):
                self.schedules.append(item.schedule.matches)
                self.court_names.append(item.schedule.court_name)

    def stop(self) -> None:
        self.link.stop()


def stored_with_ids(store: Store, match_id: str, events: list[tuple[int, dict[str, Any]]]) -> None:
    """A match's events stored with the ids given: as two instances' transactions leave them on PostgreSQL when the
    one that took the lower id commits last (server.event_marks passes such an event over)."""
    court = store.plan.court_id(store.plan.fixtures[match_id].court)
    with store.session.begin() as s:
        for id, e in events:
            s.add(EventRow(id=id, match_id=match_id, court=court, seq=e["seq"], type=e["type"], at=e["at"], body=e,
                           message_id=uuid.uuid4().hex, received_at=datetime.now(UTC)))


def at_once(*writes: Callable[[], Any]) -> list[BaseException | None]:
    """The writes started together, each in its own thread: what each raised (None: it went through)."""
    start = threading.Barrier(len(writes))
    out: list[BaseException | None] = [None] * len(writes)

    def run(n: int) -> None:
        start.wait()
        try:
            writes[n]()
        except BaseException as err:  # the test reads what each write raised
            out[n] = err

    threads = [threading.Thread(target=run, args=(n,)) for n in range(len(writes))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return out

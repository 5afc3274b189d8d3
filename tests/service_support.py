"""Helpers for the service's tests: played matches as event logs, a service in a thread, a table client."""

from __future__ import annotations

import queue
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

from rules import protocol as p
from rules.match import ClockStarted, Goal, Match, PeriodAdvanced, event_to_dict
from rules.ruleset import Ruleset
from standings.plan import Plan, load_plan
from standings.service import Service
from standings.store import Store

EXAMPLES = Path(__file__).resolve().parent.parent / "rules" / "examples"
HOCKEY = EXAMPLES / "indoor-hockey.toml"


def played(ruleset: Ruleset, home: int, away: int, *, kind: str = "round_robin", round: str | None = "pool",
           ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """A whole match's event lines with ``home``-``away`` goals, and the result the engine gives."""
    match = Match(ruleset, stage=kind, round=round)  # type: ignore[arg-type]
    at = 0
    match.apply(ClockStarted(at=at))
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
    result = {"home_goals": outcome.home_goals, "away_goals": outcome.away_goals, "outcome": outcome.outcome,
              "winner": outcome.winner}
    return [event_to_dict(e) for e in match.events], result


class TableClient:
    """A court's side of the protocol, by hand: publish events and results, collect what comes back."""

    def __init__(self, broker_url: str, tournament: str, court: str, *, username: str | None = None,
                 password: str | None = None) -> None:
        self.tournament, self.court = tournament, court
        port = int(broker_url.rsplit(":", 1)[1])
        self.got: queue.Queue[tuple[str, p.Message]] = queue.Queue()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"table-{court}-{uuid.uuid4().hex[:6]}")
        if username:
            self.client.username_pw_set(username, password)
        subscribed = threading.Event()
        self.client.on_subscribe = lambda *_a: subscribed.set()
        self.client.on_message = lambda _c, _u, m: self.got.put(
            (m.topic, p.parse(m.payload, limit=p.MAX_SERVICE_BYTES)))
        self.client.connect("127.0.0.1", port)
        self.client.subscribe([(p.court_topic(tournament, court, "ack"), 1),
                               (p.court_topic(tournament, court, "schedule"), 1),
                               (p.errors_topic(tournament), 1), (f"{p.root(tournament)}/pool/+/table", 1)])
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

    def wait_for(self, kind: str, predicate: Any = lambda m: True, timeout: float = 10.0) -> p.Message:
        """The next message of ``kind`` (ack, schedule, table, error) that satisfies ``predicate``."""
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

"""server.watch: what every instance hears in full, over a real Mosquitto."""

from __future__ import annotations

import queue
import time
from collections.abc import Callable

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from rules import protocol as p
from rules.live import live_payload
from rules.match import ClockStarted, Goal, Match
from server.watch import Acked, Watch, Watched
from tests.conftest import Broker
from tests.service_support import RULES

T = "cup"


def live(court: str, goals: int) -> bytes:
    match = Match(RULES, stage="round_robin", round="pool")
    match.apply(ClockStarted(at=0))
    for i in range(goals):
        match.apply(Goal(at=1000 * (i + 1), team="home"))
    payload = live_payload(match.state_at(1000 * goals + 1), RULES, "3")
    return p.encode(p.build(id=f"l{goals}", type="live", court=court, match="3", payload=payload))


def ack(id: str, through: int) -> bytes:
    return p.encode(p.ack_message(id=id, court="hall-1", match="3", seq=through, of="event", through=through))


def test_the_watch_hears_live_states_and_other_instances_tables_but_not_its_own(
        mosquitto: Callable[..., Broker]) -> None:
    broker = mosquitto()
    inbox: queue.Queue[Watched] = queue.Queue()
    watch = Watch(p.parse_broker(broker.url), T, "watch-test", "mine", inbox.put)
    watch.start()
    other = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="other")
    other.connect("127.0.0.1", broker.port)
    other.loop_start()
    try:
        deadline = time.monotonic() + 10
        while not watch.client.is_connected():
            assert time.monotonic() < deadline
            time.sleep(0.05)
        probe = p.court_topic(T, "probe", "live")
        while inbox.empty():  # subscribed once a message it watches comes (its SUBACK is paho's thread's)
            assert time.monotonic() < deadline, "the watch did not subscribe"
            other.publish(probe, b"probe", qos=1).wait_for_publish(5)
            time.sleep(0.05)
        table = b'{"v":1,"id":"theirs-1","type":"table","payload":{}}'  # another instance's (only its id is read)
        own = b'{"v":1,"id":"mine-1","type":"table","payload":{}}'
        sent = [(p.court_topic(T, "hall-1", "live"), live("hall-1", 2)),
                (p.pool_topic(T, "A"), own),
                (p.pool_topic(T, "A"), table),
                (p.court_topic(T, "hall-1", "schedule"), b"not json"),
                (p.court_topic(T, "hall-1", "live"), b'{"v":1}'),
                (p.court_topic(T, "hall-1", "events"), b'{"v":1,"id":"e"}'),  # not watched: the group's
                (p.court_topic(T, "hall-1", "ack"), ack("theirs-2", 4)),
                (p.court_topic(T, "hall-1", "ack"), ack("mine-2", 5)),
                (p.court_topic(T, "hall-1", "ack"), b'{"v":1,"id":"theirs-3","type":"ack"}')]  # no court, no payload
        for topic, raw in sent:
            other.publish(topic, raw, qos=1).wait_for_publish(5)
        got: list[Watched] = []
        while len(got) < 8:  # a probe sent before the subscription took hold may still come
            item = inbox.get(timeout=5)
            if item.topic != probe:
                got.append(item)
        assert all(isinstance(item, Watched) for item in got)
        changed = [watch.handle(item.topic, item.payload) for item in got]
        # A live state changes its court, held in memory; another's table says the stored state moved; another
        # instance's ack says what it committed; its own publication or ack, and what is not a message, change
        # nothing.
        assert changed == [(set(), {"hall-1"}), None, (set(), set()), None, None, Acked("hall-1", "3", "event"), None,
                           None]
        heard, _at = watch.live["hall-1"]
        assert heard.board.home_goals == 2 and watch.heard == 8
        # A result acked moved the stored state (read again, as after a table published); an event, nothing shown.
        assert Acked("hall-1", "3", "result").changed() == (set(), set())
        assert Acked("hall-1", "3", "event").changed() is None
    finally:
        other.loop_stop()
        other.disconnect()
        watch.stop()

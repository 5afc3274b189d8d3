"""The service's broker connection, pumped by the caller's loop, against a real Mosquitto."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from rules import protocol as p
from standings.connection import BrokerConnection, connect_client


class Pumped:
    """A BrokerConnection with callbacks that note what happened and in which thread."""

    def __init__(self, url: str, topic: str = "t/#") -> None:
        address = p.parse_broker(url)
        self.client = connect_client(address, "pumped")
        self.connection = BrokerConnection(self.client, address)
        self.threads: set[int] = set()
        self.topic = topic
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = lambda *_a: self._note("disconnected")
        self.client.on_message = lambda _c, _u, m: self._note("message", m.topic, bytes(m.payload))

    def _on_connect(self, client: mqtt.Client, *_a: Any) -> None:
        self._note("connected")
        client.subscribe(self.topic, qos=1)  # inside a callback: written by the next wait()
        self.connection.connected()

    def _note(self, *item: Any) -> None:
        self.threads.add(threading.get_ident())
        self.connection.inbox.append(item)

    def pump_until(self, done: Callable[[], bool], seconds: float = 15.0) -> None:
        deadline = time.monotonic() + seconds
        while not done():
            assert time.monotonic() < deadline, f"not done; inbox: {list(self.connection.inbox)[-5:]}"
            self.connection.wait(0.1)

    def kinds(self) -> list[str]:
        return [item[0] for item in self.connection.inbox]

    def messages(self) -> list[bytes]:
        return [item[2] for item in self.connection.inbox if item[0] == "message"]


@contextmanager
def publisher(url: str) -> Iterator[mqtt.Client]:
    """Another client on the broker (a table), with paho's own thread, stopped on the way out."""
    port = int(url.rsplit(":", 1)[1])
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="publisher")
    client.max_inflight_messages_set(1000)
    client.connect("127.0.0.1", port)
    client.loop_start()
    try:
        yield client
    finally:
        client.loop_stop()
        client.disconnect()


def subscribed(pumped: Pumped) -> None:
    """Wait for the SUBACK: a message published before it would not be delivered."""
    done = threading.Event()
    pumped.client.on_subscribe = lambda *_a: done.set()
    pumped.pump_until(done.is_set)


def listening(mosquitto: Any, topic: str = "t/#") -> tuple[Any, Pumped]:
    """A running broker and a connection to it, connected and subscribed to ``topic``."""
    broker = mosquitto()
    pumped = Pumped(broker.url, topic=topic)
    pumped.pump_until(lambda: "connected" in pumped.kinds())
    subscribed(pumped)
    return broker, pumped


def test_messages_are_read_in_order_in_the_loops_own_thread(mosquitto: Any) -> None:
    broker, pumped = listening(mosquitto)
    with publisher(broker.url) as out:
        for i in range(2000):
            out.publish("t/burst", str(i).encode(), qos=1)
        pumped.pump_until(lambda: len(pumped.messages()) == 2000)
    assert pumped.messages() == [str(i).encode() for i in range(2000)]
    assert pumped.threads == {threading.get_ident()}  # no thread of paho's: the callbacks ran inside wait()
    pumped.connection.close()


def test_a_publish_goes_out_at_once_without_a_thread(mosquitto: Any) -> None:
    _, pumped = listening(mosquitto, "back/#")
    pumped.client.publish("back/ack", b"through 7", qos=0)
    pumped.pump_until(lambda: pumped.messages() == [b"through 7"])
    pumped.connection.close()


def test_started_before_its_broker_it_says_unreachable_and_connects_when_the_broker_comes(mosquitto: Any) -> None:
    broker = mosquitto(run=False)
    pumped = Pumped(broker.url)
    assert not pumped.connection.waiting() and pumped.kinds() == []  # asking does not try the broker
    pumped.pump_until(lambda: "unreachable" in pumped.kinds(), seconds=5)
    assert "connected" not in pumped.kinds()
    broker.start()
    pumped.pump_until(lambda: "connected" in pumped.kinds())
    pumped.connection.close()


def test_a_broker_restart_is_a_disconnect_then_a_connect_and_messages_flow_again(mosquitto: Any) -> None:
    broker = mosquitto()
    pumped = Pumped(broker.url)
    pumped.pump_until(lambda: "connected" in pumped.kinds())
    broker.stop()
    pumped.pump_until(lambda: "disconnected" in pumped.kinds())
    broker.start()
    pumped.pump_until(lambda: pumped.kinds().count("connected") == 2)
    subscribed(pumped)
    with publisher(broker.url) as out:
        out.publish("t/after", b"again", qos=1).wait_for_publish(5)
        pumped.pump_until(lambda: pumped.messages() == [b"again"])
    pumped.connection.close()


def test_another_thread_wakes_a_waiting_loop_and_waiting_says_so(mosquitto: Any) -> None:
    _, pumped = listening(mosquitto)
    pumped.connection.inbox.clear()
    assert not pumped.connection.waiting()

    def desk() -> None:
        time.sleep(0.2)
        pumped.connection.inbox.append(("call",))
        pumped.connection.wake()

    threading.Thread(target=desk).start()
    started = time.monotonic()
    while "call" not in pumped.kinds():
        pumped.connection.wait(30)
        assert time.monotonic() - started < 25, "the wake-up did not end the wait"
    assert pumped.connection.waiting()  # the inbox holds the desk's call
    pumped.connection.close()


def test_waiting_reads_what_has_come_and_counts_only_what_the_loop_must_handle(mosquitto: Any) -> None:
    broker, pumped = listening(mosquitto, "t/in")
    pumped.connection.inbox.clear()
    published = pumped.client.publish("t/table", b"retained table", qos=1, retain=True)
    deadline = time.monotonic() + 10
    while not published.is_published():  # the broker's PUBACK: read by waiting(), not a reason to stop
        assert not pumped.connection.waiting()
        assert time.monotonic() < deadline
        time.sleep(0.01)
    with publisher(broker.url) as out:
        out.publish("t/in", b"1", qos=1).wait_for_publish(5)
        deadline = time.monotonic() + 10
        while not pumped.connection.waiting():  # a message: the loop should give way to it
            assert time.monotonic() < deadline
            time.sleep(0.01)
        assert pumped.messages() == [b"1"]
    pumped.connection.close()


def test_once_closed_it_does_not_connect_again(mosquitto: Any) -> None:
    broker = mosquitto()
    pumped = Pumped(broker.url)
    pumped.pump_until(lambda: "connected" in pumped.kinds())
    pumped.connection.close()
    assert pumped.client.socket() is None
    broker.restart()
    pumped.connection.inbox.clear()
    for _ in range(30):  # longer than the first retry delay
        pumped.connection.wait(0.1)
    assert pumped.kinds() == []

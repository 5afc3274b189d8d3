"""courtside.demo.broker: the embedded amqtt broker carries QoS 1 and retained messages, then closes its port;
it runs in a process of its own, which ends with the demo."""

from __future__ import annotations

import logging
import queue
import socket
import subprocess
import sys
import time

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from courtside.demo import broker as broker_module
from courtside.demo.broker import EmbeddedBroker, quiet_amqtt
from rules import DemoError


def _client(broker: EmbeddedBroker) -> mqtt.Client:
    client = mqtt.Client(CallbackAPIVersion.VERSION2)
    client.connect(broker.host, broker.port)
    client.loop_start()
    return client


def _listening(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


def test_retained_state_reaches_a_screen_that_joins_late_and_the_port_is_closed_after() -> None:
    with EmbeddedBroker() as broker:
        assert broker.url == f"mqtt://127.0.0.1:{broker.port}"
        table = _client(broker)
        table.publish("courtside/v2/demo/court/1/state", b'{"score": "1-0"}', qos=1, retain=True).wait_for_publish(5)
        got: queue.Queue[tuple[str, bytes]] = queue.Queue()
        screen = mqtt.Client(CallbackAPIVersion.VERSION2)
        screen.on_message = lambda _c, _u, msg: got.put((msg.topic, bytes(msg.payload)))
        screen.connect(broker.host, broker.port)
        screen.subscribe("courtside/v2/#", qos=1)
        screen.loop_start()
        assert got.get(timeout=10) == ("courtside/v2/demo/court/1/state", b'{"score": "1-0"}')
        for client in (table, screen):
            client.disconnect()
            client.loop_stop()
        port = broker.port
    assert not _listening(port)
    # A second run right after, on the same port, starts cleanly.
    with EmbeddedBroker(port=port) as again:
        assert _listening(again.port)
    assert not _listening(port)


def test_stop_twice_is_harmless() -> None:
    broker = EmbeddedBroker()
    broker.start()
    broker.stop()
    broker.stop()


def test_a_chosen_port_taken_before_the_broker_binds_it_is_given_up_for_another() -> None:
    broker = EmbeddedBroker()
    chosen = broker.port
    with socket.socket() as other:
        other.bind(("127.0.0.1", chosen))  # another program took it between the choice and the start
        other.listen()
        broker.start()
        try:
            assert broker.port != chosen and _listening(broker.port)
        finally:
            broker.stop()


def test_a_delivery_amqtt_gives_up_on_is_one_line_on_the_terminal_not_a_traceback(
        capsys: pytest.CaptureFixture[str]) -> None:
    """On a loaded machine amqtt gave up delivering to a client too slow to acknowledge and logged the task
    with its traceback (CI, 2026-12-06); the tables send again what is not acknowledged, so a line says it."""
    quiet_amqtt()  # as the broker's process does before it starts amqtt
    try:
        raise TimeoutError("Timeout waiting for PUBACK for packet ID 7")
    except TimeoutError:  # logged as amqtt's _broadcast_loop logs it
        logging.getLogger("amqtt.broker").exception(
            "Task failed and will be skipped: <Task finished name='Task-9' exception=TimeoutError()>")
    logging.getLogger("amqtt.broker").info("a connection")  # amqtt's chatter stays off the terminal
    err = capsys.readouterr().err
    assert err.splitlines() == ["embedded broker: Task failed and will be skipped (TimeoutError: Timeout waiting "
                                "for PUBACK for packet ID 7)"]


_DEMO = """
import sys
from courtside.demo.broker import EmbeddedBroker
broker = EmbeddedBroker()
broker.start()
print(broker.port, "amqtt" in sys.modules, flush=True)
sys.stdin.read()
"""


def test_the_broker_runs_in_a_process_of_its_own_that_does_not_outlive_the_demo() -> None:
    """amqtt's garbage collected in the demo's thread raced the broker's loop at shutdown (CI, 2026-12-07):
    nothing of amqtt is in the demo's process; and a demo killed outright takes its broker with it."""
    demo = subprocess.Popen([sys.executable, "-c", _DEMO], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert demo.stdout is not None
    port, amqtt_here = demo.stdout.readline().split()
    assert _listening(int(port)) and amqtt_here == "False"
    demo.kill()  # no stop(): the broker sees its stdin end
    demo.wait(10)
    deadline = time.monotonic() + 30
    while _listening(int(port)):
        assert time.monotonic() < deadline, "the broker outlived the demo"
        time.sleep(0.05)


def test_a_broker_that_cannot_start_says_why() -> None:
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        broker = EmbeddedBroker(port=other.getsockname()[1])  # a port chosen by the caller is not given up
        with pytest.raises(DemoError, match=r"did not start on 127\.0\.0\.1:\d+: .*address already in use"):
            broker.start()
    broker.stop()  # nothing left to stop


def test_a_broker_process_that_ends_before_it_listens_is_said_to_have_ended(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "executable", "/bin/false")  # a Python that cannot even start it
    with pytest.raises(DemoError, match=r"it ended with status 1 \(what it printed is above\)"):
        EmbeddedBroker().start()


def test_a_broker_slow_to_close_is_killed_and_its_port_freed(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a loaded machine its orderly close may take longer than the demo waits: the demo is ending, and nothing
    of the broker is still needed, so it is killed rather than reported."""
    broker = EmbeddedBroker()
    broker.start()
    monkeypatch.setattr(broker_module, "STOP_TIMEOUT_S", 0.0)  # no time at all to close in order
    broker.stop()
    assert not _listening(broker.port)

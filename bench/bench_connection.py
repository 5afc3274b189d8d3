"""paho's own cost a message through the service's broker connection (docs/benchmarks.md, "Service").

Starts its own Mosquitto (bench_service.start_broker), connects a ``standings.connection.BrokerConnection``
subscribed at QoS 1 as the service is, and has another client queue N messages of a result's size at the
broker while the connection is not pumped. Then it measures, in CPU time of the pumping thread only
(``time.thread_time``: the publisher's paho thread in the same process does not count):

- reading: the connection drains the N messages, each with its PUBACK, callbacks doing nothing else;
- publishing: N acknowledgements of an ack's size published at QoS 0, as the service sends them.

    .venv/bin/python -m bench.bench_connection [--messages 5000] [--runs 3]
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

import paho.mqtt.client as mqtt

from bench.bench_service import start_broker
from rules import protocol as p
from standings.connection import BrokerConnection, connect_client

RESULT = p.encode(p.result_message(id="0123456789abcdef0123456789abcdef", court="c1", match="12", seq=9, result={
    "home_goals": 1, "away_goals": 2, "outcome": "regular", "winner": "away"}))
ACK = p.encode(p.ack_message(id="0123456789abcdef0123456789abcdef", court="c1", match="12", seq=9, of="result",
                             through=9))


def run(port: int, messages: int) -> tuple[float, float]:
    """Microseconds of CPU a message read (with its PUBACK) and a message published."""
    address = p.parse_broker(f"mqtt://127.0.0.1:{port}")
    client = connect_client(address, "bench-connection")
    connection = BrokerConnection(client, address)
    got: list[bytes | bytearray] = []
    subscribed: list[bool] = []
    client.on_connect = lambda c, *_a: c.subscribe("bench/#", qos=1)
    client.on_subscribe = lambda *_a: subscribed.append(True)
    client.on_message = lambda _c, _u, m: got.append(m.payload)
    while not subscribed:
        connection.wait(0.1)
    table = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="bench-table")  # type: ignore[attr-defined]
    table.max_inflight_messages_set(messages)
    table.max_queued_messages_set(0)
    table.connect("127.0.0.1", port)
    table.loop_start()
    sent = [table.publish("bench/result", RESULT, qos=1) for _ in range(messages)]
    for info in sent:
        info.wait_for_publish(60)  # all at the broker before the connection reads
    table.loop_stop()
    table.disconnect()
    started = time.thread_time()
    while len(got) < messages:
        connection.wait(0.1)
    read = time.thread_time() - started
    started = time.thread_time()
    for _ in range(messages):
        client.publish("acks/c1", ACK, qos=0)
    published = time.thread_time() - started
    connection.close()
    return read / messages * 1e6, published / messages * 1e6


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--messages", type=int, default=5000)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-connection-"))
    broker, port = start_broker(folder)
    try:
        for _ in range(args.runs):
            read, published = run(port, args.messages)
            print(f"{args.messages} messages: read with its PUBACK {read:.1f} us CPU a message; "
                  f"an ack published (QoS 0) {published:.1f} us")
    finally:
        broker.terminate()
        broker.wait()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()

"""TCP_NODELAY on the table link's socket, against a real Mosquitto: set on connect and on every
reconnect (a new socket each time), so a result published right after the last event is not held
back by Nagle's algorithm waiting for the broker's delayed ack."""

from __future__ import annotations

import socket
import uuid
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from firmware.nodelay import no_delay
from tests.service_support import Table


def _nodelay(client: mqtt.Client) -> int:
    sock = client.socket()
    assert isinstance(sock, socket.socket), sock
    return sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)


def test_the_tables_connected_socket_sends_without_delay_also_after_a_reconnect(mosquitto: Any,
                                                                                  tmp_path: Path) -> None:
    broker = mosquitto()
    table = Table(broker.url, tmp_path / "journal")
    try:
        table.pump(lambda: table.link.online)
        first = table.link.client.socket()
        assert _nodelay(table.link.client) != 0
        broker.stop()
        table.pump(lambda: not table.link.online)
        broker.start()
        table.pump(lambda: table.link.online)
        assert table.link.client.socket() is not first
        assert _nodelay(table.link.client) != 0
    finally:
        table.stop()


def test_a_plain_paho_socket_has_nagle_on_until_the_helper_turns_it_off(mosquitto: Any) -> None:
    # The control: without the helper the option is off (Linux's default), so the test above means something.
    broker = mosquitto()
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"plain-{uuid.uuid4().hex[:6]}")
    assert no_delay(client) is False  # no socket before connecting: nothing to set, no error
    client.connect("127.0.0.1", int(broker.url.rsplit(":", 1)[1]))
    try:
        assert _nodelay(client) == 0
        assert no_delay(client) is True
        assert _nodelay(client) != 0
    finally:
        client.disconnect()

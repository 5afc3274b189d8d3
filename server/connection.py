"""The service's MQTT clients (its own and the watch's), run by paho's network thread (``loop_start``).

paho connects again after a lost connection every 1 s, then up to 5 s apart, and keeps trying a broker
that is not up yet, so a service may start before its broker. The owner's callbacks only put records on
its loop's inbox (server.service).
"""

from __future__ import annotations

import contextlib
import socket
from typing import Any

import paho.mqtt.client as mqtt

from rules import protocol as p

CONNECT_TIMEOUT_S = 2.0


def no_delay(_client: mqtt.Client, _userdata: Any, sock: Any) -> None:
    """Send each packet at once (TCP_NODELAY) on every new socket: with Nagle's algorithm a small publish right
    after another (a table after an ack) waits for the broker's delayed TCP ack, 40 ms on Linux."""
    with contextlib.suppress(OSError, AttributeError):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def connect_client(address: p.BrokerAddress, client_id: str, *, ca_file: str | None = None,
                   keepalive: int = 15) -> mqtt.Client:
    """A client for ``address``, not connected yet: its owner sets the callbacks, then ``loop_start()``."""
    api = mqtt.CallbackAPIVersion.VERSION2  # type: ignore[attr-defined]
    client = mqtt.Client(api, client_id=client_id, clean_session=True)
    if address.username is not None:
        client.username_pw_set(address.username, address.password)
    if address.tls:
        client.tls_set(ca_certs=ca_file)
    client.max_queued_messages_set(0)
    client.connect_timeout = CONNECT_TIMEOUT_S
    client.reconnect_delay_set(min_delay=1, max_delay=5)
    client.on_socket_open = no_delay
    client.connect_async(address.host, address.port, keepalive=keepalive)
    return client

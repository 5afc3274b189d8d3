"""TCP_NODELAY on the link's socket, so a table's result leaves as soon as it is published.

With Nagle's algorithm a small publish sent while an earlier one is still unacknowledged (the match's
result right after its last event) waits for the broker's delayed TCP ack, about 40 ms on Linux.

The standings service has the same few lines (server.connection.no_delay): the table and the service
are peers that share only rules/, and rules/ is the pure core that may not touch a socket
(tests/test_purity.py), so a copy here costs less than a package of its own for one function.
"""

from __future__ import annotations

import contextlib
import socket

import paho.mqtt.client as mqtt


def no_delay(client: mqtt.Client) -> bool:
    """Turn Nagle off on ``client``'s connected socket; False when it has none that takes the option
    (not connected yet, or a transport that is no plain TCP socket)."""
    sock = client.socket()
    if sock is None or not hasattr(sock, "setsockopt"):
        return False
    with contextlib.suppress(OSError):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return True
    return False

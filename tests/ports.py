"""A free TCP port for a server a test starts: below the range the OS gives outgoing connections.

A port picked with ``bind(0)`` comes from the ephemeral range, the same one every outgoing connection's local
port is taken from; with a suite's tables, browsers and clients connecting beside it, one of them can take the
port between its choice and the server's bind ("address already in use"). Below that range only another
server's explicit bind can, and each picks at random among twenty thousand.
"""

from __future__ import annotations

import random
import socket
from pathlib import Path

_RANGE = Path("/proc/sys/net/ipv4/ip_local_port_range")


def free_port() -> int:
    low = int(_RANGE.read_text().split()[0]) if _RANGE.exists() else 32768
    for _ in range(200):
        port = random.randrange(10000, low)
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port between 10000 and {low}")

"""systemd's notify protocol (sd_notify) over $NOTIFY_SOCKET: READY=1, WATCHDOG=1, STATUS=...

A unix datagram to the socket systemd names; without it (not under systemd) nothing
happens. Ten lines instead of a dependency.
"""

from __future__ import annotations

import os
import socket


def sd_notify(message: str) -> bool:
    address = os.environ.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):
        address = "\0" + address[1:]  # an abstract socket
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.connect(address)
        sock.sendall(message.encode("utf-8"))
    return True


def watchdog_interval() -> float | None:
    """Seconds between WATCHDOG=1 pings: half of $WATCHDOG_USEC, or None without a watchdog."""
    usec = os.environ.get("WATCHDOG_USEC")
    if not usec or (os.environ.get("WATCHDOG_PID") not in (None, str(os.getpid()))):
        return None
    return int(usec) / 2e6

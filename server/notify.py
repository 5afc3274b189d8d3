"""systemd's notify protocol for the service: READY=1, WATCHDOG=1, STATUS=..., STOPPING=1.

A unix datagram to $NOTIFY_SOCKET; nothing happens outside systemd. The table has the same ten
lines in firmware/notify.py: server/ may not import firmware/ (imports point inward, and a
shared home would be courtside/, which server/ may not import either), so each part keeps its own.
"""

from __future__ import annotations

import os
import socket


def sd_notify(message: str) -> bool:
    address = os.environ.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):
        address = "\0" + address[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            sock.connect(address)
            sock.sendall(message.encode("utf-8"))
    except OSError:
        return False
    return True


def watchdog_interval() -> float | None:
    """Seconds between WATCHDOG=1 pings (half of $WATCHDOG_USEC), or None without a watchdog."""
    usec = os.environ.get("WATCHDOG_USEC")
    if not usec or os.environ.get("WATCHDOG_PID") not in (None, str(os.getpid())):
        return None
    return int(usec) / 2e6

"""The service's connection to the broker, driven by the service's own loop rather than by paho's thread.

paho's thread would read each message, take the GIL from the loop, hand the message over through a lock,
and be woken again (a byte through a socket pair) for every acknowledgement the loop publishes: in a
burst, a result cost the service two to three times what the loop's own work on it costs. Here the
loop itself waits on the broker's socket (paho's external-loop API: ``loop_read``, ``loop_write``,
``loop_misc``), so paho's callbacks run in the loop's thread and a publish is written at once. Other
threads (the web desk, a signal) only append to the inbox and ``wake()`` the loop.

Connecting again after a lost connection is the loop's job too, as paho's thread did it: every 1 s, then
up to 5 s apart, and on the first try as well, so a service may start before its broker.
"""

from __future__ import annotations

import contextlib
import select
import socket
import time
from collections import deque
from typing import Any

import paho.mqtt.client as mqtt

from rules import protocol as p

RETRY_FIRST_S = 1.0
RETRY_MAX_S = 5.0
CONNECT_TIMEOUT_S = 2.0
"""A TCP connect to a broker that does not answer blocks the loop this long (desk changes wait behind it)."""
READS_AT_ONCE = 500
"""Packets read in one go before the loop gets to work on them."""


def connect_client(address: p.BrokerAddress, client_id: str, *, ca_file: str | None = None) -> mqtt.Client:
    api = mqtt.CallbackAPIVersion.VERSION2  # type: ignore[attr-defined]
    client = mqtt.Client(api, client_id=client_id, clean_session=True)
    if address.username is not None:
        client.username_pw_set(address.username, address.password)
    if address.tls:
        client.tls_set(ca_certs=ca_file)
    client.max_queued_messages_set(0)
    client.connect_timeout = CONNECT_TIMEOUT_S
    return client


def no_delay(client: mqtt.Client) -> None:
    """Send each packet at once (TCP_NODELAY): with Nagle's algorithm a small publish right after another
    (an ack after an ack, a table after an ack) waits for the broker's delayed TCP ack, 40 ms on Linux."""
    sock = client.socket()
    if sock is not None and hasattr(sock, "setsockopt"):
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class BrokerConnection:
    """``client`` (its callbacks set by the owner) connected to ``address``, pumped by ``wait()``.

    Every method but ``wake()`` and ``inbox.append`` belongs to the loop's thread.
    """

    def __init__(self, client: mqtt.Client, address: p.BrokerAddress, *, keepalive: int = 15) -> None:
        self.client = client
        self.inbox: deque[tuple[Any, ...]] = deque()  # what the loop works on, from any thread
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self._next_try = 0.0  # monotonic time of the next connection attempt
        self._delay = RETRY_FIRST_S
        self._closed = False
        client.connect_async(address.host, address.port, keepalive=keepalive)  # no network yet: wait() connects

    def wake(self) -> None:
        """From any thread: the inbox has something (or the loop must look at its flags)."""
        with contextlib.suppress(BlockingIOError, OSError):  # full: a wake-up is already waiting
            self._wake_w.send(b"\0")

    def connected(self) -> None:
        """The broker accepted us: the next loss starts again from the shortest delay."""
        self._delay = RETRY_FIRST_S

    def wait(self, timeout: float) -> None:
        """Wait up to ``timeout`` for a packet or a wake-up; read what has come (callbacks run now), write
        what is waiting, keep the connection alive, or try to connect when that is due."""
        sock = self.client.socket()
        if sock is None:
            if not self._closed and time.monotonic() >= self._next_try:
                self._connect()
                sock = self.client.socket()
            if sock is None:
                timeout = max(0.0, min(timeout, self._next_try - time.monotonic()))
                self._select([self._wake_r], [], timeout)
                return
        if self.inbox:
            timeout = 0.0
        readable, _ = self._select([sock, self._wake_r], [sock] if self.client.want_write() else [],
                                   0.0 if _pending(sock) else timeout)
        if sock in readable or _pending(sock):
            self._read(sock)
        if self.client.socket() is not None and self.client.want_write():  # what reading left unsent, too
            self.client.loop_write()
        if self.client.socket() is not None:
            self.client.loop_misc()  # keep-alive pings; a broker silent too long counts as lost
        if self.client.socket() is None:
            self._next_try = time.monotonic() + self._delay

    def waiting(self) -> bool:
        """Has something come for the loop (a message, a call from another thread)? Reads what the broker
        has sent, without waiting: the broker's PUBACKs for what the loop publishes are handled here and
        do not count, or every table published would interrupt the publishing of the next. Disconnected,
        it does not try the broker (that is ``wait()``'s): a call from another thread is in the inbox already."""
        if self.client.socket() is not None:
            self.wait(0.0)
        return bool(self.inbox)

    def close(self) -> None:
        """Say goodbye to the broker (what is written goes out now) and stop reconnecting."""
        self._closed = True
        if self.client.socket() is not None:
            self.client.disconnect()
            with contextlib.suppress(Exception):
                self.client.loop_write()

    def _connect(self) -> None:
        self._next_try = time.monotonic() + self._delay
        self._delay = min(self._delay * 2, RETRY_MAX_S)
        try:
            self.client.reconnect()
        except OSError:
            self.inbox.append(("unreachable",))
            return
        no_delay(self.client)

    def _read(self, sock: Any) -> None:
        # loop_read takes one packet (paho sizes its reads by the QoS 2 messages in flight): read on while
        # the socket has more, so a burst is taken in a few large steps rather than one select per packet.
        for _ in range(READS_AT_ONCE):
            if self.client.loop_read() != mqtt.MQTT_ERR_SUCCESS or self.client.socket() is not sock:
                return
            if not _pending(sock) and not self._select([sock], [], 0.0)[0]:
                return

    def _select(self, rlist: list[Any], wlist: list[Any], timeout: float) -> tuple[list[Any], list[Any]]:
        try:
            readable, writable, _ = select.select(rlist, wlist, [], timeout)
        except (OSError, ValueError):  # a socket paho closed meanwhile: the next wait() sees it
            return [], []
        if self._wake_r in readable:
            with contextlib.suppress(BlockingIOError, OSError):
                self._wake_r.recv(4096)
            readable.remove(self._wake_r)
        return readable, writable


def _pending(sock: Any) -> bool:
    """Bytes TLS has already decrypted (select cannot see them)."""
    return bool(getattr(sock, "pending", None) and sock.pending() > 0)

"""What keeps slow and greedy clients from taking the pages offline, in the service itself.

In front of the service, Caddy (systemd/Caddyfile) absorbs most of this; these limits hold when the
service is reached directly (a trusted LAN, or a front that lets too much through):

- a request must arrive whole (headers and body) within :data:`REQUEST_TIMEOUT` seconds of the
  connection opening or of the previous answer, or the connection is closed: a client sending a
  byte now and then (slowloris) cannot hold a file descriptor for ever;
- at most :data:`CONNECTIONS_PER_ADDRESS` open connections per client address (a trusted proxy's
  address is exempt: it carries everybody's), beyond which a new one is closed at once;
- at most :data:`STREAMS_PER_ADDRESS` live streams (``/live``) per client and :data:`STREAMS` in all;
- uvicorn's own: ``limit_concurrency`` (connections and tasks; beyond it, 503), ``timeout_keep_alive``,
  and the largest header block (``h11_max_incomplete_event_size``); see :func:`uvicorn_options`.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any, ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

REQUEST_TIMEOUT = 10.0  # seconds for a whole request (a phone on bad Wi-Fi sends a page request in < 1 s)
KEEP_ALIVE = 5  # seconds an idle connection stays open between requests
CONNECTIONS = 4000  # connections (and tasks) at once, in all; the unit's LimitNOFILE leaves room above it
CONNECTIONS_PER_ADDRESS = 64
STREAMS = 3000  # live streams in all: every open page holds one
STREAMS_PER_ADDRESS = 32  # a family's phones behind one address, or a few behind a carrier's NAT
MAX_HEADER_BYTES = 16 * 1024
LAG = 0.5  # seconds late a timer may fire before the loop, not the client, is taken to be slow


class StreamSlots:
    """Live streams held, per address and in all. :meth:`take` is called on the event loop only."""

    def __init__(self, total: int = STREAMS, per_address: int = STREAMS_PER_ADDRESS) -> None:
        self.total, self.per_address = total, per_address
        self.held: Counter[str] = Counter()
        self.count = 0

    def take(self, address: str) -> bool:
        if self.count >= self.total or self.held[address] >= self.per_address:
            return False
        self.held[address] += 1
        self.count += 1
        return True

    def give_back(self, address: str) -> None:
        self.count -= 1
        self.held[address] -= 1
        if self.held[address] <= 0:
            del self.held[address]


def guarded_protocol(trusted: frozenset[str] = frozenset(), per_address: int = CONNECTIONS_PER_ADDRESS,
                     request_timeout: float = REQUEST_TIMEOUT) -> type[H11Protocol]:
    """uvicorn's h11 protocol with a whole-request timeout and a per-address connection cap (one class per
    server: the counts are the class's)."""

    class Guarded(H11Protocol):
        open_by_address: ClassVar[Counter[str]] = Counter()
        closed_slow = 0  # connections closed for sending too slowly: the benchmark reads it
        refused = 0  # connections closed at once, over the per-address cap

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._address = self.client[0] if self.client else "?"
            self._timer: asyncio.TimerHandle | None = None
            Guarded.open_by_address[self._address] += 1
            if Guarded.open_by_address[self._address] > per_address and self._address not in trusted:
                Guarded.refused += 1
                transport.abort()
                return
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            Guarded.open_by_address[self._address] -= 1
            if Guarded.open_by_address[self._address] <= 0:
                del Guarded.open_by_address[self._address]
            self._disarm()
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.conn.their_state in (h11.DONE, h11.MUST_CLOSE, h11.CLOSED, h11.ERROR):
                self._disarm()  # the request is whole: its answer may take as long as it takes (a stream)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
                self._arm()  # the next request must arrive whole in time too

        def _arm(self) -> None:
            self._disarm()
            self._due = self.loop.time() + request_timeout
            self._timer = self.loop.call_at(self._due, self._too_slow)

        def _disarm(self) -> None:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None

        def _too_slow(self) -> None:
            self._timer = None
            if self.loop.time() - self._due > LAG:
                # The loop itself was late (a burst of work): the request may be waiting unread in the socket.
                self._arm()
                return
            if not self.transport.is_closing() and self.conn.their_state not in (h11.DONE,):
                Guarded.closed_slow += 1
                self.transport.abort()

    return Guarded


def uvicorn_options(trusted: frozenset[str] = frozenset(), connections: int = CONNECTIONS,
                    request_timeout: float = REQUEST_TIMEOUT) -> dict[str, Any]:
    """The keyword arguments for ``uvicorn.Config`` that bound what clients can hold."""
    return {
        "http": guarded_protocol(trusted, request_timeout=request_timeout),
        "limit_concurrency": connections,
        "timeout_keep_alive": KEEP_ALIVE,
        "h11_max_incomplete_event_size": MAX_HEADER_BYTES,
        "backlog": 2048,
    }

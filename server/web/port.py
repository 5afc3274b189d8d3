"""How the service's changes reach the open pages: the change hub.

The service's backend (server.web.service_backend) gives the pages a snapshot of everything they
show, a way to wait for the next one (this hub) and a way to put a desk command on the service's
loop. The web thread never writes domain state itself (one loop owns it); it only reads snapshots.
"""

from __future__ import annotations

import asyncio
import threading


class ChangeHub:
    """Wakes every open page when the service's state changes.

    ``notify`` may be called from any thread (the service's loop); waiters live on the
    web server's asyncio loop. Each waiter awaits one shared future per version, so a
    change costs one wake-up per open page and nothing per page at rest.

    A change told *at once* (a stored result, a desk change: what the pages read in full) is not held back
    to the pace of the live states (server.web.fanout): :meth:`told_at_once` says whether one came."""

    def __init__(self) -> None:
        self._version = 0
        self._at_once = 0  # the last version told at once
        self._lock = threading.Lock()
        self._waiters: list[tuple[asyncio.AbstractEventLoop, asyncio.Future[int]]] = []

    @property
    def version(self) -> int:
        return self._version

    def notify(self, version: int | None = None, *, at_once: bool = False) -> None:
        """Something changed (``version``, the snapshot's, is only informative); ``at_once``: a change the
        pages should not wait for the next round's pace to show."""
        with self._lock:
            self._version += 1
            if at_once:
                self._at_once = self._version
            waiters, self._waiters = self._waiters, []
            current = self._version
        for loop, fut in waiters:
            if loop.is_closed():
                continue
            loop.call_soon_threadsafe(_settle, fut, current)

    def told_at_once(self, after: int) -> bool:
        """Whether a change after version ``after`` was told at once."""
        return self._at_once > after

    async def wait(self, after: int) -> int:
        """Return the version once it is past ``after`` (at once if it already is)."""
        loop = asyncio.get_running_loop()
        with self._lock:
            if self._version > after:
                return self._version
            fut = next((f for owner, f in self._waiters if owner is loop), None)
            if fut is None:
                fut = loop.create_future()
                self._waiters.append((loop, fut))
        return await asyncio.shield(fut)

    async def wait_at_once(self, after: int) -> None:
        """Return once a change after version ``after`` was told at once (at once if one was)."""
        seen = after
        while not self.told_at_once(after):
            seen = await self.wait(seen)


def _settle(fut: asyncio.Future[int], version: int) -> None:
    if not fut.done():
        fut.set_result(version)

"""The live regions' fan-out: each change rendered and encoded once per region, handed to the open pages
that show that region, and to no other.

Before it, every open page woke on every change of the snapshot and compared its regions itself: with
thousands of pages open, a court's live state woke the pool pages too, each for nothing. Now one task per
web loop (:class:`Fanout`) wakes, renders each region that some page shows (``Site.region``, cached per
snapshot version), and, where the region's HTML changed, puts its encoded event in the inbox of each page
that shows it. A page's own task then only writes (it holds the connection). A page that falls behind
keeps only each region's newest update: the next one replaces it in its inbox.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from typing import Protocol

from server.logs import log
from server.web.port import ChangeHub
from server.web.view import View


class Regions(Protocol):
    """What the fan-out needs of the site: the current view, and a region's HTML in it (rendered once)."""

    def view(self) -> View: ...

    def region(self, view: View, name: str) -> str: ...


def digest(html: str) -> str:
    """A region's content as an event id names it: the same on every instance that renders the same HTML."""
    return hashlib.blake2b(html.encode(), digest_size=6).hexdigest()


def encoded(name: str, html: str) -> bytes:
    """A region's ``data:`` line. Its ``now`` is the instant it is encoded: the page's clock offset."""
    payload = json.dumps({"id": name, "html": html, "now": int(time.time() * 1000)}, ensure_ascii=False)
    return f"data: {payload}\n\n".encode()


class Page:
    """One open page's inbox: for each region, the newest update it has not written yet."""

    def __init__(self, regions: list[str]) -> None:
        self.regions = regions
        self.pending: dict[str, tuple[str, bytes]] = {}  # region -> (digest, encoded data)
        self.wake = asyncio.Event()

    def put(self, name: str, d: str, data: bytes) -> None:
        self.pending[name] = (d, data)
        self.wake.set()

    def take(self) -> dict[str, tuple[str, bytes]]:
        pending, self.pending = self.pending, {}
        self.wake.clear()
        return pending


class Fanout:
    """The open pages of one web loop, by region, and the task that hands them each region's changes."""

    def __init__(self, site: Regions, hub: ChangeHub) -> None:
        self.site, self.hub = site, hub
        self.pages: dict[str, set[Page]] = {}
        self.last: dict[str, str] = {}  # region -> digest of the last update handed out
        self._task: asyncio.Task[None] | None = None
        self.rounds = 0  # snapshots looked at (the benchmark reads it)
        self.handed = 0  # updates put in pages' inboxes

    def open(self, regions: list[str], shown: dict[str, str]) -> Page:
        """A page that now shows ``shown`` (region -> digest, of the current snapshot): it gets what changes."""
        page = Page(regions)
        for name in regions:
            self.pages.setdefault(name, set()).add(page)
            if name in shown:
                self.last.setdefault(name, shown[name])  # not handed out again for nothing at the next change
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())
        return page

    def close(self, page: Page) -> None:
        for name in page.regions:
            held = self.pages.get(name)
            if held is not None:
                held.discard(page)
                if not held:
                    del self.pages[name]
                    self.last.pop(name, None)

    async def _run(self) -> None:
        seen = self.hub.version
        while self.pages:
            seen = await self.hub.wait(seen)
            try:
                self._round()
            except Exception as err:  # a region that fails to render must not stop every other page's updates
                log("live_fanout_failed", reason=f"{type(err).__name__}: {err}"[:300])

    def _round(self) -> None:
        self.rounds += 1
        view = self.site.view()
        for name, pages in list(self.pages.items()):
            html = self.site.region(view, name)
            d = digest_of(html)
            if self.last.get(name) == d:
                continue
            self.last[name] = d
            data = encoded(name, html)
            for page in pages:
                page.put(name, d, data)
            self.handed += len(pages)


_digests: dict[str, str] = {}


def digest_of(html: str) -> str:
    """A region's digest, computed once per HTML text (the same text object while its snapshot lasts,
    Site.region, so the lookup hashes nothing again)."""
    found = _digests.get(html)
    if found is None:
        if len(_digests) > 1024:
            _digests.clear()
        found = _digests[html] = digest(html)
    return found

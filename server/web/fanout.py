"""The live regions' fan-out: each change rendered and encoded once per region, and written by one loop to the
connection of every open page that shows that region, and to no other.

One task per web loop (:class:`Fanout`) wakes on each change, renders each region that some page shows
(``Site.region``, cached per snapshot version) and, where the region's HTML changed, writes its frame to each
page's ASGI ``send`` in turn. Measured (docs/benchmarks.md, issue 24), waking a task and a generator per page
per change cost several times the write itself; now a change costs one write per page and nothing else.

A page whose phone cannot keep up (its connection's buffers full: uvicorn's ``send`` would wait for them to
drain) is not waited for: the loop goes on to the next page, and that page is *behind*. It keeps only the
newest update of each region it has not been written (a region's update is its whole HTML, so the newest
stands for those it replaces: nothing is lost), and a task of its own writes them as the connection drains;
then the loop writes to it again. A page opening (or coming back with its Last-Event-ID) starts behind: its
own task writes what the phone lacks, while later changes wait in the same place.

Every :data:`HEARTBEAT` seconds the loop writes a beat to each page it wrote nothing to since the last beat
(the page's clock offset, a connection proxies keep open, and a page that notices when it has gone quiet,
after 40 s): measured, a beat to all 10,000 phones at once delayed the update that came with it.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from collections.abc import Coroutine
from typing import Any, Protocol, cast

from starlette.types import Message, Send

from server.logs import log
from server.web.port import ChangeHub
from server.web.view import View

HEARTBEAT = 15.0  # seconds; lets the page notice a dead connection and lets proxies keep it open
WRITES_PER_TURN = 250  # writes (about 30 µs each) between two turns the loop gets for its other tasks


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


def body(frame: bytes) -> Message:
    return {"type": "http.response.body", "body": frame, "more_body": True}


def written_at_once(send: Send, message: Message) -> bool:
    """Write ``message`` if the connection takes it now. uvicorn's ``send`` (and the middlewares' around it)
    only ever waits before writing anything, for a full connection to drain: a call that would wait is
    closed there, having written nothing, and False says so."""
    step = cast(Coroutine[Any, Any, None], send(message))
    try:
        step.send(None)
    except StopIteration:
        return True
    step.close()
    return False


class Page:
    """One open page: its regions, what its phone holds of each (digests), its connection's ``send``, and,
    while it is behind, the newest update of each region not written yet."""

    def __init__(self, regions: list[str], send: Send, held: dict[str, str]) -> None:
        self.regions, self.send = regions, send
        self.sent = held  # region -> digest of what the phone holds
        self.pending: dict[str, tuple[str, bytes]] = {}  # region -> (digest, encoded data), while behind
        self.behind = True  # its own task writes (on opening, and whenever the connection is full)
        self.spoke = False  # written to since the last beat
        self.writer: asyncio.Task[None] | None = None

    def frame(self, name: str, d: str, data: bytes) -> bytes:
        """The region's event, its id what the page holds of each of its regions once it has this one, in the
        request's order: content, not a counter, so that a phone reconnecting through the front to another
        instance sends it back (Last-Event-ID) and gets exactly the regions whose HTML differs from it."""
        held = ".".join(d if r == name else self.sent.get(r, "-") for r in self.regions)
        return b"event: region\nid: " + held.encode() + b"\n" + data

    def hand(self, name: str, d: str, data: bytes, shared: bytes) -> bool:
        """Written now (True), or kept for its own task; ``shared`` is the frame of a page of this region alone."""
        if self.behind:  # the newest, even if the phone holds it already (catch_up skips it then): it
            self.pending[name] = (d, data)  # replaces an older one pending, which the phone must not end with
            return False
        if self.sent.get(name) == d:
            return False
        frame = shared if len(self.regions) == 1 else self.frame(name, d, data)
        if written_at_once(self.send, body(frame)):
            self.sent[name], self.spoke = d, True
            return True
        self.pending[name] = (d, data)
        self.behind = True
        self.writer = asyncio.get_running_loop().create_task(self.catch_up())
        return False

    async def catch_up(self) -> None:
        """Write what is pending, waiting for the connection as long as it takes; then the loop writes again."""
        while self.pending:
            name = next(iter(self.pending))
            d, data = self.pending.pop(name)
            if self.sent.get(name) != d:
                frame = self.frame(name, d, data)
                self.sent[name], self.spoke = d, True
                await self.send(body(frame))
        self.behind = False


class Fanout:
    """The open pages of one web loop, by region, and the task that writes them each region's changes."""

    def __init__(self, site: Regions, hub: ChangeHub) -> None:
        self.site, self.hub = site, hub
        self.pages: dict[str, set[Page]] = {}
        self.last: dict[str, str] = {}  # region -> digest of the last update handed out
        self._task: asyncio.Task[None] | None = None
        self.rounds = 0  # snapshots looked at (the benchmark reads these counts)
        self.written = 0  # frames written by the loop itself
        self.fell_behind = 0  # times a page's connection was full when the loop came to it

    def open(self, regions: list[str], send: Send, now: dict[str, str], held: dict[str, str]) -> Page:
        """A page now showing ``now`` (region -> HTML, of the current snapshot) on a phone that holds ``held``
        (region -> digest). It starts behind, with what the phone lacks pending: :meth:`Page.catch_up`
        writes it, and every later change reaches it."""
        page = Page(regions, send, {})
        for name in regions:
            d = digest_of(now[name])
            if held.get(name) == d:
                page.sent[name] = d
            else:  # encoded afresh on (re)connecting: its ``now`` sets the page's clock offset
                page.pending[name] = (d, encoded(name, now[name]))
            self.pages.setdefault(name, set()).add(page)
            self.last.setdefault(name, d)  # not handed out again for nothing at the next change
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())
        return page

    def close(self, page: Page) -> None:
        if page.writer is not None:
            page.writer.cancel()
        for name in page.regions:
            held = self.pages.get(name)
            if held is not None:
                held.discard(page)
                if not held:
                    del self.pages[name]
                    self.last.pop(name, None)

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        beat_at = loop.time() + HEARTBEAT
        seen = self.hub.version
        await self._round()  # at once: a change made after the first page read its snapshot, before this ran
        while self.pages:
            try:
                async with asyncio.timeout_at(beat_at):
                    seen = await self.hub.wait(seen)
            except TimeoutError:
                beat_at = loop.time() + HEARTBEAT
                self._beat()
                continue
            await self._round()

    async def _round(self) -> None:
        """Each region that changed, to the pages open when the round began (one opened during it read a
        snapshot at least as new). Every :data:`WRITES_PER_TURN` writes the loop is given back: a page request
        on this instance then waits for that many, not for a whole round to thousands of phones."""
        self.rounds += 1
        try:
            view = self.site.view()
            changed = [(name, self.site.region(view, name), list(pages)) for name, pages in self.pages.items()]
        except Exception as err:  # a region that fails to render must not stop every other page's updates
            log("live_fanout_failed", reason=f"{type(err).__name__}: {err}"[:300])
            return
        turn = 0
        for name, html, pages in changed:
            d = digest_of(html)
            if self.last.get(name) == d:
                continue
            self.last[name] = d
            data = encoded(name, html)
            shared = b"event: region\nid: " + d.encode() + b"\n" + data
            for page in pages:
                turn += 1
                if turn % WRITES_PER_TURN == 0:
                    await asyncio.sleep(0)
                self._hand(page, name, d, data, shared)

    def _hand(self, page: Page, name: str, d: str, data: bytes, shared: bytes) -> None:
        was = page.behind
        try:
            self.written += page.hand(name, d, data, shared)
        except Exception:  # its connection refused the write outright: it is going, like any other
            self.close(page)
        self.fell_behind += page.behind and not was

    def _beat(self) -> None:
        frame = body(f"event: beat\ndata: {int(time.time() * 1000)}\n\n".encode())
        for page in {p for pages in self.pages.values() for p in pages}:
            if not page.spoke and not page.behind:  # a full connection has updates pending: no beat needed
                written_at_once(page.send, frame)
            page.spoke = False


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

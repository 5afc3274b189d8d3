"""The live regions' fan-out: each change rendered and encoded once per region, and written by one loop to the
connection of every open page that shows that region, and to no other.

One task per web loop (:class:`Fanout`) wakes on each change, looks at each region that some page shows and that
may differ from the last round's snapshot (``Site.may_differ``: after live states alone, the changed courts'), and,
where the region's own part changed (``Site.own``: a region nested in it, such as a court's card on the home page,
is a region of its own), renders it (``Site.region``, cached per snapshot version) and writes the page's changed
regions to its ASGI ``send``, one write per page. Measured (docs/benchmarks.md, issue 24), waking a task and a generator
per page per change cost several times the write itself; now a round costs one write per page and nothing else.

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
import contextlib
import hashlib
import json
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol, cast

from starlette.types import Message, Send

from server.logs import log
from server.web.port import ChangeHub
from server.web.view import View

HEARTBEAT = 15.0  # seconds; lets the page notice a dead connection and lets proxies keep it open
ROUND_S = 0.05
"""Seconds from one round's start to the next at the least. A cup's 110 courts send a live state a second each (a
real table up to four), and each round's snapshot, regions and one write per page cost the same for one court's
state as for every court's: twenty rounds a second take them all, each at most this much later."""
MANY_REGIONS = 8
"""A page that shows more regions than this is a summary (a cup's home page: a card for each of its 110 courts)."""
SUMMARY_S = 1.0
"""Seconds from one write to a summary page to the next at the least. Its regions change in nearly every round (some
court's state), and a phone needs the list of every court once a second, not twenty times: written every round, a
cup's home pages took nine in ten of an instance's writes (docs/benchmarks.md). A page of a court, a pool or a
team is written every round."""
SERVER_SEND = "courtside.server_send"
"""The scope's key to the ASGI server's own ``send``, under the app's layers (server.web.app): a page's writes go to
it once its answer has started."""
WRITES_PER_TURN = 250  # writes (about 30 µs each) between two turns the loop gets for its other tasks


class Regions(Protocol):
    """What the fan-out needs of the site: the current view, a region's HTML in it (rendered once), and its own part
    (its HTML less the regions nested in it, which the pages are written on their own)."""

    def snapshot(self) -> None: ...

    def view(self) -> View: ...

    def region(self, view: View, name: str) -> str: ...

    def own(self, view: View, name: str) -> str: ...

    def may_differ(self, before: View, after: View) -> Callable[[str], bool]: ...


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


Update = tuple[str, str, bytes]  # a region's name, the digest of its own part, its encoded data
Held = tuple[str, ...]  # the digest of what a phone holds of each of its page's regions, in their order ("-": none)


@dataclass(eq=False)
class PageRegions:
    """The regions a page shows, in the request's order, and each one's place: shared by every page that shows the
    same (a cup's 300 home pages on an instance), so that a round makes their write once. A summary's pages are
    written at most every ``every`` seconds: until ``due``, the newest update of each region that changed waits in
    ``held_back``."""

    names: tuple[str, ...]
    places: dict[str, int]
    every: float  # seconds between two writes at the least: 0, every round; SUMMARY_S for a summary
    held_back: dict[str, Update] = field(default_factory=dict)
    due: float = float("-inf")


class Made(NamedTuple):
    """A round's write to a page that held ``Held``: its frames, and what the page holds once it has them."""

    frame: bytes
    held: Held
    held_id: str


class Page:
    """One open page: its regions, what its phone holds of each (digests), its connection's ``send``, and,
    while it is behind, the newest update of each region not written yet."""

    def __init__(self, regions: PageRegions, send: Send, held: Held) -> None:
        self.regions, self.send = regions, send
        self.held, self.held_id = held, ".".join(held)
        self.pending: dict[str, tuple[str, bytes]] = {}  # region -> (digest, encoded data), while behind
        self.behind = True  # its own task writes (on opening, and whenever the connection is full)
        self.spoke = False  # written to since the last beat
        self.writer: asyncio.Task[None] | None = None

    def made(self, updates: list[Update]) -> Made:
        """The regions' events, in one write. The last one's id is what the page holds of each of its regions once
        it has them all, in the request's order: content, not a counter, so that a phone reconnecting through the
        front to another instance sends it back (Last-Event-ID) and gets exactly the regions whose HTML differs
        from it. The others carry none (EventSource keeps the last id it had): the home page's id names each of a
        cup's 110 courts' cards, and a round's cards are written together."""
        held = list(self.held)
        for name, d, _ in updates:
            held[self.regions.places[name]] = d
        held_id = ".".join(held)
        *first, last = updates
        frame = b"".join([*(b"event: region\n" + data for _, _, data in first),
                          b"event: region\nid: " + held_id.encode() + b"\n" + last[2]])
        return Made(frame, tuple(held), held_id)

    def hand(self, updates: list[Update], made: dict[str, Made]) -> bool:
        """Written now (True), or kept for its own task. ``made``: the round's writes to pages of these regions so
        far, by what they held; a page that held the same gets the same bytes."""
        if self.behind:  # the newest, even if the phone holds it already (catch_up skips it then): it
            for name, d, data in updates:  # replaces an older one pending, which the phone must not end with
                self.pending[name] = (d, data)
            return False
        write = made.get(self.held_id)
        if write is None:
            write = made[self.held_id] = self.made(updates)
        if written_at_once(self.send, body(write.frame)):
            self.held, self.held_id, self.spoke = write.held, write.held_id, True
            return True
        for name, d, data in updates:
            self.pending[name] = (d, data)
        self.behind = True
        self.writer = asyncio.get_running_loop().create_task(self.catch_up())
        return False

    async def catch_up(self) -> None:
        """Write what is pending, waiting for the connection as long as it takes; then the loop writes again."""
        while self.pending:
            places = self.regions.places
            updates = [(name, d, data) for name, (d, data) in self.pending.items() if self.held[places[name]] != d]
            self.pending = {}
            if updates:
                write = self.made(updates)
                self.held, self.held_id, self.spoke = write.held, write.held_id, True
                await self.send(body(write.frame))
        self.behind = False


class Fanout:
    """The open pages of one web loop, by the regions they show, and the task that writes them each region's
    changes."""

    def __init__(self, site: Regions, hub: ChangeHub) -> None:
        self.site, self.hub = site, hub
        self.pages: dict[tuple[str, ...], tuple[PageRegions, set[Page]]] = {}  # pages by the regions they show
        self.showing: dict[str, int] = {}  # region -> how many of those region lists name it
        self.last: dict[str, str] = {}  # region -> digest of the last update handed out
        self.looked: View | None = None  # the snapshot the last round looked at
        self.fresh: set[str] = set()  # regions first shown since: the next round looks at them whatever changed
        self._task: asyncio.Task[None] | None = None
        self.rounds = 0  # snapshots looked at (the benchmark reads these counts)
        self.written = 0  # writes made by the loop itself
        self.fell_behind = 0  # times a page's connection was full when the loop came to it

    def open(self, regions: list[str], send: Send, view: View, held: dict[str, str]) -> Page:
        """A page now showing ``regions`` of ``view`` on a phone that holds ``held`` (region -> digest). It starts
        behind, with what the phone lacks pending: :meth:`Page.catch_up` writes it, and every later change
        reaches it."""
        names = tuple(regions)
        if names not in self.pages:
            every = SUMMARY_S if len(names) > MANY_REGIONS else 0.0
            self.pages[names] = (PageRegions(names, {name: i for i, name in enumerate(names)}, every), set())
            for name in names:
                self.showing[name] = self.showing.get(name, 0) + 1
        shared, pages = self.pages[names]
        now = [digest_of(self.site.own(view, name)) for name in names]
        page = Page(shared, send, tuple(d if held.get(name) == d else "-" for name, d in zip(names, now, strict=True)))
        for name, d in zip(names, now, strict=True):
            if held.get(name) != d:  # encoded afresh on (re)connecting: its ``now`` sets the page's clock offset
                page.pending[name] = (d, encoded(name, self.site.region(view, name)))
            if name not in self.last:  # first shown: the next round looks at it whatever the site says changed
                self.last[name] = d  # not handed out again for nothing at the next change
                self.fresh.add(name)
            elif self.last[name] != d:
                # Changed since the last round handed it out: the next round hands out what it finds, even if that
                # is what the last one did (the change undone), which the pages opened since do not hold.
                self.last[name] = "-"
                self.fresh.add(name)
        pages.add(page)
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())
        return page

    def close(self, page: Page) -> None:
        if page.writer is not None:
            page.writer.cancel()
        names = page.regions.names
        kept = self.pages.get(names)
        if kept is None or page not in kept[1]:
            return
        kept[1].discard(page)
        if not kept[1]:
            del self.pages[names]
            for name in names:
                self.showing[name] -= 1
                if not self.showing[name]:
                    del self.showing[name]
                    self.last.pop(name, None)

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        beat_at = loop.time() + HEARTBEAT
        seen = self.hub.version
        await self._round()  # at once: a change made after the first page read its snapshot, before this ran
        next_round = loop.time() + ROUND_S
        while self.pages:
            held = min((shared.due for shared, _ in self.pages.values() if shared.held_back), default=beat_at)
            looked = seen  # the version the last round looked at, at least
            try:
                async with asyncio.timeout_at(min(beat_at, held)):
                    seen = await self.hub.wait(seen)
            except TimeoutError:
                if loop.time() >= beat_at:
                    beat_at = loop.time() + HEARTBEAT
                    self._beat()
                if loop.time() < held:
                    continue
            # The changes meanwhile come along, until the round's pace allows the next, or a change told at once
            # (a result: a few a minute in a cup) comes: it does not wait for the live states' pace.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout_at(max(loop.time(), next_round)):
                    await self.hub.wait_at_once(looked)
            seen = self.hub.version
            next_round = loop.time() + ROUND_S
            await self._round()

    async def _round(self, now: float | None = None) -> None:
        """Each region that changed, to the pages open when the round began (one opened during it read a
        snapshot at least as new), in one write to each page, made once for the pages of the same regions that
        held the same; a summary's, when due (:meth:`_due`). Every :data:`WRITES_PER_TURN` writes the loop is
        given back: a page request on this instance then waits for that many, not for a whole round to thousands
        of phones. ``now``: the loop's time (the tests give theirs)."""
        now = asyncio.get_running_loop().time() if now is None else now
        self.rounds += 1
        changed: dict[str, Update] = {}
        try:
            await asyncio.to_thread(self.site.snapshot)  # its database reads: the loop serves pages meanwhile
            view = self.site.view()
            may_differ = self.site.may_differ(self.looked, view) if self.looked is not None else None
            for name in self.showing:
                if may_differ is not None and not may_differ(name) and name not in self.fresh:
                    continue  # as it was in the last round's snapshot, which this page was written or holds
                d = digest_of(self.site.own(view, name))
                if self.last.get(name) != d:
                    changed[name] = (name, d, encoded(name, self.site.region(view, name)))
        except Exception as err:  # a region that fails to render must not stop every other page's updates
            log("live_fanout_failed", reason=f"{type(err).__name__}: {err}"[:300])
            return  # the next round looks at what changed since the last whole look
        self.looked = view
        self.fresh.clear()
        for name, d, _ in changed.values():
            self.last[name] = d
        turn = 0
        for shared, pages in [(shared, list(pages)) for shared, pages in self.pages.values()]:
            updates = self._due(shared, changed, now)
            if not updates:
                continue
            made: dict[str, Made] = {}
            for page in pages:
                turn += 1
                if turn % WRITES_PER_TURN == 0:
                    await asyncio.sleep(0)
                self._hand(page, updates, made)

    def _due(self, shared: PageRegions, changed: dict[str, Update], now: float) -> list[Update]:
        """What the pages of ``shared``'s regions are written this round: the regions that changed; for a summary,
        once ``shared.every`` has passed since its last write, those that changed since then, each as it is now."""
        updates = [changed[name] for name in shared.names if name in changed]
        if not shared.every:
            return updates
        shared.held_back.update((update[0], update) for update in updates)
        if not shared.held_back or now < shared.due:
            return []
        waiting, shared.held_back, shared.due = shared.held_back, {}, now + shared.every
        return [waiting[name] for name in shared.names if name in waiting]

    def _hand(self, page: Page, updates: list[Update], made: dict[str, Made]) -> None:
        was = page.behind
        try:
            self.written += page.hand(updates, made)
        except Exception:  # its connection refused the write outright: it is going, like any other
            self.close(page)
        self.fell_behind += page.behind and not was

    def open_pages(self) -> list[Page]:
        return [page for _, pages in list(self.pages.values()) for page in list(pages)]  # the tests read it too

    def _beat(self) -> None:
        frame = body(f"event: beat\ndata: {int(time.time() * 1000)}\n\n".encode())
        for page in self.open_pages():
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

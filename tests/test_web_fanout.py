"""server.web.fanout and the live stream (server.web.pages._stream) over uvicorn and real connections: a
change rendered once and written only to the pages that show it, a phone resuming from its event id, and a
phone that cannot keep up holding up no other and ending with the newest state.

The regions come from a :class:`Board` whose HTML the test sets (what the fan-out reads of a site: a view
and a region's HTML in it), so that each change is one the test made, and one as large as it needs."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, cast
from urllib.parse import parse_qs

import uvicorn
from starlette.types import Receive, Scope, Send

from server.web import fanout as fanout_module
from server.web.fanout import Fanout, digest
from server.web.limits import uvicorn_options
from server.web.pages import _stream
from server.web.port import ChangeHub
from server.web.site import Site
from tests.ports import free_port


class Board:
    """Regions' HTML as the test sets it; each version's region rendered once, counted."""

    def __init__(self) -> None:
        self.html = {"court/1": "<p>court 1: 0-0</p>", "pool/A": "<p>pool A</p>"}
        self.version = 0
        self.history: dict[int, dict[str, str]] = {}  # each earlier version's regions
        self.changes = ChangeHub()
        self.renders: Counter[str] = Counter()
        self.looks: Counter[str] = Counter()  # own parts asked for
        self.as_it_was: set[str] = set()  # the regions may_differ says are as they were, whatever the versions
        self._rendered: set[tuple[int, str]] = set()

    def snapshot(self) -> None:
        """Nothing to read: the test sets the regions."""

    def view(self) -> Any:
        return self.version

    def region(self, view: Any, name: str) -> str:
        if (view, name) not in self._rendered:
            self._rendered.add((view, name))
            self.renders[name] += 1
        return self.history.get(view, self.html)[name]

    def own(self, view: Any, name: str) -> str:
        """What the regions nested in a region change leaves as it was: here, the text before its first "|"."""
        self.looks[name] += 1
        return self.region(view, name).split("|", 1)[0]

    def may_differ(self, before: Any, after: Any) -> Any:
        return lambda name: name not in self.as_it_was

    def set(self, name: str, html: str, *, at_once: bool = False) -> None:
        self.history[self.version] = self.html
        self.html = {**self.html, name: html}
        self.version += 1
        self.changes.notify(at_once=at_once)


def settled(fanout: Fanout, timeout: float = 10.0) -> None:
    """Until no page's own task is still writing its first regions (on a loaded machine the phone may read them
    before that task has finished): then a change is the fan-out loop's to write, which the tests count."""
    deadline = time.monotonic() + timeout
    while any(page.behind for page in fanout.open_pages()):
        assert time.monotonic() < deadline, "a page stayed behind"
        time.sleep(0.01)


def counted(fanout: Fanout, writes: int, timeout: float = 10.0) -> None:
    """Until the loop has counted ``writes`` (written, or passed over for a full connection): it counts a write
    once it is made, so the last phone can read its frame before the count is taken. Not reached in time, the
    test's own assertion on the counts says what was."""
    deadline = time.monotonic() + timeout
    while fanout.written + fanout.fell_behind < writes and time.monotonic() < deadline:
        time.sleep(0.01)


@contextmanager
def served(board: Board) -> Iterator[tuple[int, Fanout]]:
    fanout = Fanout(board, board.changes)

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        query = parse_qs(scope["query_string"].decode())
        last = dict(scope["headers"]).get(b"last-event-id", b"").decode()
        await _stream(cast(Site, board), fanout, query["r"], last, lambda: None)(scope, receive, send)

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="off",
                                           timeout_graceful_shutdown=1, **uvicorn_options()))
    thread = threading.Thread(target=lambda: asyncio.run(server.serve()), daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    try:
        yield port, fanout
    finally:
        server.should_exit = True
        thread.join(10)


class Phone:
    """One page's stream on a socket of its own (HTTP/1.0: the body comes unframed); its events as read."""

    def __init__(self, port: int, region: str, last_id: str = "") -> None:
        self.sock = socket.socket()
        self.sock.connect(("127.0.0.1", port))
        self.sock.settimeout(20)  # a guard against hanging, not a measure: the events come at once
        resume = f"Last-Event-ID: {last_id}\r\n" if last_id else ""
        self.sock.sendall(f"GET /live?r={region} HTTP/1.0\r\n{resume}\r\n".encode())
        self.buffer = b""
        self.head = True

    def next_region(self) -> tuple[str, dict[str, Any]]:
        """The next region event: its id and its data."""
        while True:
            while b"\n\n" not in self.buffer:
                chunk = self.sock.recv(65536)
                assert chunk, "the stream ended"
                self.buffer += chunk
            event, self.buffer = self.buffer.split(b"\n\n", 1)
            if self.head:
                assert event.startswith(b"HTTP/1.1 200"), event[:100]
                self.head = False
                event = event.split(b"\r\n\r\n", 1)[1]
            fields = dict(line.split(": ", 1) for line in event.decode().splitlines() if ": " in line)
            if fields.get("event") == "region":  # the id on the last of a write's events only
                return fields.get("id", ""), json.loads(fields["data"])

    def close(self) -> None:
        self.sock.close()


def test_a_change_is_rendered_once_and_written_only_to_the_pages_that_show_it() -> None:
    board = Board()
    with served(board) as (port, fanout):
        court = [Phone(port, "court/1") for _ in range(50)]
        table = Phone(port, "pool/A")
        for phone in [*court, table]:  # each page first gets what it does not hold: the region as it is
            assert phone.next_region()[1]["html"] in board.html.values()
        before = board.renders["court/1"]
        settled(fanout)
        board.set("court/1", "<p>court 1: 1-0</p>")
        for phone in court:
            event_id, data = phone.next_region()
            assert event_id == digest("<p>court 1: 1-0</p>") and data["html"] == "<p>court 1: 1-0</p>"
        # Fifty pages of the court, one rendering of its region, and written by the fan-out's loop itself.
        counted(fanout, 50)
        assert board.renders["court/1"] - before == 1
        assert (fanout.written, fanout.fell_behind) == (50, 0)
        # The pool's page got nothing of it: the next event it reads is its own region's change.
        board.set("pool/A", "<p>pool A: 5-0</p>")
        assert table.next_region()[1]["html"] == "<p>pool A: 5-0</p>"
        for phone in [*court, table]:
            phone.close()


def test_a_phone_back_with_its_event_id_gets_only_what_changed_since() -> None:
    board = Board()
    with served(board) as (port, _):
        first = Phone(port, "court/1&r=pool/A")
        held = [first.next_region(), first.next_region()]
        assert [data["id"] for _, data in held] == ["court/1", "pool/A"]
        assert held[0][0] == ""  # written together: the id, on the last event, names both
        last_id = held[-1][0]
        assert last_id == f"{digest(board.html['court/1'])}.{digest(board.html['pool/A'])}"
        first.close()
        board.set("pool/A", "<p>pool A: 2-2</p>")  # while the phone was away, maybe on another instance
        back = Phone(port, "court/1&r=pool/A", last_id=last_id)
        event_id, data = back.next_region()
        assert data["id"] == "pool/A" and data["html"] == "<p>pool A: 2-2</p>"  # not the court: it held that
        assert event_id == f"{digest(board.html['court/1'])}.{digest('<p>pool A: 2-2</p>')}"
        back.close()


def test_a_phone_that_cannot_keep_up_holds_up_no_other_and_ends_with_the_newest_state() -> None:
    board = Board()
    with served(board) as (port, fanout):
        slow = Phone(port, "court/1")  # reads nothing until the end
        quick = Phone(port, "court/1")
        quick.next_region()
        for n in range(1, 81):  # 8 MB: more than the slow phone's socket buffers take (a few MB at most)
            board.set("court/1", f"<p>court 1, state {n}</p>" + "x" * 100_000)
            assert quick.next_region()[1]["html"].startswith(f"<p>court 1, state {n}</p>")
        assert fanout.fell_behind >= 1  # the loop came to the slow phone's full connection and went on
        states: list[int] = []
        while not states or states[-1] != 80:
            html = slow.next_region()[1]["html"]
            states.append(int(html.split("state ", 1)[1].split("<", 1)[0]) if "state" in html else 0)
        # In order, ending with the newest; the states it had no room for were replaced by newer ones.
        assert states == sorted(states) and len(states) < 81
        slow.close()
        quick.close()


def test_a_round_given_back_to_the_loop_between_writes_still_writes_each_page_once(monkeypatch: Any) -> None:
    """The loop is given back every WRITES_PER_TURN writes (for a page request waiting on the instance): set to
    three, twenty pages of two regions still get each change once, from the loop, and in the regions' order,
    both regions of a round in one write with one id after them."""
    monkeypatch.setattr(fanout_module, "WRITES_PER_TURN", 3)
    board = Board()
    with served(board) as (port, fanout):
        phones = [Phone(port, "court/1&r=pool/A") for _ in range(20)]
        for phone in phones:
            assert {phone.next_region()[1]["id"], phone.next_region()[1]["id"]} == {"court/1", "pool/A"}
        settled(fanout)
        board.html = {"court/1": "<p>court 1: 2-0</p>", "pool/A": "<p>pool A: 2-0</p>"}  # one snapshot, two regions
        board.set("court/1", "<p>court 1: 2-0</p>")
        both = f"{digest('<p>court 1: 2-0</p>')}.{digest('<p>pool A: 2-0</p>')}"
        for phone in phones:
            got = [phone.next_region() for _ in range(2)]
            assert [(i, g["id"], g["html"]) for i, g in got] == [("", "court/1", "<p>court 1: 2-0</p>"),
                                                                 (both, "pool/A", "<p>pool A: 2-0</p>")]
        counted(fanout, 20)
        assert (fanout.written, fanout.fell_behind) == (20, 0)
        for phone in phones:
            phone.close()


def test_a_region_nested_in_another_is_written_alone_and_the_other_only_when_its_own_part_changes() -> None:
    """The home page's courts hold each court's card (here "home" holds "card/1" after its "|"): a card's change
    is written as the card, not as the 70 kB of every card; the home region again only when its own part changed,
    whole, with the cards as they are then."""
    board = Board()
    board.html = {**board.html, "home": "<h1>On the courts</h1>|<p>card 1: 0-0</p>", "card/1": "<p>card 1: 0-0</p>"}
    with served(board) as (port, fanout):
        phone = Phone(port, "home&r=card/1")
        assert {phone.next_region()[1]["id"], phone.next_region()[1]["id"]} == {"home", "card/1"}
        settled(fanout)
        board.html = {**board.html, "home": "<h1>On the courts</h1>|<p>card 1: 1-0</p>"}
        board.set("card/1", "<p>card 1: 1-0</p>")
        event_id, data = phone.next_region()
        assert (data["id"], data["html"]) == ("card/1", "<p>card 1: 1-0</p>")
        assert event_id == f"{digest('<h1>On the courts</h1>')}.{digest('<p>card 1: 1-0</p>')}"
        board.set("home", "<h1>Every match is played</h1>|<p>card 1: 1-0</p>")
        event_id, data = phone.next_region()
        assert (data["id"], data["html"]) == ("home", "<h1>Every match is played</h1>|<p>card 1: 1-0</p>")
        counted(fanout, 2)
        assert fanout.written == 2
        phone.close()


async def _taken(_message: Any) -> None:
    """A phone's connection that takes every write at once."""


def _rounds_run_here(fanout: Fanout) -> None:
    """The test runs each round itself (Fanout._round), as a change's would: the loop's own task is stopped."""
    if fanout._task is not None:
        fanout._task.cancel()


def test_a_round_looks_only_at_the_regions_that_may_have_changed() -> None:
    """After live states alone, a cup's instance has hundreds of regions open and a few courts' boards changed:
    the round looks at the regions the site says may differ from the last round's snapshot, the first one at all."""
    board = Board()

    async def play() -> None:
        fanout = Fanout(board, board.changes)
        page = fanout.open(["court/1", "pool/A"], _taken, board.view(), {})
        _rounds_run_here(fanout)
        await page.catch_up()
        board.as_it_was = {"court/1", "pool/A"}
        await fanout._round()  # the first: every region, whatever the site says
        assert (board.looks["court/1"], board.looks["pool/A"]) == (2, 2)
        board.as_it_was = {"pool/A"}
        board.set("court/1", "<p>court 1: 1-0</p>")
        await fanout._round()
        assert (board.looks["court/1"], board.looks["pool/A"]) == (3, 2)
        assert page.held == (digest("<p>court 1: 1-0</p>"), digest("<p>pool A</p>"))

    asyncio.run(play())


def test_a_region_first_shown_is_looked_at_in_the_next_round_whatever_may_have_changed() -> None:
    """A page is opened on the snapshot it is given (the stream gives the newest, read as it opens; this test an
    older one) and written its regions as they are in it. The next round looks at a region first shown whatever
    the site says changed since the last round: what the page was written may not be what that round saw, and the
    page ends with the newest."""
    board = Board()

    async def play() -> None:
        fanout = Fanout(board, board.changes)
        old = board.view()
        first = fanout.open(["pool/A"], _taken, old, {})
        _rounds_run_here(fanout)
        await first.catch_up()
        await fanout._round()
        board.set("court/1", "<p>court 1: 3-0</p>")
        await fanout._round()  # no page shows the court yet
        late = fanout.open(["court/1"], _taken, old, {})
        await late.catch_up()
        assert late.held == (digest("<p>court 1: 0-0</p>"),)
        board.as_it_was = {"court/1", "pool/A"}
        board.set("pool/A", "<p>pool A</p>")  # a new snapshot, as the round before saw it
        await fanout._round()
        assert late.held == (digest("<p>court 1: 3-0</p>"),)

    asyncio.run(play())


def test_a_page_opened_on_a_change_no_round_handed_out_ends_with_the_newest_even_if_it_changes_back() -> None:
    """A court's board changes (an undone goal, the clock stopped) and, before the next round, a page opens on it;
    then it changes back, to what the last round handed out. The other pages hold that already; the new one held the
    change between, and is written the board as it is."""
    board = Board()

    async def play() -> None:
        fanout = Fanout(board, board.changes)
        first = fanout.open(["court/1"], _taken, board.view(), {})
        _rounds_run_here(fanout)
        await first.catch_up()
        await fanout._round()
        board.set("court/1", "<p>court 1: 1-0</p>")
        late = fanout.open(["court/1"], _taken, board.view(), {})
        await late.catch_up()
        assert late.held == (digest("<p>court 1: 1-0</p>"),)
        board.as_it_was = {"court/1"}  # by value, the board is as the last round saw it
        board.set("court/1", "<p>court 1: 0-0</p>")
        await fanout._round()
        assert first.held == late.held == (digest("<p>court 1: 0-0</p>"),)

    asyncio.run(play())


def test_a_summary_page_is_written_at_most_once_a_second_with_the_newest_of_what_changed() -> None:
    """A cup's home page shows every court's card, and some court's state changes in nearly every round: its pages
    are written at once after a quiet spell, then at most every SUMMARY_S, what changed meanwhile in one write, each
    region as it is then. A court's page beside it is written every round."""
    board = Board()
    cards = [f"card/{n}" for n in range(1, fanout_module.MANY_REGIONS + 1)]
    board.html = {**board.html, "home": "<h1>On the courts</h1>", **{card: f"<p>{card}: 0-0</p>" for card in cards}}
    writes: list[bytes] = []

    async def home_phone(message: Any) -> None:
        writes.append(message["body"])

    async def play() -> None:
        fanout = Fanout(board, board.changes)
        home = fanout.open(["home", *cards], home_phone, board.view(), {})
        court = fanout.open(["court/1"], _taken, board.view(), {})
        _rounds_run_here(fanout)
        await home.catch_up()
        await court.catch_up()
        writes.clear()
        await fanout._round(now=100.0)  # the first look: nothing new
        board.set("card/1", "<p>card/1: 1-0</p>")
        await fanout._round(now=100.1)
        assert len(writes) == 1 and b"card/1: 1-0" in writes[0]  # after a quiet spell: at once
        board.set("card/2", "<p>card/2: 1-0</p>")
        board.set("court/1", "<p>court 1: 1-0</p>")
        await fanout._round(now=100.2)
        assert len(writes) == 1  # held back: the second in the same second
        assert court.held == (digest("<p>court 1: 1-0</p>"),)  # a court's page: every round
        board.set("card/2", "<p>card/2: 2-0</p>")
        board.set("card/3", "<p>card/3: 1-0</p>")
        await fanout._round(now=100.6)
        assert len(writes) == 1
        await fanout._round(now=100.1 + fanout_module.SUMMARY_S)  # due: no new change needed
        assert len(writes) == 2 and b"card/2: 1-0" not in writes[1]
        assert b"card/2: 2-0" in writes[1] and b"card/3: 1-0" in writes[1]  # both in one write, the newest
        assert home.held[1:4] == tuple(digest(f"<p>card/{n}: {g}-0</p>") for n, g in ((1, 1), (2, 2), (3, 1)))
        await fanout._round(now=200.0)
        assert len(writes) == 2  # nothing held back, nothing written

    asyncio.run(play())


def test_what_a_summary_page_was_held_back_is_written_when_due_with_no_later_change() -> None:
    """The last change of a busy spell, held back from a summary's pages, reaches them SUMMARY_S after their last
    write though nothing changes after it."""
    board = Board()
    cards = [f"card/{n}" for n in range(1, fanout_module.MANY_REGIONS + 1)]
    board.html = {**board.html, "home": "<h1>On the courts</h1>", **{card: f"<p>{card}: 0-0</p>" for card in cards}}
    with served(board) as (port, fanout):
        phone = Phone(port, "&r=".join(["home", *cards]))
        assert {phone.next_region()[1]["id"] for _ in range(len(cards) + 1)} == {"home", *cards}
        settled(fanout)
        board.set("card/1", "<p>card/1: 1-0</p>")
        assert phone.next_region()[1]["html"] == "<p>card/1: 1-0</p>"
        board.set("card/2", "<p>card/2: 1-0</p>")
        assert phone.next_region()[1]["html"] == "<p>card/2: 1-0</p>"
        phone.close()


def test_a_change_told_at_once_does_not_wait_for_the_live_states_pace(monkeypatch: Any) -> None:
    """Rounds come at most every ROUND_S (here an hour): a court's live state waits for the next, a result (told at
    once) does not, and its round takes along what waited."""
    monkeypatch.setattr(fanout_module, "ROUND_S", 3600.0)
    board = Board()
    with served(board) as (port, fanout):
        phone = Phone(port, "court/1&r=pool/A")
        assert {phone.next_region()[1]["id"] for _ in range(2)} == {"court/1", "pool/A"}
        settled(fanout)
        deadline = time.monotonic() + 10
        while fanout.looked is None:  # the loop's first round (at once, as it starts) has read its snapshot
            assert time.monotonic() < deadline, "no first round"
            time.sleep(0.01)
        board.set("court/1", "<p>court 1: 1-0</p>")
        board.set("pool/A", "<p>pool A: a result</p>", at_once=True)
        shown = {data["id"]: data["html"] for data in (phone.next_region()[1] for _ in range(2))}
        assert shown == {"court/1": "<p>court 1: 1-0</p>", "pool/A": "<p>pool A: a result</p>"}
        phone.close()

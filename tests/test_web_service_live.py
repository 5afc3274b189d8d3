"""The live pages over the real service, in a real Chromium (tables speaking the protocol over Mosquitto, a
SQLite store): a page recovers on its own after its connection drops and shows what happened meanwhile, and
a page opened late shows the same as one open all day. Both were proven on the in-memory backend only."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from rules import protocol as p
from rules.live import live_payload
from rules.match import ClockStarted, Goal, Match, PenaltyAwarded
from rules.ruleset import load_ruleset
from rules.standings import MatchResult
from server import queries
from server.desk_commands import CorrectResult
from server.service import Service
from server.web import create_app
from server.web.service_backend import ServiceBackend
from server.web.view import View
from tests.service_support import TableClient, played, running_service
from tests.web_support import LiveServer

RULES = load_ruleset("indoor-hockey")
TIMEOUT = 10_000  # ms a page may take to show what it should


@pytest.fixture
def served(mosquitto: Any, tmp_path: Path) -> Iterator[tuple[Service, ServiceBackend, LiveServer, str]]:
    broker = mosquitto()
    db = f"sqlite:///{tmp_path / 'courtside.db'}"
    with running_service(db, broker.url) as service:
        backend = ServiceBackend(service)
        server = LiveServer(create_app(backend, accounts_url=db, lang="en")).start()
        try:
            yield service, backend, server, broker.url
        finally:
            server.stop()


def _live(table: TableClient, match: str, state: Match, at: int) -> None:
    table.send_raw("live", p.encode(p.build(id=uuid.uuid4().hex, type="live", court=table.court, match=match,
                                            payload=live_payload(state.state_at(at), state.ruleset, match))))


def test_a_page_recovers_after_its_connection_drops_and_shows_what_came_meanwhile(
        served: Any, chromium: Any) -> None:
    service, _, server, broker = served
    page = chromium.new_page()
    page.goto(f"{server.url}/pool/A")
    expect(page.locator("#live-status")).to_have_text("Live", timeout=TIMEOUT)
    page.evaluate("window.__same_document = true")
    server.stop()  # the web server goes away (a proxy's restart, the venue's Wi-Fi): every stream drops
    expect(page.locator("#live-status")).to_have_text("Reconnecting…", timeout=TIMEOUT)
    table = TableClient(broker, service.plan.id, "hall-1")
    try:
        events, result = played(RULES, 4, 2)
        table.play("1", events, result)  # the service goes on taking results meanwhile
        table.wait_for("ack", lambda m: m.payload["of"] == "result")
    finally:
        table.close()
    server.start()
    expect(page.locator("table.matches")).to_contain_text("4–2", timeout=TIMEOUT)
    expect(page.locator("#live-status")).to_have_text("Live", timeout=TIMEOUT)
    expect(page.locator("table.standings tbody tr").first).to_contain_text("Rot-Weiss Köln")
    assert page.evaluate("window.__same_document") is True  # no reload: the stream came back by itself


PAGES = ["/", "/pool/A", "/court/Hall 1", "/court/Hall 1/overlay", "/court/Hall 2", "/team/Rot-Weiss Köln",
         "/bracket", "/ranking"]
# Each live region's HTML as the page holds it, with the clocks' text left out: a running clock is the page's
# own script counting between updates, a second apart on two pages.
REGIONS = """() => Array.from(document.querySelectorAll("[data-region]")).map(e => {
    const c = e.cloneNode(true); c.querySelectorAll("[data-clock]").forEach(x => { x.textContent = ""; });
    return [e.getAttribute("data-region"), c.innerHTML]; })"""


def _open(browser: Any, url: str) -> Page:
    """A page in a browser context of its own: one browser keeps at most six connections to a server over
    HTTP/1.1, and each open page holds one for its stream (as each parent's phone does)."""
    page: Page = browser.new_context().new_page()
    page.goto(url)
    expect(page.locator("#live-status")).to_have_text("Live", timeout=TIMEOUT)
    return page


def test_a_page_opened_late_shows_the_same_as_one_open_all_day(served: Any, chromium: Any) -> None:
    service, backend, server, broker = served
    early = {path: _open(chromium, server.url + path) for path in PAGES}
    hall_1 = TableClient(broker, service.plan.id, "hall-1")
    hall_2 = TableClient(broker, service.plan.id, "hall-2")
    try:
        # The day goes on: live states with a goal and a running green card, two results from the tables,
        # a correction at the desk, the next match on Hall 1 under way.
        first = Match(RULES, stage="round_robin", round="pool")
        first.apply(ClockStarted(at=0))
        first.apply(Goal(at=30_000, team="home"))
        first.apply(PenaltyAwarded(at=40_000, team="away", kind="green", player="8"))
        _live(hall_1, "1", first, 45_000)
        events, result = played(RULES, 2, 2)
        hall_2.play("2", events, result)
        events, result = played(RULES, 3, 1)
        hall_1.play("1", events, result)
        hall_1.wait_for("ack", lambda m: m.payload["of"] == "result")
        hall_2.wait_for("ack", lambda m: m.payload["of"] == "result")
        row = View(backend.data()).by_number[2]
        backend.submit(CorrectResult(who="anna", why="the umpires' card", number=2, result=MatchResult(
            pool="A", home=row.home, away=row.away, home_goals=2, away_goals=3), confirmed=True))
        third = Match(RULES, stage="round_robin", round="pool")
        third.apply(ClockStarted(at=0))
        third.apply(PenaltyAwarded(at=5_000, team="home", kind="green", player="4"))
        _live(hall_1, "3", third, 20_000)
        expect(early["/court/Hall 1"].locator(".board .home .name")).to_have_text("Club an der Alster",
                                                                                 timeout=TIMEOUT)
        expect(early["/pool/A"].locator("table.matches")).to_contain_text("2–3", timeout=TIMEOUT)
    finally:
        hall_1.close()
        hall_2.close()
    assert len(queries.results(service.store)) == 2
    for path in PAGES:
        opened = _open(chromium, server.url + path)
        assert _settled(opened, early[path]), path
        opened.context.close()
    # What the pages show is the day as it went: the correction, the live match with its card.
    assert "2–3" in early["/pool/A"].locator("table.matches").inner_text()
    assert "#4" in early["/court/Hall 1"].locator("ul.penalties").inner_text()
    for page in early.values():
        page.context.close()


def _settled(late: Page, early: Page, timeout: float = 10.0) -> list[Any]:
    """The late page's regions, once the page open all day shows the same (its updates may still be on the
    way); fails with both when they do not agree within ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        now, before = late.evaluate(REGIONS), early.evaluate(REGIONS)
        if now == before:
            return list(now)
        if time.monotonic() > deadline:
            pytest.fail(f"{late.url}: the page opened late shows\n{now}\nthe page open all day shows\n{before}")
        time.sleep(0.1)

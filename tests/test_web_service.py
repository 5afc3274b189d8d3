"""The pages over the real service: a result a table publishes over MQTT (real Mosquitto) appears on
the open pool page without a reload; the organiser's correction through the service's loop follows."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from rules import protocol as p
from rules.live import live_payload
from rules.match import ClockStarted, Goal, Match, PenaltyAwarded
from rules.ruleset import load_ruleset
from server import queries
from server.rulings import Rulings
from server.web import create_app
from server.web.service_backend import ServiceBackend
from tests.service_support import TableClient, played, running_service
from tests.web_support import PASSWORD, LiveServer, browser_refusals, desk_page

RULES = load_ruleset("indoor-hockey")
TIMEOUT = 10_000


@pytest.fixture
def served(mosquitto: Any, tmp_path: Path) -> Iterator[tuple[Any, LiveServer, TableClient]]:
    broker = mosquitto()
    db = f"sqlite:///{tmp_path / 'courtside.db'}"
    with running_service(db, broker.url) as service:
        app = create_app(ServiceBackend(service), accounts_url=db)  # secure cookies, as served
        app.state.site.accounts.add("anna", PASSWORD)
        server = LiveServer(app).start()
        table = TableClient(broker.url, service.plan.id, "hall-1")
        try:
            yield service, server, table
        finally:
            table.close()
            server.stop()


def test_a_result_over_mqtt_reaches_the_open_page_and_the_desk_corrects_it(served: Any, chromium: Any) -> None:
    service, server, table = served
    first = queries.fixture(service.store, "1")
    assert first is not None and first.court == "hall-1"
    page = chromium.new_page()
    page.goto(f"{server.url}/pool/{first.stage}")
    expect(page.locator("#live-status")).to_have_text("Live", timeout=TIMEOUT)
    page.evaluate("window.__same_document = true")

    events, result = played(RULES, 3, 1)
    table.play("1", events, result)
    expect(page.locator("table.matches")).to_contain_text("3–1", timeout=TIMEOUT)
    expect(page.locator("table.standings tbody tr").first).to_contain_text(first.home_label)
    assert page.evaluate("window.__same_document") is True

    desk = desk_page(chromium, server, "/desk/match/1")
    desk.fill("#hg", "1")
    desk.fill("#ag", "2")
    desk.fill("#why-r", "umpires' card: 1-2")
    desk.click("text=Save the result")
    expect(desk.locator("section.confirm")).to_contain_text("it replaces match 1's result 3–1 from its table",
                                                            timeout=TIMEOUT)  # asked first (issue 31)
    desk.click("text=Confirm and store it")
    expect(desk.locator("p.ok")).to_contain_text("umpires' card", timeout=TIMEOUT)
    expect(page.locator("table.matches")).to_contain_text("1–2", timeout=TIMEOUT)
    assert page.evaluate("window.__same_document") is True
    change = queries.change_log(service.store)[0]
    assert (change.who, change.why, change.match_id) == ("anna", "umpires' card: 1-2", "1")
    # The court gets the new table too: the service publishes it like a result from a table.
    table.wait_for("table", lambda m: any(r["goals_for"] == 2 for r in m.payload["rows"]))


def _with_red_card(ruleset: Any) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """A 1-0 match in which the away team's number 5 is shown a red card (EHF: reported to the organisers)."""
    return played(ruleset, 1, 0, cards=[("away", "red", "5")])


def test_a_red_card_goes_to_the_desks_register(served: Any, chromium: Any) -> None:
    service, server, table = served
    events, result = _with_red_card(RULES)
    table.play("1", events, result)
    table.wait_for("ack", lambda m: m.payload["of"] == "result")
    first = queries.fixture(service.store, "1")
    assert first is not None
    desk = desk_page(chromium, server)
    register = desk.locator("h2:has-text('Disciplinary register') + .scroll table")
    expect(register).to_contain_text(f"5 ({first.away_label})", timeout=TIMEOUT)
    expect(register).to_contain_text("Red card, #1")
    expect(register.locator("button", has_text="Rule")).to_be_visible()
    form = register.locator("form")
    form.locator("input[name=matches]").fill("1")
    form.locator("input[name=why]").fill("disciplinary officer, after hearing both teams")
    form.locator("button").click()
    expect(register).to_contain_text("misses 1 match(es)", timeout=TIMEOUT)
    later = [f.number for f in queries.team_schedule(service.store, first.away_label) if f.number != 1]
    expect(register).to_contain_text(f"#{later[0]}")
    assert "disciplinary officer" in desk.locator("table.audit").inner_text()


def test_the_court_mirror_and_overlay_follow_the_tables_live_state(served: Any, chromium: Any) -> None:
    _, server, table = served
    match = Match(RULES, stage="round_robin", round="pool")
    match.apply(ClockStarted(at=0))
    match.apply(Goal(at=60_000, team="away"))
    table.send_raw("live", p.encode(p.build(id=uuid.uuid4().hex, type="live", court="hall-1", match="1",
                                            payload=live_payload(match.state_at(90_000), RULES, "1"))))
    mirror = chromium.new_page()
    mirror.goto(f"{server.url}/court/Hall 1")
    overlay = chromium.new_page()
    overlay.goto(f"{server.url}/court/Hall 1/overlay")
    expect(mirror.locator(".board .away .goals")).to_have_text("1", timeout=TIMEOUT)
    expect(overlay.locator(".bug .g").nth(1)).to_have_text("1", timeout=TIMEOUT)
    clock = mirror.locator(".board .clock")
    first = clock.inner_text()
    expect(clock).not_to_have_text(first, timeout=TIMEOUT)  # runs between the table's messages
    match.apply(Goal(at=95_000, team="home"))
    match.apply(PenaltyAwarded(at=96_000, team="away", kind="yellow", player="7"))
    table.send_raw("live", p.encode(p.build(id=uuid.uuid4().hex, type="live", court="hall-1", match="1",
                                            payload=live_payload(match.state_at(97_000), RULES, "1"))))
    expect(mirror.locator(".board .home .goals")).to_have_text("1", timeout=TIMEOUT)
    expect(overlay.locator(".bug .g").first).to_have_text("1", timeout=TIMEOUT)
    # The penalty too, its time counting down between the table's messages on both.
    for penalty in (mirror.locator("ul.penalties li .left"), overlay.locator(".pens .pen b")):
        expect(penalty).to_have_text(re.compile(r"^[23]:\d\d$"), timeout=TIMEOUT)
        shown = penalty.inner_text()
        expect(penalty).not_to_have_text(shown, timeout=TIMEOUT)
    expect(mirror.locator("ul.penalties li")).to_contain_text("#7")
    expect(overlay.locator(".pens .pen")).to_contain_text("#7")
    # What the table sent, worded: the period and the penalty's kind, on the page and in the overlay.
    expect(mirror.locator(".label .period")).to_have_text("half 1")
    expect(overlay.locator(".bug .p")).to_have_text("half 1")
    expect(mirror.locator("ul.penalties li .label")).to_have_text("Yellow card")  # said once, not "Y" and again
    card = mirror.locator("ul.penalties li").text_content() or ""
    assert card.count("Yellow card") == 1 and not re.search(r"\bY\b", card), card
    expect(overlay.locator(".pens .pen")).to_contain_text("Y")
    # The clock and the penalty's time are in the HTML itself, before any script runs.
    html = httpx.get(f"{server.url}/court/Hall%201", timeout=10).text
    assert re.search(r'class="clock"[^>]*>\d+:\d\d<', html), html
    assert re.search(r'class="left"[^>]*>[23]:\d\d<', html), html
    # A browser source: the page draws nothing but the bug, the video shows through the rest.
    assert overlay.evaluate("[getComputedStyle(document.documentElement).backgroundColor, "
                            "getComputedStyle(document.body).backgroundColor]") == ["rgba(0, 0, 0, 0)"] * 2


def test_in_the_browser_every_desk_route_and_api_write_refuses_a_visitor_and_a_missing_token(
        served: Any, chromium: Any) -> None:
    service, server, _ = served
    schedule = queries.schedule(service.store)
    browser_refusals(chromium, server)
    assert queries.change_log(service.store) == [] and queries.results(service.store) == []
    assert queries.schedule(service.store) == schedule and Rulings(service.store.engine).all() == []

"""The pages in a real headless Chromium: live updates without a reload, recovery after a dropped
connection, the organiser's correction followed by an open public page."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.web_day import served_sample
from tests.web_support import browser_refusals, desk_page


@pytest.fixture
def site() -> Iterator[tuple[Any, Any]]:
    with served_sample() as served:
        yield served

TIMEOUT = 10_000  # ms Playwright waits for a page to show what it should; the assertions are not timed


def _match(day: Any, number: int) -> Any:
    return day.view().by_number[number]


def _row(page: Page, team: str) -> Any:
    return page.locator("table.standings tbody tr", has=page.locator(f"th:has-text('{team}')"))


def test_a_result_appears_on_the_open_pool_page_without_a_reload(site: Any, chromium: Any) -> None:
    day, server = site
    m = _match(day, 14)
    page = chromium.new_page()
    page.goto(f"{server.url}/pool/{m.stage}")
    expect(page.locator("#live-status")).to_have_text("Live", timeout=TIMEOUT)
    page.evaluate("window.__same_document = true")
    day.play(14, 5, 0)  # its table sends the match, as the engine played it
    expect(page.locator("table.matches")).to_contain_text("5–0", timeout=TIMEOUT)
    expect(_row(page, m.home).locator("td.pts")).not_to_have_text("", timeout=TIMEOUT)
    assert page.evaluate("window.__same_document") is True  # no reload happened
    page.close()


def test_the_page_recovers_after_the_connection_drops(site: Any, chromium: Any) -> None:
    day, server = site
    m = _match(day, 14)
    page = chromium.new_page()
    page.goto(f"{server.url}/pool/{m.stage}")
    expect(page.locator("#live-status")).to_have_text("Live", timeout=TIMEOUT)
    page.evaluate("window.__same_document = true")
    server.stop()
    expect(page.locator("#live-status")).to_have_text("Reconnecting…", timeout=TIMEOUT)
    day.play(14, 0, 3)  # the service stores it while the pages are down
    server.start()
    expect(page.locator("table.matches")).to_contain_text("0–3", timeout=TIMEOUT)
    expect(page.locator("#live-status")).to_have_text("Live", timeout=TIMEOUT)
    assert page.evaluate("window.__same_document") is True
    page.close()


def test_the_organiser_corrects_a_result_and_the_open_public_page_follows(site: Any, chromium: Any) -> None:
    day, server = site
    backend = day.backend
    m = _match(day, 3)
    public = chromium.new_page()
    public.goto(f"{server.url}/pool/{m.stage}")
    expect(public.locator("#live-status")).to_have_text("Live", timeout=TIMEOUT)
    public.evaluate("window.__same_document = true")
    expect(public.locator("table.matches")).to_contain_text("3–1")

    visitor = chromium.new_context().new_page()
    visitor.goto(f"{server.url}/desk/match/3")  # a visitor is sent to the login, with the way back
    expect(visitor).to_have_url(f"{server.url}/desk/login?next=/desk/match/3")
    desk = desk_page(chromium, server, "/desk/match/3")
    desk.fill("#hg", "1")
    desk.fill("#ag", "4")
    desk.fill("#why-r", "referee's report: the table entered the score the wrong way round")
    desk.click("text=Save the result")
    # The table's 3-1 is stored: the desk says what the new result replaces and asks first (issue 31).
    expect(desk.locator("section.confirm")).to_contain_text("it replaces match 3's result 3–1 from its table",
                                                            timeout=TIMEOUT)
    desk.click("text=Confirm and store it")
    expect(desk.locator("p.ok")).to_contain_text("referee's report", timeout=TIMEOUT)

    expect(public.locator("table.matches")).to_contain_text("1–4", timeout=TIMEOUT)
    assert public.evaluate("window.__same_document") is True
    entry = backend.data().audit[-1]
    assert (entry.who, entry.why) == ("anna", "referee's report: the table entered the score the wrong way round")
    assert "1-4 (was 3-1)" in entry.what
    public.close()


def test_a_wrong_password_is_refused_and_the_desk_stays_closed(site: Any, chromium: Any) -> None:
    _, server = site
    page = chromium.new_context().new_page()
    page.goto(f"{server.url}/desk/login")
    page.fill("#name", "anna")
    page.fill("#password", "not the password")
    page.click("button[type=submit]")
    expect(page.locator("p.alert")).to_have_text("Wrong name or password.")
    page.goto(f"{server.url}/desk")
    expect(page).to_have_url(f"{server.url}/desk/login?next=/desk")


def test_the_court_mirror_runs_its_clock_between_updates(site: Any, chromium: Any) -> None:
    day, server = site
    page = chromium.new_page()
    court = day.view().by_number[13].court
    page.goto(f"{server.url}/court/{court}")
    clock = page.locator(".board .clock")
    first = clock.inner_text()
    expect(clock).not_to_have_text(first, timeout=TIMEOUT)  # the running clock moves with no message sent
    expect(page.locator(".board .home .goals")).to_have_text("2")
    page.close()


def test_in_the_browser_every_desk_route_and_api_write_refuses_a_visitor_and_a_form_without_its_token(
        site: Any, chromium: Any) -> None:
    day, server = site
    backend = day.backend
    before = backend.data().version
    browser_refusals(chromium, server)
    assert backend.data().version == before  # nothing was changed by any of them
    assert backend.data().audit == ()

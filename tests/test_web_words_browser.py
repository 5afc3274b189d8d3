"""The pages in the tournament's language in a real browser: the live stream's status words too (live.js)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.web_day import served_sample

TIMEOUT = 10_000


def test_a_swedish_pool_page_says_its_live_status_in_swedish(chromium: Any) -> None:
    with served_sample(lang="sv") as (_day, server):
        page = chromium.new_page()
        page.goto(f"{server.url}/pool/A")
        expect(page.locator("#live-status")).to_have_text("Direkt", timeout=TIMEOUT)
        expect(page.locator("h1")).to_have_text("Grupp A")
        assert page.locator("table.standings thead").inner_text().split() == \
            ["#", "Lag", "S", "V", "O", "F", "GM", "IM", "MS", "P"]
        page.close()


def test_slovak_and_swedish_words_fit_a_phone(chromium: Any) -> None:
    """The longer Slovak and Swedish words widen nothing past a 390 px phone (wide tables scroll in their box)."""
    from tests.web_support import PASSWORD

    for lang in ("sk", "sv"):
        with served_sample(lang=lang) as (day, server):
            context = chromium.new_context(viewport={"width": 390, "height": 844})
            page = context.new_page()
            page.goto(f"{server.url}/desk/login")
            page.fill("#name", "anna")
            page.fill("#password", PASSWORD)
            page.click("button[type=submit]")
            page.wait_for_url(f"{server.url}/desk")
            live = day.view().by_number[13]
            for path in ("/", "/pool/A", "/bracket", "/ranking", f"/team/{live.home}", f"/court/{live.court}",
                         "/desk", "/desk/match/2"):
                page.goto(server.url + path)
                width = page.evaluate("document.documentElement.scrollWidth")
                assert width <= 390, (lang, path, width)
            context.close()

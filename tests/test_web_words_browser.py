"""The pages in the tournament's language in a real browser: the live stream's status words too (live.js)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.web_support import served_sample

TIMEOUT = 10_000


def test_a_swedish_pool_page_says_its_live_status_in_swedish(chromium: Any) -> None:
    with served_sample(lang="sv") as (_backend, server, _clock):
        page = chromium.new_page()
        page.goto(f"{server.url}/pool/A")
        expect(page.locator("#live-status")).to_have_text("Direkt", timeout=TIMEOUT)
        expect(page.locator("h1")).to_have_text("Grupp A")
        assert page.locator("table.standings thead").inner_text().split() == \
            ["#", "Lag", "S", "V", "O", "F", "GM", "IM", "MS", "P"]
        page.close()

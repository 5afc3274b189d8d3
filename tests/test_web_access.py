"""Phone first, readable in sunlight, accessible, light (issue 12), in a real Chromium at 390 px, over the
real service (a SQLite store, Mosquitto, tables) and over the sample day (a conflict, a tie, an offline court):
every text has the contrast WCAG AAA asks (7:1, large text 4.5:1), nothing is wider than the phone, every
table has a name and header cells with their scope, the pages carry one small script of their own and a few
kilobytes in all, and the keyboard reaches every control with a visible focus, down to a desk form."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from playwright.sync_api import Page, expect

from rules import protocol as p
from rules.live import live_payload
from rules.match import ClockStarted, Match, PenaltyAwarded
from rules.ruleset import load_ruleset
from server.web import create_app
from server.web.service_backend import ServiceBackend
from tests.service_support import TableClient, played, running_service
from tests.web_day import served_sample
from tests.web_support import PASSWORD, LiveServer

PHONE = {"width": 390, "height": 844}
TIMEOUT = 10_000
SCRIPT_BYTES = 6_000  # "a few kilobytes of script": live.js, no framework
PAGE_BYTES = 40_000  # the HTML, the style sheet and the script of one page


@dataclass
class Site:
    url: str
    pages: list[str]  # public pages, then the desk's (after logging in)
    desk: list[str]
    match: int  # a match whose result the desk may enter


@pytest.fixture(params=["service", "sample"])
def site(request: pytest.FixtureRequest, mosquitto: Any, tmp_path: Path) -> Iterator[Site]:
    if request.param == "sample":
        with served_sample() as (day, server):
            playing = day.view().by_number[13]
            yield Site(server.url, ["/", "/schedule", "/pool/C", "/pool/C/print", "/bracket", "/ranking", "/teams",
                                    f"/team/{quote(playing.home)}", f"/court/{quote(playing.court)}",
                                    f"/court/{quote(playing.court)}/overlay", "/desk/login"],
                       ["/desk", "/desk/match/2"], 14)
        return
    broker = mosquitto()
    db = f"sqlite:///{tmp_path / 'courtside.db'}"
    with running_service(db, broker.url) as service:
        app = create_app(ServiceBackend(service), accounts_url=db, lang="en")
        app.state.site.accounts.add("anna", PASSWORD)
        server = LiveServer(app).start()
        hall_1 = TableClient(broker.url, service.plan.id, "hall-1")
        hall_2 = TableClient(broker.url, service.plan.id, "hall-2")
        try:
            rules = load_ruleset("indoor-hockey")
            # Match 1 with a red card for the organiser's ruling, match 2 played, match 3 live with a card
            # running, Hall 2's table gone offline.
            hall_1.play("1", *played(rules, 2, 1, cards=[("away", "red", "5")]))
            hall_2.play("2", *played(rules, 0, 0))
            live = Match(rules, stage="round_robin", round="pool")
            live.apply(ClockStarted(at=0))
            live.apply(PenaltyAwarded(at=10_000, team="home", kind="green", player="4"))
            hall_1.send_raw("live", p.encode(p.build(id=uuid.uuid4().hex, type="live", court="hall-1", match="3",
                                                     payload=json.loads(json.dumps(
                                                         live_payload(live.state_at(20_000), rules, "3"))))))
            hall_2.send_raw("presence", p.encode(p.presence_message(id=uuid.uuid4().hex, court="hall-2",
                                                                    online=False)))
            for table in (hall_1, hall_2):
                table.wait_for("ack", lambda m: m.payload["of"] == "result")
            yield Site(server.url, ["/", "/schedule", "/pool/A", "/pool/A/print", "/bracket", "/ranking", "/teams",
                                    f"/team/{quote('Rot-Weiss Köln')}", f"/court/{quote('Hall 1')}",
                                    f"/court/{quote('Hall 1')}/overlay", "/desk/login"],
                       ["/desk", "/desk/match/1"], 4)
        finally:
            hall_1.close()
            hall_2.close()
            server.stop()


def _log_in(page: Page, site: Site) -> None:
    page.goto(f"{site.url}/desk/login")
    page.fill("#name", "anna")
    page.fill("#password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{site.url}/desk")


def _every_page(page: Page, site: Site) -> Iterator[str]:
    """Visit each page (the desk's once logged in) and hand back its path, live parts loaded."""
    for path in site.pages:
        page.goto(site.url + path)
        page.wait_for_timeout(300)
        yield path
    _log_in(page, site)
    for path in site.desk:
        page.goto(site.url + path)
        yield path


# Each visible text's contrast with what is drawn behind it (the nearest ancestor with a background).
CONTRAST = """() => {
  const rgb = c => { const m = c.match(/rgba?\\(([^)]+)\\)/); const v = m ? m[1].split(",").map(Number) : [0, 0, 0, 0];
                     return {r: v[0], g: v[1], b: v[2], a: v.length > 3 ? v[3] : 1}; };
  const lin = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const lum = c => 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
  const behind = el => { for (let e = el; e; e = e.parentElement) { const c = rgb(getComputedStyle(e).backgroundColor);
                           if (c.a > 0) return c; } return {r: 255, g: 255, b: 255, a: 1}; };
  const out = [], walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const text = walk.currentNode.textContent.trim(), el = walk.currentNode.parentElement, s = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    if (!text || s.visibility === "hidden" || box.width === 0 || box.right < 0) continue;
    const a = lum(rgb(s.color)), b = lum(behind(el)), size = parseFloat(s.fontSize);
    const large = size >= 24 || (Number(s.fontWeight) >= 700 && size >= 18.66);
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    out.push({text: text.slice(0, 40), ratio: ratio, need: large ? 4.5 : 7});
  }
  return out; }"""


def test_every_text_is_readable_in_sunlight_and_nothing_is_wider_than_a_phone(site: Site, chromium: Any) -> None:
    page = chromium.new_context(viewport=PHONE).new_page()
    checked = 0
    for path in _every_page(page, site):
        texts = page.evaluate(CONTRAST)
        faint = [(t["text"], round(t["ratio"], 2)) for t in texts if t["ratio"] < t["need"]]
        assert faint == [], path
        checked += len(texts)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], path
    assert checked > 200
    page.context.close()


def test_every_table_is_named_and_its_header_cells_say_what_they_head(site: Site, chromium: Any) -> None:
    page = chromium.new_context(viewport=PHONE).new_page()
    tables = 0
    for path in _every_page(page, site):
        found = page.evaluate("""() => Array.from(document.querySelectorAll("table")).map(t => ({
            name: (t.caption && t.caption.textContent.trim()) ||
                  (document.getElementById(t.getAttribute("aria-labelledby") || "") || {}).textContent || "",
            head: Array.from(t.querySelectorAll("thead th")).map(th => th.getAttribute("scope")),
            rows: Array.from(t.querySelectorAll("tbody th")).map(th => th.getAttribute("scope"))}))""")
        for table in found:
            assert table["name"].strip(), (path, table)
            assert table["head"] and set(table["head"]) == {"col"}, (path, table)
            assert set(table["rows"]) <= {"row", "colgroup"}, (path, table)
        tables += len(found)
    assert tables >= 8
    page.context.close()


# What the page loaded, as the browser counts it: the document, then each file with what asked for it.
LOADED = """() => [["document", performance.getEntriesByType("navigation")[0].encodedBodySize, location.href],
    ...performance.getEntriesByType("resource").map(e => [e.initiatorType, e.encodedBodySize, e.name])]"""


def test_each_page_is_a_few_kilobytes_with_one_small_script_of_its_own(site: Site, chromium: Any) -> None:
    for path in site.pages:
        context = chromium.new_context(viewport=PHONE)  # nothing cached: a phone's first visit
        page = context.new_page()
        page.goto(site.url + path)
        page.wait_for_load_state("load")
        scripts = page.evaluate("Array.from(document.scripts).map(s => s.src)")
        expected = [] if path.endswith("/print") else [f"{site.url}/static/live.js"]
        assert scripts == expected, path  # no framework, no inline script, nothing from another origin
        loaded = [(kind, size, url) for kind, size, url in page.evaluate(LOADED) if "/live?" not in url]
        assert all(url.startswith(site.url) for _, _, url in loaded), (path, loaded)
        assert sum(size for kind, size, _ in loaded if kind == "script") <= SCRIPT_BYTES, path
        weight = sum(size for _, size, _ in loaded)
        assert 0 < weight <= PAGE_BYTES, (path, loaded)
        context.close()


def test_the_keyboard_reaches_every_control_with_a_visible_focus_and_works_the_desk(
        site: Site, chromium: Any) -> None:
    page = chromium.new_context(viewport=PHONE).new_page()
    page.goto(site.url + site.pages[2])  # a pool page
    page.keyboard.press("Tab")
    skip = page.locator("a.skip")
    expect(skip).to_be_focused()
    box = skip.bounding_box()
    assert box is not None and box["x"] >= 0 and box["y"] >= 0  # shown on screen once focused
    page.keyboard.press("Enter")
    assert page.evaluate("location.hash") == "#main"
    # Number the visible controls in document order; Tab must go through them all in that order, each
    # drawn with its focus ring, the first one after the skip link's jump being the first in <main>.
    count, first_in_main = page.evaluate("""() => {
        const all = Array.from(document.querySelectorAll("a[href], button, input, select"))
            .filter(e => e.getBoundingClientRect().width > 0);
        all.forEach((e, i) => e.setAttribute("data-kb", i));
        return [all.length, all.findIndex(e => e.closest("main"))]; }""")
    order: list[int] = []
    for _ in range(count + 2):
        page.keyboard.press("Tab")
        index, style, width = page.evaluate("""() => { const e = document.activeElement, s = getComputedStyle(e);
            return [Number(e.getAttribute("data-kb") ?? -1), s.outlineStyle, parseFloat(s.outlineWidth)]; }""")
        if index < 0:  # the page's end: the browser's own controls, then the page again
            continue
        assert style != "none" and width >= 2, (index, style, width)
        order.append(index)
    assert order[0] == first_in_main > 0
    wrapped = order.index(0)
    assert order[:wrapped] == list(range(first_in_main, count)) and order[wrapped:] == list(range(len(order) - wrapped))
    assert set(order) == set(range(count))
    # The organiser logs in and enters a result with the keyboard alone.
    page.goto(f"{site.url}/desk/login?next=/desk/match/{site.match}")
    expect(page.locator("#name")).to_be_focused()  # the form takes the focus itself
    page.keyboard.type("anna")
    page.keyboard.press("Tab")
    page.keyboard.type(PASSWORD)
    page.keyboard.press("Enter")
    page.wait_for_url(f"{site.url}/desk/match/{site.match}")
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "hg":
            break
    expect(page.locator("#hg")).to_be_focused()
    page.keyboard.type("2")
    page.keyboard.press("Tab")
    page.keyboard.type("1")
    for field in ("oc", "hs", "as", "why-r"):
        page.keyboard.press("Tab")
        expect(page.locator(f"#{field}")).to_be_focused()
    page.keyboard.type("typed at the desk")
    page.keyboard.press("Enter")
    expect(page.locator("p.ok")).to_contain_text("typed at the desk", timeout=TIMEOUT)
    page.context.close()

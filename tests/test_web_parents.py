"""The parents' pages (issue 23) in a real Chromium at 390 px and 1280 px over the real service: Mosquitto, the
service on SQLite, each court's table sending its matches as the engine plays them. The schedule by day, my team
remembered and marked, the team search, a team's place in its pool, the bracket drawn as a bracket, the champion
on the home page after the final, the icons, the desk on a phone; each with the checks the site already meets
(tests/test_web_access.py: contrast, nothing wider than the screen, named tables, the keyboard)."""

from __future__ import annotations

import json
import struct
import uuid
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from playwright.sync_api import Page, expect

from rules import protocol as p
from rules.live import live_payload
from rules.match import ClockStarted, Goal, Match
from server import queries
from tests.test_web_access import CONTRAST
from tests.web_day import HOCKEY_RULES as RULES
from tests.web_day import Day, served_day, wait_until
from tests.web_support import desk_page

WIDTHS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900}}
TIMEOUT = 10_000
TEAM = "Rot-Weiss Köln"


@pytest.fixture(scope="module")
def day(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Day]:
    """Sunday morning: the pools and semi-finals played, the final and the 3/4 match filled, pool C's last
    round to play."""
    with served_day(tmp_path_factory.mktemp("parents")) as served:
        served.play(until=lambda m: m.stage == "C" and m.start.day == 18)
        yield served


def _page(chromium: Any, width: str, **options: Any) -> Page:
    page: Page = chromium.new_context(viewport=WIDTHS[width], **options).new_page()
    return page


def _settled(page: Page) -> None:
    """Wait until the live stream has drawn the page's live parts again (they are replaced whole on connecting)."""
    if page.locator("[data-region]").count():
        expect(page.locator("#live-status")).to_have_text("Live", timeout=TIMEOUT)
        page.wait_for_timeout(300)


def _meets_the_site_checks(page: Page, width: str) -> None:
    """What every page meets: readable contrast (WCAG AAA), nothing wider than the screen, named tables."""
    faint = [(t["text"], round(t["ratio"], 2)) for t in page.evaluate(CONTRAST) if t["ratio"] < t["need"]]
    assert faint == [], page.url
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTHS[width]["width"], page.url
    tables = page.evaluate("""() => Array.from(document.querySelectorAll("table")).map(t => ({
        name: (t.caption && t.caption.textContent.trim()) ||
              (document.getElementById(t.getAttribute("aria-labelledby") || "") || {}).textContent || "",
        head: Array.from(t.querySelectorAll("thead th")).map(th => th.getAttribute("scope"))}))""")
    assert all(t["name"].strip() and set(t["head"]) == {"col"} for t in tables), (page.url, tables)


def _keyboard_reaches_every_control(page: Page) -> None:
    """Tab goes through every visible control in document order, each drawn with its focus ring (from the top
    of the page, loaded again)."""
    page.reload()
    _settled(page)  # numbered after the stream has drawn the live parts again
    count = page.evaluate("""() => { const all = Array.from(document.querySelectorAll(
            "a[href], button, input, select, [tabindex='0']")).filter(e => e.getBoundingClientRect().width > 0);
        all.forEach((e, i) => e.setAttribute("data-kb", i)); return all.length; }""")
    reached = []
    for _ in range(count + 1):
        page.keyboard.press("Tab")
        index, style, width = page.evaluate("""() => { const e = document.activeElement, s = getComputedStyle(e);
            return [Number(e.getAttribute("data-kb") ?? -1), s.outlineStyle, parseFloat(s.outlineWidth)]; }""")
        if index >= 0:
            assert style != "none" and width >= 2, (page.url, index)
            reached.append(index)
    assert reached[:count] == list(range(count)), page.url


@pytest.mark.parametrize("width", WIDTHS)
def test_the_schedule_lists_every_match_under_its_day(day: Day, chromium: Any, width: str) -> None:
    view = day.view()
    page = _page(chromium, width)
    page.goto(day.server.url + "/")
    page.click("nav >> text=Schedule")  # reachable from the site's navigation
    expect(page).to_have_url(day.server.url + "/schedule")
    days = sorted({m.start.date() for m in view.matches})
    headings = page.locator("h2.dayhead")
    expect(headings).to_have_count(len(days))
    assert headings.all_inner_texts() == [d.strftime("%a %d %b") for d in days]
    for n, date in enumerate(days, 1):
        ms = [m for m in view.matches if m.start.date() == date]
        rows = page.locator(f"table[aria-labelledby='day-{n}'] tbody tr")
        expect(rows).to_have_count(len(ms))
        for row, m in zip(rows.all(), ms, strict=True):
            text = row.inner_text()
            assert f"{m.start:%H:%M}" in text and m.court in text and m.home in text and m.away in text
            assert row.locator("td.num").inner_text().strip() == (m.score if m.recorded else "LIVE" if m.live else "")
            assert (f"Pool {m.stage}" if m.is_pool else m.stage) in text
    final = page.locator("tr", has=page.locator("text=Final · F"))
    expect(final.locator("a[href^='/team/']")).to_have_count(2)  # both slots filled with the semi-finals' winners
    _meets_the_site_checks(page, width)
    _keyboard_reaches_every_control(page)
    page.context.close()


def test_my_team_is_kept_on_the_phone_and_marked_on_every_page(day: Day, chromium: Any) -> None:
    page = _page(chromium, "phone")
    page.goto(f"{day.server.url}/team/{quote(TEAM)}")
    follow = page.locator("#follow")
    expect(follow).to_have_attribute("aria-pressed", "false")
    follow.focus()
    page.keyboard.press("Enter")
    expect(follow).to_have_attribute("aria-pressed", "true")
    expect(follow).to_have_text("My team ✓")
    _meets_the_site_checks(page, "phone")
    mine = [m for m in day.view().matches if TEAM in (m.home, m.away)]
    fresh = page.context.new_page()  # another visit: the choice comes from the phone's storage
    fresh.goto(day.server.url + "/schedule")
    expect(fresh.locator("#my-team")).to_be_visible()
    expect(fresh.locator("#my-team")).to_have_text(f"★ {TEAM}")
    expect(fresh.locator("tbody tr:has(a.mine)")).to_have_count(len(mine))
    _meets_the_site_checks(fresh, "phone")
    # A result arrives while the page is open: the region is drawn again and the marks with it.
    *_, played = day.play(until=lambda m: m.stage != "C")
    score = wait_until(lambda: day.view().by_number[played.number].score)
    row = fresh.locator("table.schedule tbody tr", has=fresh.locator(f"text={played.home}")).last
    expect(row.locator("td.num")).to_have_text(score, timeout=TIMEOUT)
    expect(fresh.locator("tbody tr:has(a.mine)")).to_have_count(len(mine))
    fresh.goto(day.server.url + "/bracket")
    expect(fresh.locator("#tie-F a.mine")).to_have_count(1)
    expect(fresh.locator("#tie-SF1 a.mine")).to_have_count(0)
    fresh.goto(day.server.url + "/")
    fresh.goto(f"{day.server.url}/team/{quote(TEAM)}")
    fresh.locator("#follow").click()  # no longer followed: no marks anywhere
    fresh.goto(day.server.url + "/schedule")
    expect(fresh.locator("#my-team")).to_be_hidden()
    expect(fresh.locator("a.mine")).to_have_count(0)
    page.context.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_a_team_is_found_by_typing_part_of_its_name(day: Day, chromium: Any, width: str) -> None:
    teams = day.view().teams
    page = _page(chromium, width)
    page.goto(day.server.url + "/teams")
    page.locator("#q").focus()
    page.keyboard.type("alst")
    visible = page.locator("#teamlist li:visible")
    expect(visible).to_have_count(1)
    expect(visible).to_have_text("Club an der Alster")
    page.keyboard.type("zz")
    expect(visible).to_have_count(0)
    expect(page.locator("#found")).to_have_text("No team matches.")
    page.locator("#q").fill("")
    page.locator("#q").dispatch_event("input")
    expect(visible).to_have_count(len(teams))
    _meets_the_site_checks(page, width)
    _keyboard_reaches_every_control(page)
    page.context.close()
    plain = _page(chromium, width, java_script_enabled=False)  # the form works without the script: the server
    plain.goto(day.server.url + "/teams")
    plain.fill("#q", "KOLN")  # no accent, any case
    plain.keyboard.press("Enter")
    expect(plain).to_have_url(day.server.url + "/teams?q=KOLN")
    expect(plain.locator("#teamlist li:visible")).to_have_text([TEAM])
    plain.context.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_a_team_page_shows_its_place_in_each_of_its_pools(day: Day, chromium: Any, width: str) -> None:
    tables = queries.pool_tables(day.service.store)
    team = next(r.team for r in tables["C"].table.rows if r.rank == 2)  # type: ignore[union-attr]
    page = _page(chromium, width)
    page.goto(f"{day.server.url}/team/{quote(team)}")
    sections = page.locator("section.pool-place")
    expect(sections).to_have_count(2)  # its first-round pool, then pool C
    for section, pool in zip(sections.all(), [q for q in ("A", "B", "C") if team in
                                              [r.team for r in tables[q].table.rows]], strict=True):  # type: ignore[union-attr]
        place = next(r.rank for r in tables[pool].table.rows if r.team == team)  # type: ignore[union-attr]
        expect(section.locator("h2")).to_have_text(f"Pool {pool} · Place {place}/4")
        marked = section.locator("tr.this-team")
        expect(marked).to_have_count(1)
        expect(marked.locator("th")).to_contain_text(team)
        expect(marked.locator("td.rank")).to_have_text(str(place))
    _meets_the_site_checks(page, width)
    _keyboard_reaches_every_control(page)
    page.context.close()


def _box(page: Page, selector: str) -> Any:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return box


@pytest.mark.parametrize("width", WIDTHS)
def test_the_bracket_joins_each_match_to_the_one_its_winner_plays(day: Day, chromium: Any, width: str) -> None:
    page = _page(chromium, width)
    page.goto(day.server.url + "/bracket")
    _settled(page)
    expect(page.locator(".tree-heads li")).to_have_text(["Semi-final", "Final"])  # rounds in playing order
    sf1, sf2, final = (_box(page, f".tree #tie-{s}") for s in ("SF1", "SF2", "F"))
    assert sf1["y"] + sf1["height"] <= sf2["y"]  # SF1 above SF2 in the first column
    assert final["x"] >= max(sf1["x"] + sf1["width"], sf2["x"] + sf2["width"]) + 10  # the next column
    middle = (sf1["y"] + sf1["height"] / 2 + sf2["y"] + sf2["height"] / 2) / 2
    assert abs(final["y"] + final["height"] / 2 - middle) <= 2  # exactly between the two it is fed by
    for stage, half in (("SF1", "up"), ("SF2", "down")):  # the lines: out of each feeder, into the final
        slot = page.locator(f".slot:has(#tie-{stage})")
        assert half in (slot.get_attribute("class") or "")
        assert slot.evaluate("e => getComputedStyle(e, '::after').borderTopWidth") == "2px"
        assert slot.evaluate("e => getComputedStyle(e, '::before').borderLeftWidth") == "2px"
    assert page.locator("#tie-F").evaluate("e => getComputedStyle(e, '::before').borderTopWidth") == "2px"
    expect(page.locator("#tie-SF1 .goes")).to_have_text(["Winner to F", "Loser to P34"])
    # The 3/4 match is apart, under the bracket, its teams the semi-finals' losers.
    placement = _box(page, ".placements #tie-P34")
    assert placement["y"] > max(sf2["y"] + sf2["height"], final["y"] + final["height"])
    expect(page.locator(".tree #tie-P34")).to_have_count(0)
    view = day.view()
    losers = [m.away if m.winner == m.home else m.home for m in view.matches if m.stage in ("SF1", "SF2")]
    expect(page.locator("#tie-P34 .side")).to_have_text(losers)
    assert page.locator(".bracket-scroll").evaluate("e => e.scrollWidth <= e.clientWidth")  # no swiping here
    _meets_the_site_checks(page, width)
    _keyboard_reaches_every_control(page)
    page.context.close()


def test_the_icons_are_linked_and_are_the_pngs_they_say(day: Day, chromium: Any) -> None:
    page = _page(chromium, "phone")
    page.goto(day.server.url + "/")
    links = page.evaluate("""() => Array.from(document.querySelectorAll(
        "link[rel=icon], link[rel=apple-touch-icon], link[rel=manifest]")).map(l => [l.rel, l.getAttribute("href")])""")
    assert [rel for rel, _ in links] == ["icon", "apple-touch-icon", "manifest"]
    manifest = page.request.get(day.server.url + dict(links)["manifest"]).json()
    sizes = {href: int(href.rsplit("-", 1)[1].split(".")[0]) for _, href in links[:2]}
    sizes |= {icon["src"]: int(icon["sizes"].split("x")[0]) for icon in manifest["icons"]}
    for href, size in sizes.items():
        png = page.request.get(day.server.url + href)
        assert png.headers["content-type"] == "image/png"
        body = png.body()
        assert body[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", body[16:24]) == (size, size), href
    page.context.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_the_court_page_fits_the_screen(day: Day, chromium: Any, width: str) -> None:
    page = _page(chromium, width)
    page.goto(f"{day.server.url}/court/{quote('Hall 1')}")
    expect(page.locator("#live-status")).to_have_text("Live", timeout=TIMEOUT)
    _meets_the_site_checks(page, width)
    page.context.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_the_desk_on_a_phone_shows_every_court_whole_and_its_matches_by_day(
        day: Day, chromium: Any, width: str) -> None:
    page = desk_page(chromium, day.server)
    page.set_viewport_size(WIDTHS[width])
    cells = page.locator(".desk-courts tbody td, .desk-courts tbody th")
    assert cells.count() == 5 * len(day.view().courts)
    for cell in cells.all():  # nothing cut off at the screen's edge
        box = cell.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= WIDTHS[width]["width"]
    days = sorted({m.start.date() for m in day.view().matches})
    expect(page.locator("h3.dayhead")).to_have_text([d.strftime("%a %d %b") for d in days])
    for heading, date in zip(page.locator("h3.dayhead").all(), days, strict=True):
        listed = heading.locator("xpath=following-sibling::ul[1]/li")
        expect(listed).to_have_count(sum(1 for m in day.view().matches if m.start.date() == date))
    _meets_the_site_checks(page, width)
    page.context.close()


def test_a_team_playing_now_shows_its_live_score_on_its_page(day: Day, chromium: Any) -> None:
    following = next(m for m in day.view().matches if m.recorded is None)
    match = Match(RULES, stage="knockout" if not following.is_pool else "round_robin", round=following.round)
    match.apply(ClockStarted(at=0))
    match.apply(Goal(at=60_000, team="away"))
    court = next(cid for cid, name in day.service.plan.courts.items() if name == following.court)
    payload = json.loads(json.dumps(live_payload(match.state_at(90_000), RULES, str(following.number))))
    day.tables[following.court].send_raw("live", p.encode(p.build(
        id=uuid.uuid4().hex, type="live", court=court, match=str(following.number), payload=payload)))
    wait_until(lambda: day.view().by_number[following.number].live)
    for width in WIDTHS:
        page = _page(chromium, width)
        page.goto(f"{day.server.url}/team/{quote(following.home)}")
        card = page.locator(".next-up")
        expect(card.locator(".badge.live")).to_have_text("LIVE")
        expect(card.locator(".bigscore b")).to_have_text("0–1")
        _meets_the_site_checks(page, width)
        page.context.close()


def test_after_the_final_the_home_page_shows_the_champion_and_the_final_ranking(day: Day, chromium: Any) -> None:
    pages = {width: _page(chromium, width) for width in WIDTHS}
    for page in pages.values():
        page.goto(day.server.url + "/")
        expect(page.locator("h1")).to_have_text("On the courts")
        page.evaluate("window.__same_document = true")
    day.play()
    view = wait_until(lambda: (v := day.view()).finished and v)
    final = next(m for m in view.matches if m.stage == "F")
    ranking = [team for _, team, _ in view.final_ranking()]
    assert ranking[:2] == [final.winner, final.away if final.winner == final.home else final.home]
    for width, page in pages.items():
        expect(page.locator(".champion .winner")).to_have_text(final.winner or "", timeout=TIMEOUT)
        assert page.evaluate("window.__same_document") is True  # it came live, without a reload
        expect(page.locator("h1")).to_have_text(view.data.name)
        expect(page.locator("table.ranking tbody td:nth-child(2)")).to_have_text(ranking)
        expect(page.locator("text=No more matches on this court")).to_have_count(0)
        _meets_the_site_checks(page, width)
        page.context.close()

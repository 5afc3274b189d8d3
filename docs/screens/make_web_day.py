"""Regenerate the web pages' screenshots at phone (390 px) and laptop (1280 px) width, over the real service
(Mosquitto, a SQLite store, tables sending what the engine plays), with Debian's Chromium through Playwright:

- ``web-<page>-*.png``: every page the app serves (tests/test_web_screenshots.py checks none is left out) and
  the desk, on the sample day (tests/web_day.py: the Swedish youth cup half played, a match live, a court
  offline, a conflicting result, a red card, a tie waiting for lots), in the cup's language unless ``--lang``;
- ``web-day-*.png``: the parents' pages and the desk of the indoor-hockey example halfway through the day
  with a match live, then after the final; a follower of "Rot-Weiss Köln" (my team, kept in the browser)
  is photographed, so its marks show.

    .venv/bin/python docs/screens/make_web_day.py [--out docs/screens] [--lang en] [--only schedule team]

``--only``: just those pages of the sample day (of PAGES), nothing else.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from rules import protocol as p
from rules.live import live_payload
from rules.match import ClockStarted, Goal, Match, PenaltyAwarded
from tests.web_day import HOCKEY_RULES as RULES
from tests.web_day import served_day, served_sample, wait_until
from tests.web_support import PASSWORD

WIDTHS = {"phone": (390, 844), "desktop": (1280, 900)}
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars"]
# Every page the app serves, by its route (tests/test_web_screenshots.py checks none is left out); the
# desk's pages after logging in. The login page is photographed on its own, before.
PAGES = {
    "tournament": "/", "schedule": "/schedule", "pool": "/pool/{pool:name}", "pool-print": "/pool/{pool:name}/print",
    "bracket": "/bracket", "ranking": "/ranking", "teams": "/teams", "team": "/team/{team:name}", "pools": "/pools",
    "court": "/court/{court:name}", "overlay": "/court/{court:name}/overlay",
}
LOGIN = "/desk/login"
DESK = {"desk": "/desk", "desk-match": "/desk/match/{number:int}", "desk-sheet": "/desk/sheet"}
TEAM = "Rot-Weiss Köln"
DAY = {"schedule": "/schedule", "bracket": "/bracket", "team": f"/team/{quote(TEAM)}", "teams": "/teams?q=r",
       "tournament": "/", "court": f"/court/{quote('Hall 1')}", "pool": "/pool/A", "pool-c": "/pool/C",
       "pool-print": "/pool/A/print", "ranking": "/ranking", "overlay": f"/court/{quote('Hall 1')}/overlay",
       "pools": "/pools"}
FINAL = {"tournament-final": "/", "bracket-final": "/bracket"}


def fill(route: str, *, pool: str, team: str, court: str, number: int) -> str:
    """A route's path on the sample day: pool C (the tie waiting for lots), the live match's home team
    and court, match 2 (the conflicting result)."""
    values = {"pool": quote(pool, safe=""), "team": quote(team, safe=""), "court": quote(court, safe=""),
              "number": str(number)}
    return re.sub(r"\{(\w+)(:\w+)?\}", lambda m: values[m.group(1)], route)


def photograph(browser: Any, base: str, pages: dict[str, str], out: Path, prefix: str, *,
               desk: dict[str, str] | None, team: str | None = None) -> int:
    """Each page at each width into ``out``/``prefix``-NAME-WIDTH.png; with ``desk``, the login page, then
    those desk pages logged in as anna. ``team``: followed in the browser. How many were written."""
    written = 0
    for label, (width, height) in WIDTHS.items():
        context = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=1)
        page = context.new_page()
        if team is not None:
            page.goto(base + "/")
            page.evaluate(f"localStorage.setItem('courtside-team', {team!r})")
        for name, path in pages.items():
            page.goto(base + path)
            page.wait_for_timeout(600)  # the live stream connects (the footer then says Live), my team is marked
            page.screenshot(path=str(out / f"{prefix}-{name}-{label}.png"), full_page=True,
                            omit_background=name == "overlay")
            written += 1
        if desk is not None:
            page.goto(base + LOGIN)
            page.screenshot(path=str(out / f"{prefix}-desk-login-{label}.png"), full_page=True)
            page.fill("#name", "anna")
            page.fill("#password", PASSWORD)
            page.click("button[type=submit]")
            page.wait_for_url(base + "/desk")
            page.wait_for_timeout(400)
            for name, path in desk.items():
                page.goto(base + path)
                page.screenshot(path=str(out / f"{prefix}-{name}-{label}.png"), full_page=True)
            written += 1 + len(desk)
        context.close()
    return written


def sample_pages(browser: Any, out: Path, lang: str | None, only: list[str] | None) -> int:
    with served_sample(lang=lang) as (day, server):
        live = day.view().by_number[13]
        def filled(route: str) -> str:
            return fill(route, pool="C", team=live.home, court=live.court, number=2)

        pages = {name: filled(route) for name, route in PAGES.items() if not only or name in only}
        desk = None if only else {name: filled(route) for name, route in DESK.items()}
        return photograph(browser, server.url, pages, out, "web", desk=desk)


def hockey_day(browser: Any, out: Path) -> int:
    with tempfile.TemporaryDirectory() as tmp, served_day(Path(tmp)) as day:
        day.play(until=lambda m: m.stage == "C" and m.start.day == 18)  # Sunday morning: pool C's last round
        following = next(m for m in day.view().matches if m.recorded is None)
        match = Match(RULES, stage="round_robin", round="pool")
        match.apply(ClockStarted(at=0))
        match.apply(Goal(at=60_000, team="away"))
        match.apply(PenaltyAwarded(at=300_000, team="home", kind="yellow", player="7"))  # its kind and time show
        table = day.tables[following.court]
        court = next(cid for cid, name in day.service.plan.courts.items() if name == following.court)
        table.send_raw("live", p.encode(p.build(id=uuid.uuid4().hex, type="live", court=court,
                                                match=str(following.number),
                                                payload=json.loads(json.dumps(live_payload(
                                                    match.state_at(400_000), RULES, str(following.number)))))))
        wait_until(lambda: day.backend.data().live)
        where = quote(following.court)  # the court with the match live
        pages = {**DAY, "court": f"/court/{where}", "overlay": f"/court/{where}/overlay"}
        written = photograph(browser, day.server.url, pages, out, "web-day", desk={"desk": "/desk",
                             "desk-match": "/desk/match/1"}, team=TEAM)
        day.play()
        wait_until(lambda: day.view().finished)
        return written + photograph(browser, day.server.url, FINAL, out, "web-day", desk=None, team=TEAM)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=Path(__file__).parent, type=Path)
    parser.add_argument("--lang", help="the sample day's pages in en, sv or sk (default: the tournament file's)")
    parser.add_argument("--only", nargs="+", metavar="PAGE", help=f"just these pages (of {', '.join(PAGES)})")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    args.out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        written = sample_pages(browser, args.out, args.lang, args.only)
        if not args.only:
            written += hockey_day(browser, args.out)
        browser.close()
    print(f"wrote {written} screenshots to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Regenerate docs/screens/web-day-*.png: the parents' pages and the desk on a phone (390 px) and a laptop
(1280 px), over the real service (Mosquitto, a SQLite store, a table per court playing the indoor-hockey
example through the engine) halfway through the day with a match live, then after the final.

    .venv/bin/python docs/screens/make_web_day.py [--out docs/screens]

A follower of "Rot-Weiss Köln" (my team, kept in the browser) is photographed, so its marks show.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import uuid
from pathlib import Path
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from rules import protocol as p
from rules.live import live_payload
from rules.match import ClockStarted, Goal, Match, PenaltyAwarded
from tests.web_day_support import RULES, served_day, wait_until
from tests.web_support import PASSWORD

WIDTHS = {"phone": (390, 844), "desktop": (1280, 900)}
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars"]
TEAM = "Rot-Weiss Köln"
DAY = {"schedule": "/schedule", "bracket": "/bracket", "team": f"/team/{quote(TEAM)}", "teams": "/teams?q=r",
       "tournament": "/", "court": f"/court/{quote('Hall 1')}", "pool": "/pool/A", "pool-c": "/pool/C",
       "pool-print": "/pool/A/print", "ranking": "/ranking", "overlay": f"/court/{quote('Hall 1')}/overlay"}
FINAL = {"tournament-final": "/", "bracket-final": "/bracket"}


def photograph(browser: object, base: str, pages: dict[str, str], out: Path, *, desk: bool) -> None:
    for label, (width, height) in WIDTHS.items():
        context = browser.new_context(viewport={"width": width, "height": height})  # type: ignore[attr-defined]
        page = context.new_page()
        page.goto(base + "/")
        page.evaluate(f"localStorage.setItem('courtside-team', {TEAM!r})")
        for name, path in pages.items():
            page.goto(base + path)
            page.wait_for_timeout(600)  # the live stream connects, my team is marked
            page.screenshot(path=str(out / f"web-day-{name}-{label}.png"), full_page=True)
        if desk:
            page.goto(base + "/desk/login")
            page.screenshot(path=str(out / f"web-day-desk-login-{label}.png"), full_page=True)
            page.fill("#name", "anna")
            page.fill("#password", PASSWORD)
            page.click("button[type=submit]")
            page.wait_for_url(base + "/desk")
            page.wait_for_timeout(400)
            page.screenshot(path=str(out / f"web-day-desk-{label}.png"), full_page=True)
            page.goto(base + "/desk/match/1")
            page.screenshot(path=str(out / f"web-day-desk-match-{label}.png"), full_page=True)
        context.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=Path(__file__).parent, type=Path)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp, served_day(Path(tmp)) as day:
        day.play(until=lambda m: m.stage == "C" and m.start.day == 18)  # Sunday morning: pool C's last round
        live = day.view().matches
        following = next(m for m in live if m.recorded is None)
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
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            where = quote(following.court)  # the court with the match live
            pages = {**DAY, "court": f"/court/{where}", "overlay": f"/court/{where}/overlay"}
            photograph(browser, day.server.url, pages, args.out, desk=True)
            day.play()
            wait_until(lambda: day.view().finished)
            photograph(browser, day.server.url, FINAL, args.out, desk=False)
            browser.close()
    print(f"wrote web-day-*.png to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

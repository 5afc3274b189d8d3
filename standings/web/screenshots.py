"""Screenshots of every web page at phone (390 px) and desktop width, into docs/screens/web-*.png.

    .venv/bin/python -m standings.web.screenshots [--out docs/screens] [--lang en] [--only schedule team]

Serves the sample tournament day (:mod:`standings.web.sample`) on a free loopback port and
photographs it with Debian's Chromium through Playwright, in the sample cup's own language
(Swedish, from its tournament file) unless ``--lang`` says otherwise. The parents' pages over the
real service, halfway through a day and after its final, are docs/screens/make_web_day.py's.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import socket
import threading
import time
from datetime import datetime
from pathlib import Path
from urllib.parse import quote

import uvicorn

from standings.web import create_app
from standings.web.sample import sample_backend

WIDTHS = {"phone": (390, 844), "desktop": (1280, 900)}
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars"]
PASSWORD = "screenshots only"
# Every page the app serves, by its route (tests/test_web_screenshots.py checks none is left out); the
# desk's pages after logging in. The login page is photographed on its own, before.
PAGES = {
    "tournament": "/", "schedule": "/schedule", "pool": "/pool/{pool:name}", "pool-print": "/pool/{pool:name}/print",
    "bracket": "/bracket", "ranking": "/ranking", "teams": "/teams", "team": "/team/{team:name}",
    "court": "/court/{court:name}", "overlay": "/court/{court:name}/overlay",
}
LOGIN = "/desk/login"
DESK = {"desk": "/desk", "desk-match": "/desk/match/{number:int}"}


def fill(route: str, *, pool: str, team: str, court: str, number: int) -> str:
    """A route's path for the sample day: pool C (the tie waiting for lots), the live match's home team
    and court, match 2 (the conflicting result)."""
    values = {"pool": quote(pool, safe=""), "team": quote(team, safe=""), "court": quote(court, safe=""),
              "number": str(number)}
    return re.sub(r"\{(\w+)(:\w+)?\}", lambda m: values[m.group(1)], route)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default="docs/screens", type=Path)
    parser.add_argument("--lang", help="en, sv or sk (default: the tournament file's)")
    parser.add_argument("--only", nargs="+", metavar="PAGE", help=f"just these pages (of {', '.join(PAGES)})")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    backend = sample_backend(lambda: datetime(2026, 5, 16, 13, 35))
    app = create_app(backend, lang=args.lang, secure_cookies=False)
    app.state.site.accounts.add("organiser", PASSWORD)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=lambda: asyncio.run(server.serve()), daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    base = f"http://127.0.0.1:{port}"
    v = app.state.site.view()
    where = {"pool": "C", "team": v.matches[12].home, "court": v.matches[12].court, "number": 2}
    pages = {name: fill(route, **where) for name, route in PAGES.items() if not args.only or name in args.only}
    desk = {name: fill(route, **where) for name, route in DESK.items() if not args.only}
    args.out.mkdir(parents=True, exist_ok=True)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            for label, (width, height) in WIDTHS.items():
                context = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=1)
                page = context.new_page()
                for name, path in pages.items():
                    page.goto(base + path)
                    page.wait_for_timeout(600)  # let the live stream connect (the footer then says Live)
                    page.screenshot(path=str(args.out / f"web-{name}-{label}.png"), full_page=True,
                                    omit_background=name == "overlay")
                if args.only:
                    context.close()
                    continue
                page.goto(base + LOGIN)
                page.screenshot(path=str(args.out / f"web-desk-login-{label}.png"), full_page=True)
                page.fill("#name", "organiser")
                page.fill("#password", PASSWORD)
                page.click("button[type=submit]")
                page.wait_for_url(base + "/desk")
                for name, path in desk.items():
                    page.goto(base + path)
                    page.screenshot(path=str(args.out / f"web-{name}-{label}.png"), full_page=True)
                context.close()
            browser.close()
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        backend.close()
    print(f"wrote {len(WIDTHS) * (len(pages) + (0 if args.only else 1) + len(desk))} screenshots to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Screenshots of a cup of classes at phone width (issue 32): rules/examples/youth-cup.toml (P10 and F10 keep their
results off the pages, P13 and F13 publish them) over the real service (Mosquitto, a SQLite store), its pools and
the P13 semi-finals played through the courts' tables, with Debian's Chromium through Playwright: the home page's
classes, a class page, the schedule filtered to one class, an unpublished class, and the desk of one class.

    .venv/bin/python docs/screens/make_youth_cup.py [--out docs/screens]

Writes ``web-youth-cup-<page>-<width>.png`` (phone: 390 px, desktop: 1280 px). ROUTES names the app's routes only
a cup of classes has (tests/test_web_screenshots.py checks every route has its screenshots).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.web_day import youth_cup_day
from tests.web_support import PASSWORD, desk_page

PAGES = {"home": "/", "class": "/class/P13", "schedule-class": "/schedule?class=P13",
         "unpublished-class": "/class/P10", "unpublished-team": "/team/H%C3%A4llby%20IF%20P10"}
ROUTES = {"class": "/class/{name:name}"}
WIDTHS = {"phone": (390, 844), "desktop": (1280, 900)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent)
    out = parser.parse_args().out
    from playwright.sync_api import sync_playwright

    with (tempfile.TemporaryDirectory() as tmp, youth_cup_day(f"sqlite:///{tmp}/courtside.db") as cup,
          sync_playwright() as p):
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        cup.server.app.state.site.accounts.add("anna", PASSWORD)
        for width, (w, h) in WIDTHS.items():
            page = browser.new_context(viewport={"width": w, "height": h}).new_page()
            for name, path in PAGES.items():
                page.goto(cup.server.url + path)
                shot = out / f"web-youth-cup-{name}-{width}.png"
                page.screenshot(path=str(shot), full_page=True)
                print(shot)
            desk = desk_page(browser, cup.server, "/desk?class=P13", viewport={"width": w, "height": h})
            shot = out / f"web-youth-cup-desk-class-{width}.png"
            desk.screenshot(path=str(shot), full_page=True)
            print(shot)
        browser.close()

if __name__ == "__main__":
    main()

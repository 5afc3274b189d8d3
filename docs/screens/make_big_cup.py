"""Screenshots of a big cup's site at phone width (issue 32): a generated cup of 104 teams in 26 pools on 8
pitches over three days (bench/cup.py), over the real service (Mosquitto, a SQLite store), with Debian's Chromium
through Playwright: the home page's header, the list of pools, the schedule of one day and of one pitch.

    .venv/bin/python docs/screens/make_big_cup.py [--out docs/screens]

Writes ``web-big-cup-<page>-phone.png``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from server.web import create_app
from tests.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.web_day import big_cup_day
from tests.web_support import LiveServer


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent)
    out = parser.parse_args().out
    from playwright.sync_api import sync_playwright

    with big_cup_day() as day:
        server = LiveServer(create_app(day.backend, lang="en")).start()
        second = sorted({m.start.date().isoformat() for m in day.view().matches})[1]
        pages = {"home": "/", "pools": "/pools", "schedule-day": f"/schedule?day={second}",
                 "schedule-pitch": "/schedule?court=Pitch+3"}
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
                for name, path in pages.items():
                    page.goto(server.url + path)
                    shot = out / f"web-big-cup-{name}-phone.png"
                    page.screenshot(path=str(shot))  # the first phone screen: what a parent sees first
                    print(shot)
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()

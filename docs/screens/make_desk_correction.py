"""Screenshots of the desk and the pages after a correction that sends another team through (issue 31), over
the real service (Mosquitto, a SQLite store), with Debian's Chromium through Playwright, at phone and laptop
width: indoor hockey (seed 000) with pools A and B and pool C's first round entered, then pool A's
Amsterdam H&BC 2-0 Three Rock Rovers corrected to 0-5, which sends Amsterdam H&BC to pool C in Three Rock
Rovers' place: pool C's 2-1 no longer counts (tests/test_server_corrections.py plays the same day).

    .venv/bin/python docs/screens/make_desk_correction.py [--out docs/screens]

Writes ``web-correction-<page>-<width>.png``: the desk, the stranded match on the desk, the schedule, pool C.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from rules.standings import MatchResult
from server.desk_commands import CorrectResult
from server.web import create_app
from server.web.service_backend import ServiceBackend
from server.web.view import View
from tests.conftest import CHROMIUM, CHROMIUM_ARGS, PLAIN_CONF, Broker
from tests.service_support import running_service
from tests.test_server_corrections import PLAYED
from tests.web_support import PASSWORD, LiveServer

WIDTHS = {"phone": (390, 844), "desktop": (1280, 900)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent)
    out = parser.parse_args().out
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        broker = Broker(PLAIN_CONF, Path(tmp))
        broker.start()
        db = f"sqlite:///{Path(tmp) / 'courtside.db'}"
        try:
            with running_service(db, broker.url) as service:
                backend = ServiceBackend(service)
                for stage, home, away, hg, ag in PLAYED:
                    row = next(r for r in View(backend.data()).matches if (r.stage, r.home, r.away) ==
                               (stage, home, away))
                    backend.submit(CorrectResult(who="anna", why="score sheet", number=row.number, result=MatchResult(
                        pool=stage, home=home, away=away, home_goals=hg, away_goals=ag)))
                row = next(r for r in View(backend.data()).matches if (r.home, r.away) == ("Amsterdam H&BC",
                                                                                          "Three Rock Rovers"))
                backend.submit(CorrectResult(who="anna", why="protest upheld", number=row.number, confirmed=True,
                                             result=MatchResult(pool="A", home=row.home, away=row.away,
                                                                home_goals=0, away_goals=5)))
                stranded = next(r for r in View(backend.data()).matches if r.set_aside is not None)
                app = create_app(backend, accounts_url=db, lang="en")
                app.state.site.accounts.add("anna", PASSWORD)
                server = LiveServer(app).start()
                pages = {"desk": "/desk", "desk-match": f"/desk/match/{stranded.number}", "schedule": "/schedule",
                         "pool-c": "/pool/C"}
                try:
                    with sync_playwright() as p:
                        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                        for width, (w, h) in WIDTHS.items():
                            page = browser.new_context(viewport={"width": w, "height": h}).new_page()
                            page.goto(f"{server.url}/desk/login")
                            page.fill("#name", "anna")
                            page.fill("#password", PASSWORD)
                            page.click("button[type=submit]")
                            page.wait_for_url(f"{server.url}/desk")
                            for name, path in pages.items():
                                page.goto(server.url + path)
                                shot = out / f"web-correction-{name}-{width}.png"
                                page.screenshot(path=str(shot), full_page=True)
                                print(shot)
                        browser.close()
                finally:
                    server.stop()
        finally:
            broker.stop()


if __name__ == "__main__":
    main()

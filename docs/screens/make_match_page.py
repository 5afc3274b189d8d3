"""Screenshots of a match's page (issue 33): the ice-hockey seed's press script played by a real `courtside table`
process (mock pins) through Mosquitto to the service (a SQLite store), its page in Debian's Chromium through
Playwright while the match is played and after the final.

    .venv/bin/python docs/screens/make_match_page.py [--out docs/screens]

Writes ``web-match-live-<width>.png``, ``web-match-<width>.png`` and ``web-scorers-<width>.png`` (phone: 390 px,
desktop: 1280 px). ROUTES names the app's routes these photograph (tests/test_web_screenshots.py checks every
route has its screenshots).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from server.plan import load_plan
from server.web import create_app
from server.web.service_backend import ServiceBackend
from tests.conftest import CHROMIUM, CHROMIUM_ARGS, PLAIN_CONF, Broker
from tests.service_support import running_service
from tests.web_support import LiveServer

ROOT = Path(__file__).resolve().parents[2]
ROUTES = {"match": "/match/{number:int}", "scorers": "/scorers"}
WIDTHS = {"phone": (390, 844), "desktop": (1280, 900)}
ICE = ROOT / "rules" / "examples" / "ice-hockey.toml"
SCRIPT = ROOT / "firmware" / "scripts" / "ice-hockey.txt"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent)
    out = parser.parse_args().out
    from playwright.sync_api import expect, sync_playwright

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        broker = Broker(PLAIN_CONF, Path(tmp))
        broker.start()
        try:
            with running_service(f"sqlite:///{tmp}/courtside.db", broker.url, plan=load_plan(ICE)) as service:
                server = LiveServer(create_app(ServiceBackend(service), lang="en")).start()
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                pages = {width: browser.new_context(viewport={"width": w, "height": h}).new_page()
                         for width, (w, h) in WIDTHS.items()}
                for page in pages.values():
                    page.goto(f"{server.url}/match/1")
                table = subprocess.Popen(
                    [sys.executable, "-m", "courtside", "table", "--rules", "ice-hockey", "--court", "Rink",
                     "--tournament", str(ICE), "--pins", "mock", "--headless", "--script", str(SCRIPT), "--journal",
                     f"{tmp}/journal", "--broker", broker.url, "--speed", "20"], stdout=subprocess.DEVNULL, cwd=ROOT)
                for width, page in pages.items():  # the power play's goal is in; the match goes on
                    expect(page.locator("li.goal.home")).to_contain_text("#13", timeout=60_000)
                    page.screenshot(path=str(out / f"web-match-live-{width}.png"), full_page=True)
                    print(out / f"web-match-live-{width}.png")
                table.wait(300)
                for width, page in pages.items():
                    expect(page.locator(".mirror .label")).to_have_text("Full time", timeout=30_000)
                    page.screenshot(path=str(out / f"web-match-{width}.png"), full_page=True)
                    print(out / f"web-match-{width}.png")
                    page.goto(f"{server.url}/scorers")
                    page.screenshot(path=str(out / f"web-scorers-{width}.png"), full_page=True)
                    print(out / f"web-scorers-{width}.png")
                browser.close()
                server.stop()
        finally:
            broker.stop()


if __name__ == "__main__":
    main()

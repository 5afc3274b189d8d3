"""firmware/operator_page.py: the official's view on a phone at the table, served by a real `courtside table`.

The table plays a press script that stands at a cue (docs/press-scripts.md, ``wait FILE``) after a goal and an
undo; the page is read there, by HTTP as a phone would, then in Chromium at a phone's width (its screenshot in
docs/screens). Then the cue is given and the table finishes.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

import httpx

from display.operator import Feedback, OperatorView
from firmware.operator_page import OperatorPage, page_html

ROOT = Path(__file__).resolve().parents[1]
DEADLINE_S = 60  # only a table that never comes up takes this long


def test_a_real_table_serves_what_its_buttons_did_to_a_phone(tmp_path: Path) -> None:
    cue = tmp_path / "go-on"
    script = tmp_path / "presses.txt"
    script.write_text(f"0 press clock_start\n60 type 7\n61 press goal_home\n62 press clock_start\n70 press undo\n"
                      f"71 wait {cue}\n80 wait\n", encoding="utf-8")
    log = tmp_path / "table.log"
    with log.open("w") as err:
        table = subprocess.Popen(
            [sys.executable, "-m", "courtside", "table", "--rules", "ice-hockey", "--court", "Rink 1", "--pins",
             "mock", "--headless", "--journal", str(tmp_path / "journal"), "--script", str(script),
             "--operator-port", "0"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=err, text=True)
    try:
        address = _wait_for(log, re.compile(r"operator view at (http://\S+)"))
        address = address.replace("0.0.0.0", "127.0.0.1")
        deadline = time.monotonic() + DEADLINE_S
        while True:  # the table reaches its cue: the undo is the last thing done
            data = httpx.get(f"{address}operator.json", timeout=5).json()
            if data["entered"] and data["entered"][0].startswith("Undone"):
                break
            assert time.monotonic() < deadline and table.poll() is None, log.read_text()
            time.sleep(0.1)
        assert data["entered"][:3] == ["Undone: Clock started at 13:59 (period 1)",
                                       "Clock started at 13:59 (period 1)", "Goal HOME #7 at 13:59 (period 1)"]
        assert data["undo"] == "UNDO takes back: Goal HOME #7 at 13:59 (period 1)"
        assert data["link"] == "No server link: the card keeps every event"
        assert data["board"] == "period 1 13:59 stopped · Home 1 - 0 Away"
        page = httpx.get(address, timeout=5)
        assert page.headers["content-type"].startswith("text/html")
        assert '<meta http-equiv="refresh" content="1">' in page.text  # it follows the table without a script
        assert "START restarts the clock; hold NEXT ends the period" in page.text
        cue.touch()
        assert table.wait(timeout=DEADLINE_S) == 0
    finally:
        if table.poll() is None:
            table.kill()
            table.wait()


def _wait_for(log: Path, pattern: re.Pattern[str]) -> str:
    deadline = time.monotonic() + DEADLINE_S
    while True:
        found = pattern.search(log.read_text(encoding="utf-8", errors="replace"))
        if found:
            return found.group(1)
        assert time.monotonic() < deadline, log.read_text()
        time.sleep(0.05)


def test_the_page_escapes_what_it_shows_and_a_second_table_on_the_port_is_refused() -> None:
    view = OperatorView(court="Hall <1>", match="7 · A v B", board="b", penalties=(), entering="", next_press="n",
                        feedback=Feedback("refused", "Refused: <script>"), entered=(), undo="", link="l",
                        link_ok=False, journal="j", buttons=(), keys=())
    html = page_html(view)
    assert "<script>" not in html and "Refused: &lt;script&gt;" in html and 'class="refused"' in html
    page = OperatorPage("127.0.0.1", 0)
    try:
        page.show(view)
        assert httpx.get(f"{page.address}operator.json", timeout=5).json()["court"] == "Hall <1>"
        assert httpx.get(f"{page.address}nothing", timeout=5).status_code == 404
        port = int(page.address.rsplit(":", 1)[1].strip("/"))
        try:
            OperatorPage("127.0.0.1", port)
            taken = False
        except OSError:
            taken = True
        assert taken  # the table logs it and plays on without the page (firmware.main)
    finally:
        page.close()

"""Each seed's press script (firmware/scripts/) played at a real `courtside table` (mock pins) on its example
tournament's first court, through Mosquitto to the service: the match's page tells what the table's own journal
holds, line for line (rules.match.timeline on the journal), with each scorer's and carded player's number."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from html import unescape
from pathlib import Path
from typing import Any

import httpx
import pytest

from rules import load_ruleset, match_timeline, read_log, read_text
from server import queries
from server.plan import load_plan
from server.web import create_app
from server.web.service_backend import ServiceBackend
from tests.service_support import running_service
from tests.web_support import LiveServer

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("seed", ["indoor-hockey", "water-polo", "indoor-football", "youth-football"])
def test_a_seeds_press_script_at_a_real_table_is_told_on_its_match_page(seed: str, mosquitto: Any,
                                                                          tmp_path: Path) -> None:
    broker = mosquitto()
    example = ROOT / "rules" / "examples" / f"{seed}.toml"
    plan = load_plan(example)
    with running_service(f"sqlite:///{tmp_path / 'day.db'}", broker.url, plan=plan) as service:
        server = LiveServer(create_app(ServiceBackend(service), lang="en")).start()
        try:
            table = subprocess.run(
                [sys.executable, "-m", "courtside", "table", "--rules", seed, "--court", "1", "--tournament",
                 str(example), "--pins", "mock", "--headless", "--script", str(ROOT / "firmware" / "scripts" /
                 f"{seed}.txt"), "--journal", str(tmp_path / "j"), "--broker", broker.url, "--speed", "200"],
                capture_output=True, text=True, cwd=ROOT, timeout=300)
            assert table.returncode == 0, table.stderr[-2000:]
            (journal,) = (tmp_path / "j").glob("*.jsonl")
            log = read_log(read_text(str(journal)), str(journal))
            assert log.header is not None and log.header.match_id is not None
            number = log.header.match_id
            deadline = time.monotonic() + 30  # the table has sent it all; the service stores it as it comes
            while not any(r.match_id == number for r in queries.results(service.store)):
                assert time.monotonic() < deadline, "the match's result never arrived"
                time.sleep(0.05)
            timeline = match_timeline(load_ruleset(seed), log.events, stage=log.header.stage, round=log.header.round)
            page = httpx.get(f"{server.url}/match/{number}", timeout=10).text
        finally:
            server.stop()
    lines = [" ".join(unescape(re.sub(r"<[^>]+>", " ", li)).split())
             for li in re.findall(r"<li class=\"[a-z_]+[^\"]*\">(.*?)</li>", page, re.S)]
    assert len(lines) == len(timeline.lines) > 0
    for shown, line in zip(lines, timeline.lines, strict=True):
        assert shown.startswith(line.played_text)
        if line.player:
            assert f"#{line.player}" in shown
        if line.kind == "goal":
            assert shown.endswith(f"{line.home_goals}–{line.away_goals}")
    assert "Full time" in page

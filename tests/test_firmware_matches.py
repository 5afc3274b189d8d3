"""A whole match of each sport from its shipped press script (firmware/scripts/), through the mock pins,
against a hand-worked result."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from firmware.journal import current_journal
from firmware.script import parse_script
from firmware.table import run_script
from rules.match.state import MatchState

SCRIPTS = Path(__file__).parent.parent / "firmware" / "scripts"  # each worked by hand in its comments


def _play(tmp_path: Path, rules: str) -> MatchState:
    path = SCRIPTS / f"{rules}.txt"
    return run_script(parse_script(path.read_text(encoding="utf-8"), str(path)), rules=rules, journal=tmp_path)


def test_indoor_hockey(tmp_path: Path) -> None:
    s = _play(tmp_path, "indoor-hockey")
    assert s.phase == "finished" and (s.home_goals, s.away_goals) == (2, 2)
    assert s.result is not None and s.result.outcome == "regular" and s.result.winner is None
    assert [(c.team, c.kind, c.player) for c in s.cards] == [("away", "green", "4")]


def test_water_polo(tmp_path: Path) -> None:
    s = _play(tmp_path, "water-polo")
    assert s.phase == "finished" and (s.home_goals, s.away_goals) == (2, 1) and s.period == 4
    assert s.result is not None and s.result.winner == "home"
    assert [(c.team, c.kind, c.player) for c in s.cards] == [("away", "exclusion", "9")]


def test_ice_hockey(tmp_path: Path) -> None:
    s = _play(tmp_path, "ice-hockey")
    assert s.phase == "finished" and (s.home_goals, s.away_goals) == (2, 1)
    assert s.result is not None and s.result.winner == "home" and s.result.outcome == "regular"
    assert s.penalties == ()  # the power-play goal ended the minor


def test_indoor_football(tmp_path: Path) -> None:
    s = _play(tmp_path, "indoor-football")
    assert s.phase == "finished" and (s.home_goals, s.away_goals) == (2, 1)
    assert [(c.team, c.kind, c.player) for c in s.cards] == [("home", "sin_bin", "5")]


def test_youth_football_through_the_command_prints_what_replay_prints(tmp_path: Path) -> None:
    script = SCRIPTS / "youth-football.txt"
    journal = tmp_path / "journal"
    cmd = [sys.executable, "-m", "courtside", "table", "--rules", "youth-football", "--court", "3",
           "--journal", str(journal), "--headless", "--script", str(script), "--format", "json"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    table = json.loads(done.stdout)
    assert table["phase"] == "finished" and (table["home_goals"], table["away_goals"]) == (1, 1)
    assert table["result"]["winner"] is None
    assert [(c["team"], c["kind"], c["player"]) for c in table["cards"]] == [("away", "yellow", "6")]
    log = current_journal(journal)
    assert log is not None
    replay = subprocess.run([sys.executable, "-m", "courtside", "replay", "--events", str(log), "--format", "json",
                             "--at", str(table["at"] / 1000)], capture_output=True, text=True, check=True)
    assert json.loads(replay.stdout) == table

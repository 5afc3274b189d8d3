"""A whole match of each sport from a press script, through the mock pins, against a hand-worked result."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from firmware.journal import current_journal
from firmware.script import parse_script
from firmware.table import run_script
from rules.match.state import MatchState

# Indoor hockey, 2 x 20 min running time, 5 min half-time. Worked by hand: the first half runs 0-1200,
# the interval to 1500; the second half starts at 1510 and stops 60 s for an injury, so it ends at
# 1510 + 1200 + 60 = 2770. Goals 7 (H), away, 10 (H), 3 (A): 2-2, a draw (pool match).
HOCKEY = """
0      press clock_start
125    type 7
125    press goal_home
600    type 4
600.5  press penalty_away   # green card (the first kind)
601    press next
900    press goal_away
1510   press clock_start    # second half
1800   type 10
1800   press goal_home
2000   press clock_stop     # injury
2060   press clock_start
2500   type 3
2500   press goal_away
2800   wait
"""

# Water polo, 4 x 7 min stopped time (a goal stops the clock), intervals 1, 2, 1 min.
# Q1: 0-60 played 60, restart 70, ends 70 + 360 = 430; break to 490.
# Q2: start 500; exclusion away #9 at 530 (+1 s to confirm); goal #5 (H) at 540 ends it and stops the clock
#     (40 s played); restart 550, ends 550 + 380 = 930; break (2 min) to 1050.
# Q3: 1060-1480; break to 1540. Q4: start 1550, away goal at 1600 (50 s), restart 1610, ends 1610 + 370 = 1980.
WATER_POLO = """
0     press clock_start
60    type 5
60    press goal_home
70    press clock_start
500   press clock_start
530   type 9
530   press penalty_away
531   press next
540   type 5
540   press goal_home
550   press clock_start
1060  press clock_start
1550  press clock_start
1600  press goal_away
1610  press clock_start
2000  wait
"""

# Ice hockey, 2 x 15 min stopped time, 1 min interval. P1: minor to away #91 at 101 (confirmed), power-play
# goal #13 at 130 ends it and stops the clock (130 played); restart 140, ends 140 + 770 = 910; break to 970.
# P2: start 980; away goal at 1500 (520 played), restart 1510; home goal at 1700 (710), restart 1710,
# ends 1710 + 190 = 1900. 2-1 home.
ICE_HOCKEY = """
0     press clock_start
100   type 91
100   press penalty_away
101   press next
130   type 13
130   press goal_home
140   press clock_start
980   press clock_start
1500  press goal_away
1510  press clock_start
1700  press goal_home
1710  press clock_start
1950  wait
"""

# Indoor football, 2 x 10 min running, 1 min half-time: first half 0-600, break to 660, second half
# 670-1270. Away #8 at 100; sin bin home #5 at 301; home #11 twice. 2-1 home.
INDOOR_FOOTBALL = """
0     press clock_start
100   type 8
100   press goal_away
300   type 5
300   press penalty_home
301   press next
670   press clock_start
900   type 11
900   press goal_home
1000  type 11
1000  press goal_home
1300  wait
"""

# Swedish youth football, 2 x 20 min running, 5 min half-time: 0-1200, break to 1500, 1510-2710.
# A caution (yellow, no time) to away #6; 1-1.
YOUTH = """
0     press clock_start
300   type 9
300   press goal_home
800   type 6
800   press penalty_away
801   press next
1510  press clock_start
2000  type 10
2000  press goal_away
2750  wait
"""


def _play(tmp_path: Path, rules: str, text: str) -> MatchState:
    return run_script(parse_script(text, rules), rules=rules, journal=tmp_path)


def test_indoor_hockey(tmp_path: Path) -> None:
    s = _play(tmp_path, "indoor-hockey", HOCKEY)
    assert s.phase == "finished" and (s.home_goals, s.away_goals) == (2, 2)
    assert s.result is not None and s.result.outcome == "regular" and s.result.winner is None
    assert [(c.team, c.kind, c.player) for c in s.cards] == [("away", "green", "4")]


def test_water_polo(tmp_path: Path) -> None:
    s = _play(tmp_path, "water-polo", WATER_POLO)
    assert s.phase == "finished" and (s.home_goals, s.away_goals) == (2, 1) and s.period == 4
    assert s.result is not None and s.result.winner == "home"
    assert [(c.team, c.kind, c.player) for c in s.cards] == [("away", "exclusion", "9")]


def test_ice_hockey(tmp_path: Path) -> None:
    s = _play(tmp_path, "ice-hockey", ICE_HOCKEY)
    assert s.phase == "finished" and (s.home_goals, s.away_goals) == (2, 1)
    assert s.result is not None and s.result.winner == "home" and s.result.outcome == "regular"
    assert s.penalties == ()  # the power-play goal ended the minor


def test_indoor_football(tmp_path: Path) -> None:
    s = _play(tmp_path, "indoor-football", INDOOR_FOOTBALL)
    assert s.phase == "finished" and (s.home_goals, s.away_goals) == (2, 1)
    assert [(c.team, c.kind, c.player) for c in s.cards] == [("home", "sin_bin", "5")]


def test_youth_football_through_the_command_prints_what_replay_prints(tmp_path: Path) -> None:
    script = tmp_path / "youth.txt"
    script.write_text(YOUTH, encoding="utf-8")
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

"""No clock at boot: a Pi has no real-time clock and may start without network time, its wall clock years off
(or an hour back, from fake-hwclock). The real table is run with its wall clock moved by Debian's faketime
(LD_PRELOAD, the monotonic clock left true, as on a Pi): nothing it shows or sends may change."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bench.kill_table import ROOT
from firmware.journal import current_journal

SCRIPT = ROOT / "firmware" / "scripts" / "indoor-hockey.txt"
# Years off either way: a Pi that booted at 1970 plus its uptime, or one whose clock a bad server set ahead.
OFFSETS = ("-3650d", "+3650d")

pytestmark = pytest.mark.skipif(shutil.which("faketime") is None, reason="faketime not installed (.ci/run does)")


def _env(offset: str | None) -> dict[str, str]:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    if offset is not None:
        env["FAKETIME_DONT_FAKE_MONOTONIC"] = "1"  # a Pi's monotonic clock is right: only the wall clock is off
    return env


def _table(journal: Path, script: Path, speed: str, offset: str | None) -> list[str]:
    cmd = [sys.executable, "-m", "courtside", "table", "--rules", "indoor-hockey", "--court", "1", "--pins", "mock",
           "--headless", "--journal", str(journal), "--script", str(script), "--speed", speed, "--format", "json"]
    return (["faketime", "-f", offset] if offset is not None else []) + cmd


def _shown(stderr: str) -> list[str]:
    """What the headless screen drew (its lines start with the court), without the log lines."""
    return [line for line in stderr.splitlines() if line.startswith("[")]


def test_the_faked_clock_is_what_the_table_reads(tmp_path: Path) -> None:
    """The check below is real: under faketime the table's own process reads a clock years off."""
    probe = [sys.executable, "-c", "from firmware.session import wall_ms; print(wall_ms())"]
    true_ms = int(subprocess.run(probe, capture_output=True, text=True, check=True, cwd=ROOT).stdout)
    off_ms = int(subprocess.run(["faketime", "-f", "+3650d", *probe], capture_output=True, text=True, check=True,
                                cwd=ROOT, env=_env("+3650d")).stdout)
    assert off_ms - true_ms > 3600 * 24 * 3000 * 1000


def test_a_whole_match_shows_and_journals_the_same_whatever_the_wall_clock(tmp_path: Path) -> None:
    runs = {}
    for offset in (None, *OFFSETS):
        journal = tmp_path / f"journal{offset}"
        done = subprocess.run(_table(journal, SCRIPT, "0", offset), capture_output=True, text=True, cwd=ROOT,
                              env=_env(offset), timeout=120, check=True)
        path = current_journal(journal)
        assert path is not None
        # The journal is the outbox: its lines (header and events) are what the link sends.
        runs[offset] = (done.stdout, _shown(done.stderr), path.read_bytes())
    assert runs[OFFSETS[0]] == runs[None] and runs[OFFSETS[1]] == runs[None]
    assert runs[None][1], "the screen drew nothing"


def _kill_after_goal(cmd: list[str], env: dict[str, str]) -> None:
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env)
    assert proc.stderr is not None
    for line in proc.stderr:
        if "event Goal" in line:
            proc.send_signal(signal.SIGKILL)  # the power went: the card keeps the fsynced goal
            break
    proc.wait()


@pytest.mark.parametrize("offset", OFFSETS)
def test_a_table_restarted_in_real_time_with_the_clock_years_off_goes_on_where_it_was(tmp_path: Path,
                                                                                      offset: str) -> None:
    """At --speed 1 a restart lets what runs by itself (an interval, a time-out) go on for the time the table was
    down, from the wall clock; a clock years off must not carry the match years on (or back)."""
    script = tmp_path / "presses.txt"
    script.write_text("0 press clock_start\n1 type 7\n1 press goal_home\n4 wait\n", encoding="utf-8")
    calm = subprocess.run(_table(tmp_path / "calm", script, "1", None), capture_output=True, text=True, cwd=ROOT,
                          env=_env(None), timeout=60, check=True)
    journal = tmp_path / "journal"
    _kill_after_goal(_table(journal, script, "1", None), _env(None))
    again = subprocess.run(_table(journal, script, "1", offset), capture_output=True, text=True, cwd=ROOT,
                           env=_env(offset), timeout=60, check=False)
    assert again.returncode == 0, again.stderr[-2000:]
    assert "table restarted after an unknown time down" in again.stderr  # not "-315360000 s" nor 10 years
    final, calm_final = json.loads(again.stdout), json.loads(calm.stdout)
    assert final["home_goals"] == calm_final["home_goals"] == 1
    assert final["clock_ms"] == calm_final["clock_ms"]  # the clock where the script left it, not years on
    path = current_journal(journal)
    assert path is not None
    ats = [json.loads(line)["at"] for line in path.read_text(encoding="utf-8").splitlines()[1:]]
    assert ats == sorted(ats) and max(ats) < 10_000  # every instant within the 4 s the script lasts

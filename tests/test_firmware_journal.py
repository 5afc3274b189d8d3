"""The journal: one file per match in the event-log format, fsynced lines, a torn last line dropped."""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from firmware.errors import JournalError
from firmware.journal import (
    DISK_ALIVE_MS,
    Journal,
    Meta,
    current_journal,
    file_system_in_ram,
    read_alive,
    runtime_alive_path,
)
from rules.match.events import ClockStarted, Goal
from rules.match.header import LogHeader
from rules.match.log import read_log
from rules.ruleset import load_ruleset


def _journal(tmp_path: Path) -> Journal:
    header = LogHeader.for_match(load_ruleset("water-polo"), home="Hungary", away="Serbia", match_id="7", court="2")
    return Journal.create(tmp_path, "court-2-match-7", header, Meta(anchor_wall_ms=1, session_at_zero=0.0))


def test_a_journal_is_an_event_log_that_replay_reads_without_flags(tmp_path: Path) -> None:
    j = _journal(tmp_path)
    j.append(ClockStarted(at=0, seq=1))
    j.append(Goal(at=61_000, seq=2, team="away", player="7"))
    j.close()
    assert current_journal(tmp_path) == j.path
    out = subprocess.run([sys.executable, "-m", "courtside", "replay", "--events", str(j.path), "--format", "json"],
                         capture_output=True, text=True, check=True).stdout
    assert '"away_goals": 1' in out


def test_a_torn_last_line_is_dropped_with_a_warning_and_cut_off(tmp_path: Path,
                                                                caplog: pytest.LogCaptureFixture) -> None:
    j = _journal(tmp_path)
    j.append(ClockStarted(at=0, seq=1))
    j.close()
    whole = j.path.read_bytes()
    with open(j.path, "ab") as f:
        f.write(b'{"v": 2, "seq": 2, "at": 61000, "type": "go')  # the power went mid-write
    with caplog.at_level(logging.WARNING, logger="courtside.table"):
        again, parsed = Journal.recover(j.path)
    assert [e.type for e in parsed.events] == ["clock_started"]
    assert "torn last line" in caplog.text and "line 3" in caplog.text
    assert j.path.read_bytes() == whole  # truncated where the torn line began
    again.append(Goal(at=70_000, seq=2, team="home"))
    again.close()
    assert [e.seq for e in read_log(j.path.read_text(encoding="utf-8"), "j").events] == [1, 2]


def test_a_whole_last_line_without_its_newline_is_kept_and_ended(tmp_path: Path) -> None:
    j = _journal(tmp_path)
    j.close()
    with open(j.path, "ab") as f:
        f.write(b'{"v": 2, "seq": 1, "at": 0, "type": "clock_started"}')
    again, parsed = Journal.recover(j.path)
    again.append(Goal(at=5_000, seq=2, team="home"))
    again.close()
    assert [e.seq for e in read_log(j.path.read_text(encoding="utf-8"), "j").events] == [1, 2]
    assert len(parsed.events) == 1


def test_damage_before_the_last_line_is_an_error_not_a_silent_loss(tmp_path: Path) -> None:
    j = _journal(tmp_path)
    j.append(ClockStarted(at=0, seq=1))
    j.append(Goal(at=1_000, seq=2, team="home"))
    j.close()
    lines = j.path.read_text(encoding="utf-8").splitlines()
    lines[1] = lines[1][:10]
    j.path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(JournalError, match=r"line 2"):
        Journal.recover(j.path)


def test_alive_records_the_latest_instant_in_ram_each_time_and_on_the_card_now_and_then(tmp_path: Path) -> None:
    j = _journal(tmp_path)
    on_card = j.path.with_name("court-2-match-7.alive")
    j.alive(1_000, 100)
    j.alive(2_000, 1_100)
    assert json.loads(on_card.read_text(encoding="ascii"))["at"] == 1_000  # the card: once per DISK_ALIVE_MS
    j.alive(123_456, 100 + DISK_ALIVE_MS)
    j.alive(125_000, 200 + DISK_ALIVE_MS)  # in RAM only: the card's copy is 100 ms old
    j.alive(124_000, 300 + DISK_ALIVE_MS)  # a late press drawn at its own instant: the latest stays
    ram = runtime_alive_path(j.path)
    assert ram is not None and str(ram).startswith(os.environ["RUNTIME_DIRECTORY"])  # tests: a folder per test
    assert json.loads(ram.read_text(encoding="ascii"))["at"] == 125_000
    assert json.loads(on_card.read_text(encoding="ascii"))["at"] == 123_456
    alive = read_alive(j.path)
    assert alive is not None and alive.at == 125_000  # a kill now: RAM's, the later
    j.close()  # a clean stop: the card's copy exact, nothing left in RAM
    alive = read_alive(j.path)
    assert alive is not None and (alive.at, alive.wall_ms) == (125_000, 300 + DISK_ALIVE_MS)
    assert on_card.stat().st_size == 64 and json.loads(on_card.read_text(encoding="ascii"))["at"] == 125_000
    assert not ram.exists() and not ram.parent.exists()


def test_a_wall_clock_set_back_still_records_on_the_card(tmp_path: Path) -> None:
    j = _journal(tmp_path)
    on_card = j.path.with_name("court-2-match-7.alive")
    years = 10 * 365 * 86_400_000
    j.alive(1_000, years)  # booted with the clock ten years ahead
    j.alive(2_000, 5_000)  # network time came: the clock went back ten years
    assert json.loads(on_card.read_text(encoding="ascii"))["at"] == 2_000
    j.close()


def test_a_match_played_again_gets_its_own_journal(tmp_path: Path) -> None:
    first = _journal(tmp_path)
    second = _journal(tmp_path)
    assert first.path != second.path and second.path.name == "court-2-match-7~2.jsonl"
    first.close()
    second.close()


def _table_run(journal: Path) -> subprocess.CompletedProcess[str]:
    script = Path(__file__).resolve().parent.parent / "firmware" / "scripts" / "indoor-hockey.txt"
    return subprocess.run([sys.executable, "-m", "courtside", "table", "--rules", "indoor-hockey", "--court", "1",
                           "--pins", "mock", "--headless", "--journal", str(journal), "--script", str(script)],
                          capture_output=True, text=True, timeout=120, check=False)


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_a_garbage_middle_line_is_set_aside_with_a_notice_and_the_table_starts_clean(tmp_path: Path) -> None:
    """Issue 21, point 10: a journal refused at every start made the table restart in a loop (Restart=always)."""
    clean = _table_run(tmp_path / "clean")
    journal = tmp_path / "journal"
    assert _table_run(journal).returncode == 0
    path = current_journal(journal)
    assert path is not None
    lines = path.read_bytes().split(b"\n")
    lines[3] = b"\x00garbage{" + lines[3][:7]  # the card damaged in the middle: not a torn last line
    path.write_bytes(b"\n".join(lines))
    before = _files(journal)
    again = _table_run(journal)
    assert again.returncode == 0, again.stderr[-2000:]
    assert "line 4" in again.stderr and "nothing deleted" in again.stderr  # the log says what and where
    assert "info: journal unreadable: set aside in set-aside/1; new match" in again.stderr  # and the screen
    aside = journal / "set-aside" / "1"
    assert _files(aside) == before  # the journal, its meta, its heartbeat and "current": moved, not deleted
    assert again.stdout == clean.stdout  # a new match, played to the script's end as on a clean card
    third = _table_run(journal)  # the next start recovers the new journal: no loop, nothing set aside again
    assert third.returncode == 0 and not (journal / "set-aside" / "2").exists()
    assert "set aside" not in third.stderr


def test_a_journal_folder_in_ram_is_told_and_one_on_the_card_is_not(tmp_path: Path) -> None:
    mountinfo = tmp_path / "mountinfo"
    mountinfo.write_text(
        "22 1 254:1 / / rw,relatime shared:1 - ext4 /dev/mmcblk0p2 rw\n"
        "23 22 0:5 / /dev/shm rw shared:2 - tmpfs tmpfs rw\n"
        "24 22 254:3 / /var/lib/courtside rw,noatime shared:3 - ext4 /dev/mmcblk0p3 rw,commit=1\n"
        "25 1 0:30 / / rw shared:4 - overlay overlayroot rw,lowerdir=/media/root-ro\n", encoding="utf-8")
    # The last mount of / wins (the overlay over the card's root); a partition of its own stays on the card.
    assert file_system_in_ram(Path("/var/lib/courtside/journal"), str(mountinfo)) is None
    assert file_system_in_ram(Path("/home/pi/journal"), str(mountinfo)) == "overlay"
    assert file_system_in_ram(Path("/dev/shm/journal"), str(mountinfo)) == "tmpfs"


def test_the_table_says_so_at_start_when_its_journal_is_in_ram(tmp_path: Path) -> None:
    if file_system_in_ram(Path("/dev/shm")) != "tmpfs":
        pytest.skip("no tmpfs at /dev/shm here")
    journal = Path("/dev/shm") / f"courtside-test-{os.getpid()}" / "journal"
    try:
        done = _table_run(journal)
        assert done.returncode == 0
        assert f"the journal folder {journal} is on tmpfs, in RAM: a power cut loses the match" in done.stderr
        assert "in RAM" not in _table_run(tmp_path / "journal").stderr  # a folder on the disk: nothing said
    finally:
        shutil.rmtree(journal.parent, ignore_errors=True)

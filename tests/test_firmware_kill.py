"""Power cuts at the table, the short version of bench/kill_table.py (1,000 kills: docs/reliability.md)."""

from __future__ import annotations

from pathlib import Path

from bench.kill_table import campaign


def test_killed_tables_keep_every_event_they_showed_and_double_none(tmp_path: Path) -> None:
    report = campaign(12, seed=7, workdir=tmp_path)
    assert report.kills == 12
    assert report.problems == []
    assert report.events_shown > 0 and report.events_lost == 0 and report.events_doubled == 0
    assert report.replay_failures == 0

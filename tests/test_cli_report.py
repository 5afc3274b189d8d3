"""``courtside report``: a match's report from its event log alone, no server or database."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from pypdf import PdfReader

from courtside.cli import main

EXAMPLES = Path(__file__).resolve().parent.parent / "rules" / "examples"


def _text(path: Path) -> str:
    return " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(path.read_bytes())).pages).split())


def test_the_example_logs_report_names_its_teams_events_result_and_signatures(tmp_path: Path) -> None:
    out = tmp_path / "report.pdf"
    assert main(["report", str(EXAMPLES / "ice-hockey.jsonl"), "--out", str(out), "--tournament", "Spring cup"]) == 0
    text = _text(out)
    assert text.startswith("Match report · Spring cup Match 1 · pool · Rink · ice-hockey Wolves AA 2-1 Bears AA")
    assert "Decided in regular time. Winner: Wolves AA." in text
    assert "Period 1 2:50 Bears AA Goal #17 0-1" in text and "Period 2 3:00 Bears AA Minor #22 (2:00) 1-1" in text
    assert all(f"{role}: name" in text for role in ("Referee", "Table official", "Home team official"))
    assert "Table's journal: 15 events, sha256 " in text


def test_a_log_without_its_header_or_one_that_does_not_replay_is_refused_at_its_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = (EXAMPLES / "ice-hockey.jsonl").read_text(encoding="utf-8").splitlines()
    bare = tmp_path / "bare.jsonl"
    bare.write_text("\n".join(lines[1:]) + "\n", encoding="utf-8")
    assert main(["report", str(bare)]) == 2
    assert "bare.jsonl, line 1: the log has no header" in capsys.readouterr().err
    wrong = tmp_path / "wrong.jsonl"
    wrong.write_text("\n".join([*lines, lines[2].replace('"seq": 2', '"seq": 99')]) + "\n", encoding="utf-8")
    assert main(["report", str(wrong)]) == 2
    assert f"wrong.jsonl, line {len(lines) + 1}:" in capsys.readouterr().err
    assert not (tmp_path / "wrong.pdf").exists() and not (tmp_path / "bare.pdf").exists()

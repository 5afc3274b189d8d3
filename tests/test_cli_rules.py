"""``courtside rules list|show|check`` as an organiser runs them."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from courtside.cli import main
from rules.ruleset import PRESETS


def test_list_names_every_preset(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "list"]) == 0
    listed = [line.split()[0] for line in capsys.readouterr().out.splitlines()]
    assert listed == list(PRESETS)


def test_show_prints_the_preset_with_its_comments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "show", "ice-hockey"]) == 0
    text = capsys.readouterr().out
    assert tomllib.loads(text)["name"] == "ice-hockey"
    assert '"minor - two (2) minutes"' in text


def test_check_accepts_a_good_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(["rules", "show", "youth-football"])
    path = tmp_path / "cup.toml"
    path.write_text(capsys.readouterr().out)
    assert main(["rules", "check", str(path)]) == 0
    assert "ok" in capsys.readouterr().out


def test_check_refuses_a_wrong_file_naming_file_key_and_reason(tmp_path: Path) -> None:
    path = tmp_path / "cup.toml"
    done = subprocess.run(
        [sys.executable, "-m", "courtside.cli", "rules", "show", "indoor-football"],
        capture_output=True, text=True, check=True,
    )
    path.write_text(done.stdout.replace('period_length = "10:00"', 'period_length = "ten"'))
    done = subprocess.run(
        [sys.executable, "-m", "courtside.cli", "rules", "check", str(path)],
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 2
    assert f"{path}: match.period_length:" in done.stderr
    assert "M:SS" in done.stderr
    assert done.stdout == ""


def test_show_without_a_name_lists_the_presets_it_knows(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "show"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "courtside rules show NAME" in lines[0]
    assert [line.split()[0] for line in lines[1:]] == list(PRESETS)


def test_check_names_the_limit_of_a_file_too_large_for_a_ruleset(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "huge.toml"
    path.write_bytes(b"# padding\n" * 100_000)
    assert main(["rules", "check", str(path)]) == 2
    err = capsys.readouterr().err
    assert str(path) in err and "262,144 bytes" in err


def test_show_prints_what_the_mutual_matches_count_with_its_source(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "show", "youth-football"]) == 0
    text = capsys.readouterr().out
    assert tomllib.loads(text)["ranking"]["mutual"] == "points"
    assert 'c) "Inbördes möten" names no measure' in text

"""rules.files.read_text: the one way to read a user's file; and replay's --at instant."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from courtside.cli import main
from courtside.commands.replay import match_instant
from rules.errors import FileLineError
from rules.files import read_text


def test_a_spreadsheet_byte_order_mark_is_not_part_of_the_text(tmp_path: Path) -> None:
    path = tmp_path / "results.csv"
    path.write_bytes(b"\xef\xbb\xbfpool,home\n")
    assert read_text(str(path)) == "pool,home\n"


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(FileLineError, match=r"nothing\.csv: cannot read the file"):
        read_text(str(tmp_path / "nothing.csv"))


def test_text_that_is_not_utf8_is_named_by_its_line(tmp_path: Path) -> None:
    path = tmp_path / "results.csv"
    path.write_bytes(b"pool,home\nA,K\xf6ln\n")  # Latin-1 from an old spreadsheet
    with pytest.raises(FileLineError) as caught:
        read_text(str(path))
    assert (caught.value.line, caught.value.message) == (2, "not UTF-8 text (byte 0xf6)")


@pytest.mark.parametrize(
    "argv",
    [
        ["tournament", "show", "{bad}", "--results", "{bad}"],
        ["tournament", "schedule", "{bad}"],
        ["standings", "--rules", "indoor-hockey", "--results", "{bad}"],
        ["replay", "--rules", "ice-hockey", "--events", "{bad}"],
    ],
)
def test_every_command_refuses_such_a_file_without_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    bad = tmp_path / "latin1.txt"
    bad.write_bytes(b"name = \"K\xf6ln\"\n")
    assert main([a.format(bad=bad) for a in argv]) == 2
    err = capsys.readouterr().err
    # the tournament and ruleset readers (rules/tomlfile.py) word it "FILE: line 1: ..."
    assert err.startswith(f"courtside: {bad}") and "line 1" in err and "not UTF-8 text (byte 0xf6)" in err
    assert err.count("\n") == 1


def test_a_file_larger_than_its_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "results.csv"
    with path.open("wb") as f:  # a sparse 50 MB file: refused on its size, not read
        f.truncate(50 * 1024 * 1024)
    with pytest.raises(FileLineError) as caught:
        read_text(str(path), max_bytes=2 * 1024 * 1024)
    assert caught.value.message == "the file is 50 MB; a file of this kind is at most 2 MB"


def test_a_device_is_refused_before_a_byte_is_read() -> None:
    with pytest.raises(FileLineError, match="a device, not a file"):
        read_text("/dev/zero", max_bytes=1024)


EXAMPLES = Path(__file__).resolve().parent.parent / "rules" / "examples"


@pytest.mark.parametrize(
    "argv",
    [
        ["tournament", "show", "{fifo}", "--results", str(EXAMPLES / "indoor-hockey-results.csv")],
        ["tournament", "show", str(EXAMPLES / "indoor-hockey.toml"), "--results", "{fifo}"],
        ["standings", "--rules", "indoor-hockey", "--results", "{fifo}"],
        ["replay", "--rules", "ice-hockey", "--events", "{fifo}"],
        ["rules", "check", "{fifo}"],
        ["server", "--tournament", "{fifo}", "--db", "{tmp}/c.db"],
        ["table", "--rules", "indoor-hockey", "--court", "1", "--buttons", "{fifo}", "--journal", "{tmp}/j",
         "--pins", "mock"],
        ["table", "--rules", "indoor-hockey", "--court", "1", "--script", "{fifo}", "--journal", "{tmp}/j",
         "--pins", "mock"],
    ],
)
def test_every_reader_refuses_a_named_pipe_at_once(tmp_path: Path, argv: list[str]) -> None:
    """Issue 21: a results file that was a named pipe hung the command for ever (open() waits for a writer)."""
    import os
    import subprocess
    import sys

    fifo = tmp_path / "input"
    os.mkfifo(fifo)
    args = [a.format(fifo=fifo, tmp=tmp_path) for a in argv]
    try:
        done = subprocess.run([sys.executable, "-m", "courtside", *args], capture_output=True, text=True,
                              timeout=60, check=False)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"courtside {' '.join(argv)} waited on the pipe") from None
    assert done.returncode == 2, done.stderr
    assert "a named pipe, not a file" in done.stderr and "Traceback" not in done.stderr


def test_more_lines_than_the_limit_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "decisions.csv"
    path.write_text("pool,method,order\n" + "A,lots,X>Y\n" * 10)
    with pytest.raises(FileLineError, match="the file has 11 lines; a file of this kind has at most 10"):
        read_text(str(path), max_lines=10)
    assert read_text(str(path), max_lines=11).count("\n") == 11


@pytest.mark.parametrize(("data", "line", "message"), [
    (b"pool,home\nA,Ka\x00rl\n", 2, "control character U+0000 in the text"),
    (b"pool,home\n\nA,\x1b[31mRed\n", 3, "control character U+001B in the text"),
    ("pool\nA\u0085\n".encode(), 2, "control character U+0085 in the text"),
    (b"\xff\xfep\x00o\x00", 1, "the file is UTF-16 text; save it as UTF-8"),
])
def test_binary_and_control_characters_are_named_by_line(tmp_path: Path, data: bytes, line: int, message: str) -> None:
    path = tmp_path / "results.csv"
    path.write_bytes(data)
    with pytest.raises(FileLineError) as caught:
        read_text(str(path))
    assert (caught.value.line, caught.value.message) == (line, message)


def test_tabs_and_windows_line_ends_are_text(tmp_path: Path) -> None:
    path = tmp_path / "results.csv"
    path.write_bytes(b"pool,home\r\nA,\tKarl\r\n")
    assert read_text(str(path)) == "pool,home\r\nA,\tKarl\r\n"


def test_a_folder_is_named_not_a_traceback(tmp_path: Path) -> None:
    with pytest.raises(FileLineError, match="cannot read the file"):
        read_text(str(tmp_path))


@pytest.mark.parametrize("text", ["nan", "inf", "-1", "86401", "1e400", "1" * 5000, "ten"])
def test_an_instant_beyond_any_match_is_refused(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError):
        match_instant(text)


def test_an_instant_within_a_match_is_seconds() -> None:
    assert match_instant("2400") == 2400.0
    assert match_instant("0.5") == 0.5


def test_a_name_no_file_can_have_is_named_not_a_traceback() -> None:
    # found by the command-line fuzz: `--results $'\x00'` raised ValueError (embedded null byte)
    with pytest.raises(FileLineError, match="a NUL character in its name"):
        read_text("results\x00.csv")

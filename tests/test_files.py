"""courtside.files.read_text: the commands' one way to read a user's file."""

from __future__ import annotations

from pathlib import Path

import pytest

from courtside.cli import main
from courtside.files import read_text
from rules.errors import FileLineError


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
    assert f"{bad}, line 1: not UTF-8 text (byte 0xf6)" in capsys.readouterr().err

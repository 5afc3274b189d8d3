"""Reading the user's input files for the commands: one place for the ways that goes wrong."""

from __future__ import annotations

from pathlib import Path

from rules.errors import FileLineError


def read_text(path: str) -> str:
    """The file as text; a missing, unreadable or non-UTF-8 file is a clear error naming it.

    utf-8-sig: a spreadsheet's "CSV UTF-8" starts with a byte-order mark, which would
    otherwise become part of the first column's name.
    """
    try:
        data = Path(path).read_bytes()
    except OSError as err:
        raise FileLineError(path, None, f"cannot read the file ({err.strerror})") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        raise FileLineError(path, line, f"not UTF-8 text (byte 0x{data[err.start]:02x})") from None

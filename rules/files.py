"""Reading the user's input files: one place for the ways that goes wrong.

The commands and the table read their files (tournament, results, decisions, event logs,
scripts) through :func:`read_text`, which refuses, naming the file (and the line where there is one):

* a file it cannot open (missing, a folder, no permission), or a path that is no regular
  file (a named pipe would block for ever, a device could feed bytes without end);
* a file larger than the limit for its kind, before a byte of it is read (the size
  is checked with ``stat``, then at most one byte more than the limit is read, so a
  pipe or a device cannot feed it without end);
* text that is not UTF-8 (a file saved as UTF-16 is named as such); a UTF-8
  byte-order mark at the start is dropped, as a spreadsheet's "CSV UTF-8" writes one;
* control characters other than tab, line feed and carriage return (a NUL from a
  binary file or a damaged copy), with their line;
* more lines than the limit for its kind.

The limits are far above any real tournament's files: see ``docs/reliability.md``.
"""

from __future__ import annotations

import os
import re

from rules.errors import FileLineError
from rules.tomlfile import open_file

MAX_BYTES = 8 * 1024 * 1024
"""Default size limit: an event log of 10,000 events is about 1.5 MB, a 1,700-team tournament file 0.2 MB."""

MAX_LINES = 100_000
"""Default line limit (a 40-minute match logs about 2,000 events)."""

MAX_RESULTS_BYTES = 2 * 1024 * 1024
"""A results file: 20,000 lines of about 100 bytes; the largest tournaments need a quarter of that."""

MAX_DECISIONS_BYTES = 1024 * 1024
"""A decisions file: a line per tie the results cannot break, a few dozen in a large tournament."""

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def _size_text(n: int) -> str:
    return f"{n / (1024 * 1024):.0f} MB" if n >= 1024 * 1024 else f"{n // 1024} KB" if n >= 1024 else f"{n} bytes"


def read_bytes(path: str, *, max_bytes: int = MAX_BYTES) -> bytes:
    """The file's bytes; refused before reading when it is larger than ``max_bytes``."""
    try:
        f = open_file(path)  # a named pipe or a device is refused here, before it can block or flood
    except OSError as err:
        raise FileLineError(path, None, f"cannot read the file ({err.strerror or err})") from None
    except ValueError:  # a NUL in the name: no file can have it
        raise FileLineError(repr(path), None, "cannot read the file (a NUL character in its name)") from None
    with f:
        try:
            size = os.fstat(f.fileno()).st_size
            data = b"" if size > max_bytes else f.read(max_bytes + 1)
        except OSError as err:  # a folder opens, then fails to read
            raise FileLineError(path, None, f"cannot read the file ({err.strerror or err})") from None
    if size > max_bytes:
        found, most = _size_text(size), _size_text(max_bytes)
        raise FileLineError(path, None, f"the file is {found}; a file of this kind is at most {most}")
    if len(data) > max_bytes:
        raise FileLineError(
            path, None, f"the file is larger than {_size_text(max_bytes)}, the most for a file of this kind"
        )
    return data


def decode_text(data: bytes, source: str, *, max_lines: int = MAX_LINES) -> str:
    """``data`` as text, with the checks of :func:`read_text`; ``source`` names it in errors."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise FileLineError(source, 1, "the file is UTF-16 text; save it as UTF-8")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        raise FileLineError(source, line, f"not UTF-8 text (byte 0x{data[err.start]:02x})") from None
    lines = text.count("\n") + (not text.endswith("\n"))
    if lines > max_lines:
        raise FileLineError(source, None, f"the file has {lines} lines; a file of this kind has at most {max_lines}")
    bad = _CONTROL.search(text)
    if bad is not None:
        line = text.count("\n", 0, bad.start()) + 1
        raise FileLineError(source, line, f"control character U+{ord(bad.group()):04X} in the text")
    return text


def read_text(path: str, *, max_bytes: int = MAX_BYTES, max_lines: int = MAX_LINES) -> str:
    """The file as text; a missing, oversized, non-UTF-8 or binary file is a clear error naming it."""
    return decode_text(read_bytes(path, max_bytes=max_bytes), path, max_lines=max_lines)


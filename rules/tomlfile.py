"""Reading a TOML file a user wrote: every way the bytes can be wrong, as one sentence.

Rulesets and tournament files go through :func:`decode_toml`, which refuses, before
parsing, a file larger than any real one (so a 50 MB file is refused at once, naming
the limit), text that is not UTF-8 (naming the line and the byte), and turns the
parser's own failures (a syntax error, nesting deep enough to exhaust Python's
recursion, an integer of thousands of digits) into the same kind of refusal.

A byte-order mark is accepted and skipped: Windows editors write one in front of
UTF-8 text, and it carries no meaning.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any, BinaryIO

BOM = b"\xef\xbb\xbf"


class DocumentError(ValueError):
    """The file cannot be read as a TOML document; ``line`` is where, when known."""

    def __init__(self, message: str, line: int | None = None) -> None:
        self.line = line
        super().__init__(f"line {line}: {message}" if line is not None else message)


class NotAFile(OSError):
    """The path names a named pipe, a device, a socket or a folder: nothing to read a document from."""


_KINDS = ((stat.S_ISFIFO, "a named pipe"), (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"),
          (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a folder"))


def open_file(path: str | Path) -> BinaryIO:
    """``path`` opened for reading if it is a regular file; anything else is refused at once. A named pipe
    would block (in open, then in read) until something wrote to it, for ever under a service manager, and
    a device could feed bytes without end. Opened without blocking, checked, then read as usual."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
            raise NotAFile(0, f"{kind}, not a file")
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_bytes(path: str | Path, max_bytes: int) -> bytes:
    """The file's bytes, refusing a missing file or one larger than ``max_bytes`` without reading it all."""
    try:
        with open_file(path) as f:
            raw = f.read(max_bytes + 1)
    except OSError as err:
        raise DocumentError(f"cannot read the file ({err.strerror or err})") from None
    if len(raw) > max_bytes:
        raise DocumentError(f"larger than {max_bytes:,} bytes, the most a file of this kind may hold")
    return raw


def decode_text(raw: bytes, max_bytes: int, max_lines: int) -> str:
    if len(raw) > max_bytes:
        raise DocumentError(f"larger than {max_bytes:,} bytes, the most a file of this kind may hold")
    if raw.startswith(BOM):
        raw = raw[len(BOM) :]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = raw.count(b"\n", 0, err.start) + 1
        raise DocumentError(f"not UTF-8 text (byte 0x{raw[err.start]:02x}); save the file as UTF-8", line) from None
    lines = text.count("\n") + 1
    if lines > max_lines:
        raise DocumentError(f"{lines:,} lines; a file of this kind has at most {max_lines:,}")
    return text


def parse_toml(text: str, max_lines: int) -> dict[str, Any]:
    import tomllib  # only a file that is read pays for the parser

    lines = text.count("\n") + 1
    if lines > max_lines:
        raise DocumentError(f"{lines:,} lines; a file of this kind has at most {max_lines:,}")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise DocumentError(f"not valid TOML: {err}") from None
    except RecursionError:
        raise DocumentError("not valid TOML here: arrays or tables nested too deeply") from None
    except ValueError as err:  # int() of a number with thousands of digits
        raise DocumentError(f"not valid TOML: {err}") from None


def decode_toml(raw: bytes | str, max_bytes: int, max_lines: int) -> dict[str, Any]:
    """The document in ``raw`` (bytes of a file, or text already decoded)."""
    if isinstance(raw, str):
        if len(raw) > max_bytes:
            raise DocumentError(f"larger than {max_bytes:,} characters, the most a file of this kind may hold")
        return parse_toml(raw.removeprefix("\ufeff"), max_lines)
    return parse_toml(decode_text(raw, max_bytes, max_lines), max_lines)

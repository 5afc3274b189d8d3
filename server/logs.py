"""Structured log lines for journald: one line per event, ``event=NAME key=value ...``.

Values with spaces or quotes are quoted (JSON string syntax), so ``journalctl -u courtside-server``
can be filtered with grep and parsed back. Goes to stderr, which systemd hands to the journal.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Sequence
from typing import Any, TextIO

_QUOTED = re.compile(r'[ "=\n\t\\]')


def _value(value: Any) -> str:
    if isinstance(value, int) and not isinstance(value, bool):  # most values: a seq, a count
        return str(value)
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    if text == "" or _QUOTED.search(text):
        return json.dumps(text, ensure_ascii=False)
    return text


def line(event: str, **fields: Any) -> str:
    parts = [f"event={event}"]
    parts.extend(f"{key}={_value(value)}" for key, value in fields.items() if value is not None)
    return " ".join(parts)


def log(event: str, stream: TextIO | None = None, /, **fields: Any) -> None:
    print(line(event, **fields), file=stream or sys.stderr, flush=True)


def log_lines(lines: Sequence[str], stream: TextIO | None = None, /) -> None:
    """Lines made by :func:`line`, in one write: a batch's lines wake journald once, not once each."""
    if lines:
        out = stream or sys.stderr
        out.write("\n".join(lines) + "\n")
        out.flush()

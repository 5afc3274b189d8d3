"""Logging to stderr in a form journald keeps: one line per record, with a priority prefix under systemd."""

from __future__ import annotations

import logging
import os
import sys

_PRIORITY = {logging.DEBUG: 7, logging.INFO: 6, logging.WARNING: 4, logging.ERROR: 3, logging.CRITICAL: 2}


class _JournalFormatter(logging.Formatter):
    """``<6>courtside.table: ...``: journald reads the ``<N>`` prefix as the syslog priority."""

    def format(self, record: logging.LogRecord) -> str:
        return f"<{_PRIORITY.get(record.levelno, 6)}>{super().format(record)}"


def setup_logging(level: str = "info") -> None:
    handler = logging.StreamHandler(sys.stderr)
    if os.environ.get("JOURNAL_STREAM"):  # stderr is connected to journald: it adds the time itself
        handler.setFormatter(_JournalFormatter("%(name)s: %(message)s"))
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger("courtside")
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    root.propagate = False

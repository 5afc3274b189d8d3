"""Message ids the service makes (its acks, errors, tables and schedules)."""

from __future__ import annotations

import itertools
import uuid

ID_PREFIX = uuid.uuid4().hex[:16]
"""Drawn once per process: its messages' ids start with it (the watch knows its own instance's by it)."""
_counter = itertools.count()


def new_id() -> str:
    """A message id unique across processes and restarts: a random prefix drawn once, then a counter.
    (uuid4 per message read the kernel's random source each time: a tenth of an ack's cost.)"""
    return f"{ID_PREFIX}{next(_counter):016x}"

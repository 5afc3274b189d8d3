"""The table's clock: session seconds, real (scaled by ``--speed N``) or virtual (``--speed 0``).

Match instants are whole milliseconds since the match's own epoch (docs/events.md);
``firmware.loop`` turns session seconds into them. A virtual clock only moves when
the loop has nothing to do: it jumps to the next thing due, so a scripted 40-minute
match runs as fast as the machine can apply its presses.
"""

from __future__ import annotations

import queue
import time
from typing import TypeVar

T = TypeVar("T")


class TableClock:
    def __init__(self, *, speed: float = 1.0, start: float = 0.0) -> None:
        if speed < 0:
            raise ValueError("speed cannot be negative")
        self.speed = speed
        self._start = start
        self._virtual = start
        self._mono0 = time.monotonic()

    @property
    def virtual(self) -> bool:
        return self.speed == 0

    def seconds(self) -> float:
        """Session seconds now (safe to read from any thread)."""
        if self.speed == 0:
            return self._virtual
        return self._start + (time.monotonic() - self._mono0) * self.speed

    def advance_to(self, at: float) -> None:
        """Virtual clock only: move to ``at`` (never backwards)."""
        if self.speed == 0 and at > self._virtual:
            self._virtual = at

    def wait(self, q: queue.Queue[T], until: float | None) -> T | None:
        """The next item of ``q``, or None once session second ``until`` has come (None: wait for an item).

        A real clock sleeps in ``q.get``, so an item wakes it at once; a virtual clock
        jumps to ``until`` when the queue is empty.
        """
        if self.speed == 0:
            try:
                return q.get_nowait()
            except queue.Empty:
                if until is None:
                    return q.get()
                self.advance_to(until)
                return None
        if until is None:
            return q.get()
        timeout = (until - self.seconds()) / self.speed
        if timeout <= 0:
            try:
                return q.get_nowait()
            except queue.Empty:
                return None
        try:
            return q.get(timeout=timeout)
        except queue.Empty:
            return None

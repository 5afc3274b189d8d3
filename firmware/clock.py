r"""The table's clock: session seconds, real (scaled by ``--speed N``) or virtual (``--speed 0``).

Match instants are whole milliseconds since the match's own epoch (docs/events.md);
``firmware.loop`` turns session seconds into them. A virtual clock only moves when
the loop has nothing to do: it jumps to the next thing due, so a scripted 40-minute
match runs as fast as the machine can apply its presses.

A real clock made ``frozen`` stands at ``start`` until :meth:`TableClock.begin` (the loop's
first turn), so at ``--speed 400`` the second or so of start-up is not 400 s of the match
gone before a press script's first line. While a press script line is played its instant is
:meth:`TableClock.stamp`\ ed on the clock, so the edges gpiozero's callbacks time with
:meth:`seconds` carry the line's own instant, not the instant a busy loop got round to it;
a hold is timed from its edges, so a script ends the same at every speed. At a script's cue
the clock :meth:`TableClock.stand`\ s still, at any speed.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TypeVar

T = TypeVar("T")


class TableClock:
    def __init__(self, *, speed: float = 1.0, start: float = 0.0, frozen: bool = False) -> None:
        if speed < 0:
            raise ValueError("speed cannot be negative")
        self.speed = speed
        self._start = start
        self._virtual = start
        self._mono0: float | None = None if frozen else time.monotonic()
        self._stamp: float | None = None
        self._standing: float | None = None

    def begin(self) -> None:
        """A frozen clock starts running from ``start`` now (no effect otherwise)."""
        if self._mono0 is None:
            self._mono0 = time.monotonic()

    @contextmanager
    def stamp(self, at: float) -> Iterator[None]:
        """While inside, :meth:`seconds` reads ``at`` (a script line's instant, for the callbacks it runs)."""
        self._stamp = at
        try:
            yield
        finally:
            self._stamp = None

    def stand(self, q: queue.Queue[T], real_s: float, at: float) -> T | None:
        """The next item of ``q`` within ``real_s`` real seconds, the clock reading ``at`` meanwhile and going
        on from ``at`` after (a press script's cue: its time stands still, then goes on without a burst)."""
        self._standing = at
        try:
            return q.get(timeout=real_s)
        except queue.Empty:
            return None
        finally:
            self._standing = None
            if self.speed > 0 and self._mono0 is not None:
                self._start, self._mono0 = at, time.monotonic()

    @property
    def virtual(self) -> bool:
        return self.speed == 0

    def seconds(self) -> float:
        """Session seconds now (safe to read from any thread)."""
        if self._stamp is not None:
            return self._stamp
        if self._standing is not None:
            return self._standing
        if self.speed == 0:
            return self._virtual
        if self._mono0 is None:
            return self._start
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

"""When the service's loop publishes the tables and schedules that a burst of messages changed.

A single result (a goal entered, then the match's result) is published as soon as the messages stop:
QUIET after the last one, the latency path. A burst (tables catching up after a broker restart, a
whole venue reconnecting) would otherwise publish after every pause of a few milliseconds, and each
publishing re-ranks every pool the burst touched and rebuilds every court's schedule: the burst
would spend more time publishing tables that its next messages change again than storing them.
So both waits grow with what publishing the pending tables and schedules should take (learned from
the last publishings, per table or schedule): the loop waits for more messages up to half of that
(at most MAX_QUIET), and while messages keep coming it holds the changes back up to ten times that
(at least PUBLISH_WITHIN, at most MAX_HOLD), so publishing takes at most a tenth of a busy loop.
Pure: the loop passes in what it saw and the times; nothing here reads a clock.
"""

from __future__ import annotations

QUIET = 0.003
"""Seconds without a message after which a burst is over: a burst's messages come well under a
millisecond apart, and a table sends a match's last event and its result back to back."""
MAX_QUIET = 0.1
"""Seconds without a message after which a burst is over, however long publishing takes."""
PUBLISH_WITHIN = 0.05
"""Seconds a burst may hold back the tables and schedules it changed, at least."""
MAX_HOLD = 1.0
"""Seconds a burst may hold them back at most: the standings follow the courts within a second."""


class Pacing:
    def __init__(self, per_item: float = 0.002) -> None:
        self.per_item = per_item
        """Seconds publishing takes per table or schedule, a running average of the last publishings."""

    def cost(self, pending: int) -> float:
        return self.per_item * pending

    def quiet_after(self, pending: int) -> float:
        """Seconds to wait for another message before the ``pending`` tables and schedules are published."""
        return min(MAX_QUIET, max(QUIET, self.cost(pending) / 2))

    def due(self, pending: int, *, quiet: bool, held: float) -> bool:
        """Publish now? ``quiet``: no message came within :meth:`quiet_after`; ``held``: seconds since the
        oldest pending change's message came."""
        if pending == 0:
            return False
        return quiet or held >= min(MAX_HOLD, max(PUBLISH_WITHIN, 10 * self.cost(pending)))

    def published(self, items: int, took: float) -> None:
        """Publishing ``items`` tables and schedules took ``took`` seconds."""
        if items > 0:
            self.per_item = (self.per_item + took / items) / 2

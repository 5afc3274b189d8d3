"""When the service's loop publishes the tables and schedules that a burst of messages changed.

A single result (a goal entered, then the match's result) is published as soon as the messages stop:
QUIET after the last one, the latency path. In a burst (tables catching up after a broker restart, a
whole venue reconnecting) a pause of a few milliseconds starts a publishing too, but one that gives
way to the next message (the service checks between groups of tables) and goes on at the next pause:
it only uses time the loop would spend waiting. While messages keep coming without a pause, the
changes are held up to ten times what publishing them should take (learned from the last publishings,
per table or schedule; at least PUBLISH_WITHIN, at most MAX_HOLD), then published whole, so publishing
takes at most a tenth of a busy loop.
Pure: the loop passes in what it saw and the times; nothing here reads a clock.
"""

from __future__ import annotations

QUIET = 0.003
"""Seconds without a message after which a burst is over: a burst's messages come well under a
millisecond apart, and a table sends a match's last event and its result back to back."""
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

    def hold(self, pending: int) -> float:
        """Seconds the ``pending`` tables and schedules may wait while messages keep coming."""
        return min(MAX_HOLD, max(PUBLISH_WITHIN, 10 * self.cost(pending)))

    def due(self, pending: int, *, quiet: bool, held: float) -> bool:
        """Publish now? ``quiet``: no message came within QUIET; ``held``: seconds since the oldest pending
        change's message came."""
        return pending > 0 and (quiet or held >= self.hold(pending))

    def held_too_long(self, pending: int, *, held: float) -> bool:
        """Publish all of it now, even with messages waiting (publishing in a pause gives way to them)."""
        return pending > 0 and held >= self.hold(pending)

    def published(self, items: int, took: float) -> None:
        """Publishing ``items`` tables and schedules took ``took`` seconds."""
        if items > 0:
            self.per_item = (self.per_item + took / items) / 2

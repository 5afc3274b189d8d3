"""What applying a command did, for the operator's feedback: :class:`Applied`."""

from __future__ import annotations

from typing import Any, Literal

from rules.match.events import Event
from rules.record import Record, field

AppliedKind = Literal["accepted", "late_press", "duplicate"]


class Applied(Record):
    """The event as logged (``seq`` set) and what the match made of it.

    ``kind``: ``accepted``; ``late_press`` (taken as meant for the period that just
    ran out: it changed nothing but is logged); ``duplicate`` (the same event delivered
    again under its seq, as MQTT's at-least-once may: a no-op). ``message_key`` and
    ``params`` (data, not prose) are turned into words by rules.words.state.applied_text.
    """

    event: Event
    kind: AppliedKind
    message_key: str
    params: dict[str, Any] = field(default_factory=dict)

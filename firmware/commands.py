"""What goes on the table's one queue: every source (GPIO callbacks, keys, the MQTT link,
a press script) only builds one of these and puts it there; the main loop does the rest.

Instants are *session seconds* (``firmware.clock.TableClock.seconds``), read by the
source when the thing happened, so a press is stamped when the button went down,
however busy the loop was.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules import CourtSchedule


@dataclass(frozen=True, kw_only=True)
class Edge:
    """A button's pin went down (``pressed``) or up."""

    button: str
    pressed: bool
    at: float


@dataclass(frozen=True, kw_only=True)
class Key:
    """A key of a keyboard or USB keypad: ``name`` as pygame names it ("f3", "return", "[+]"),
    ``text`` the character it typed ("7", "A"; "" for keys that type nothing)."""

    name: str
    text: str
    at: float


@dataclass(frozen=True, kw_only=True)
class ScheduleUpdate:
    """The service pushed this court's schedule (the matches still to play)."""

    schedule: CourtSchedule


@dataclass(frozen=True, kw_only=True)
class LinkMessage:
    """Anything else the link needs done in the loop's thread (an acknowledgement marking the
    outbox, the online/offline mark: firmware.link.LinkNews): the loop calls ``link.handle(payload)``
    and redraws."""

    payload: Any


@dataclass(frozen=True, kw_only=True)
class Stop:
    """Leave the loop (SIGTERM, Ctrl-C, the end of a press script)."""

    reason: str = ""


Command = Edge | Key | ScheduleUpdate | LinkMessage | Stop

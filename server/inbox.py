"""What the service's loop takes from its inbox: paho's network thread, the watch and the web desk only put
these records there (server.service), and the loop alone acts on them."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, NamedTuple

from server.watch import Watched


class Received(NamedTuple):
    """A message from the broker, and when it came (monotonic)."""

    topic: str
    payload: bytes
    at: float


@dataclass
class Waiting:
    """A result kept waiting for events another instance took: the message to read again, the timer that will
    say so if no ack does first, how many timers have run, and whether a re-read is on the inbox already."""

    received: Received
    timer: threading.Timer
    times: int = 0
    queued: bool = False


class Recheck(NamedTuple):
    """A waiting result's timer ran: read it again (its court and match)."""

    court: str
    match: str


class Connected(NamedTuple):
    reason: str
    accepted: bool  # False: the broker answered and refused us (credentials, ACL)


class Disconnected(NamedTuple):
    reason: str


class Subscribed(NamedTuple):
    """The broker granted the service's subscriptions (SUBACK): only now is a table's message not dropped."""


class Unreachable(NamedTuple):
    """A try to connect failed (paho tries again every 1-5 s)."""


class Call(NamedTuple):
    """``step`` to run on the loop's thread (the desk's changes); its outcome goes to ``done``."""

    step: Callable[[], Any]
    done: Future[Any]


class Stop(NamedTuple):
    """Wakes the loop to see that it must stop."""


Item = Received | Connected | Subscribed | Disconnected | Unreachable | Call | Stop | Watched | Recheck

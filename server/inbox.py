"""What the service's loop takes from its inbox: paho's network thread, the watch and the web desk only put
these records there (server.service), and the loop alone acts on them."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, NamedTuple

from server.watch import Watched


class Received(NamedTuple):
    """A message from the broker, and when it came (monotonic)."""

    topic: str
    payload: bytes
    at: float


class Waiting(NamedTuple):
    """A result kept waiting for events another instance took: the message to read again, the seq its match's
    events must be stored through, and the timer that puts it back on the inbox if no ack says so first."""

    received: Received
    seq: int
    timer: threading.Timer


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


Item = Received | Connected | Subscribed | Disconnected | Unreachable | Call | Stop | Watched

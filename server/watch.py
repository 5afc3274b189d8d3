"""What every instance hears, whichever of them the shared subscription hands a table's message to.

Several ``courtside server`` instances share the tables' topics (``$share/GROUP/...``): each result,
event and live state is stored by ONE of them. Every instance serves every page, so each also needs
to know when the others changed something. It learns it from the broker, with a second connection
that subscribes to the same topics every instance gets in full (not shared):

- the tables' live states (``court/+/live``, retained by the tables): held in memory as they come, so
  a court's page shows its score on every instance without a database write per instance;
- the pool tables and court schedules the instances publish (retained) after each result or desk
  change, once it is committed: a sign that the stored state moved, so the pages read it again;
- the acks the instances send the tables, once what they ack is committed: another instance's ack of a
  result is the first sign that the stored state moved (its tables and schedules are published after it),
  and a result this instance keeps waiting for events another instance took is read again on each ack of
  that match's events.

A second connection because the service's own is MQTT 3.1.1, where two subscriptions matching one
message cannot be told apart and a client hears its own publications (no ``no_local``); the watch's
messages say where they come from by the connection they arrive on. The callbacks only put them on
the service's inbox; its loop handles them (:meth:`Watch.handle`).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, NamedTuple

import paho.mqtt.client as mqtt

from rules import ProtocolError
from rules import protocol as p
from rules.link_payloads import AckPayload, LivePayload
from server.connection import connect_client


class Watched(NamedTuple):
    """A message the watch heard, for the service's inbox."""

    topic: str
    payload: bytes


class Acked(NamedTuple):
    """Another instance acked an event or a result (``of``) of a court's match, once committed. (Its ``through``
    counts only what that instance saw committed: a match's events are spread over the instances.)"""

    court: str
    match: str
    of: str

    def changed(self) -> tuple[set[str], set[str]] | None:
        """What it changed for the pages (as :meth:`Watch.handle` says it): a result's ack, the stored state,
        read again in full without waiting for the tables and schedules published after it; an event's,
        nothing a page shows."""
        return (set(), set()) if self.of == "result" else None


class Watch:
    """The non-shared view of one tournament's topics, for ``service`` (server.service.Service)."""

    def __init__(self, address: p.BrokerAddress, tournament: str, client_id: str, own_prefix: str,
                 put: Callable[[Watched], None], *, ca_file: str | None = None) -> None:
        self.tournament = tournament
        self.own_prefix = own_prefix  # the ids this process gives its messages: its own need no re-reading
        self.put = put
        self.live: dict[str, tuple[LivePayload, datetime]] = {}  # court id -> (live payload, heard at, UTC)
        self.heard = 0  # messages taken (the tests and benchmarks read it)
        self.client = connect_client(address, client_id, ca_file=ca_file)
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self._started = threading.Event()

    def topics(self) -> list[str]:
        root = p.root(self.tournament)
        return [f"{root}/court/+/live", f"{root}/court/+/schedule", f"{root}/pool/+/table", f"{root}/court/+/ack"]

    def start(self) -> None:
        self.client.loop_start()
        self._started.set()

    def stop(self) -> None:
        if self._started.is_set():
            self.client.disconnect()
            self.client.loop_stop()

    # paho's thread: only onto the service's inbox --------------------------------------------
    def _on_connect(self, client: mqtt.Client, _u: Any, _f: Any, reason: Any, _props: Any = None) -> None:
        if not getattr(reason, "is_failure", False):
            for topic in self.topics():
                client.subscribe(topic, qos=0)

    def _on_message(self, client: mqtt.Client, _u: Any, message: mqtt.MQTTMessage) -> None:
        self.put(Watched(message.topic, bytes(message.payload)))

    # the service's loop ----------------------------------------------------------------------
    def handle(self, topic: str, raw: bytes) -> tuple[set[str], set[str]] | Acked | None:
        """What changed for the pages: (pools, courts) as the service's listeners take them, or None; or
        another instance's ack (:class:`Acked`, whose ``changed()`` says that).

        A live state changes its court only; another instance's table or schedule says the stored state
        moved (a result, a desk change), which the pages read again in full: no pool and no court named."""
        self.heard += 1
        try:
            kind = p.parse_topic(topic)
            if kind.kind == "ack":
                return self._acked(topic, raw)
            if kind.kind == "live" and kind.court is not None:
                m = p.parse(raw, topic=topic)
                assert isinstance(m.body, LivePayload)  # parse() read it
                self.live[kind.court] = (m.body, datetime.now(UTC))
                return set(), {kind.court}
            body = json.loads(raw)
        except (ValueError, ProtocolError):
            return None  # the instance that stores a table's message refuses it with the reason
        if not isinstance(body, dict) or str(body.get("id", "")).startswith(self.own_prefix):
            return None  # this instance published it and told its pages already
        return set(), set()

    def _acked(self, topic: str, raw: bytes) -> Acked | None:
        m = p.parse(raw, topic=topic)
        if m.id.startswith(self.own_prefix) or not isinstance(m.body, AckPayload) or m.court is None \
                or m.match is None:
            return None  # this instance sent it, and told its pages when it committed
        return Acked(m.court, m.match, m.body.of)

"""The table's MQTT link (issue 11): the outbox to the service, presence, live state, the court's schedule.

Plugged into the table's loop by ``make_link(args)`` (firmware/main.py); every method but the
paho callbacks runs on the loop's thread. paho's thread only posts commands: an ack or a
(dis)connection comes back as ``LinkMessage`` -> :meth:`Link.handle`, a schedule as
``ScheduleUpdate``. The match never waits for the network: ``on_event`` stores nothing itself
(the journal already holds the event) and publishing is fire-and-forget; what the service has
not acknowledged is sent again on reconnect and every few seconds (:data:`RESEND_S`).
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import paho.mqtt.client as mqtt

from display.view import Link as Mark
from display.view import ScoreboardView
from firmware.commands import Command, LinkMessage, ScheduleUpdate
from firmware.nodelay import no_delay
from firmware.outbox import Outbox
from rules import CourtSchedule, CourtsideError, Event, LogHeader, live_payload
from rules import protocol as p
from rules.link_payloads import AckPayload, HeldPayload

RESEND_S = 3.0
"""Seconds before what is not acknowledged is sent again (and the tick that checks it)."""
LIVE_MAX_PER_S = 4.0
"""Live state messages a second at most (each retained; a change is sent, a repeat is not)."""


def new_id() -> str:
    return uuid.uuid4().hex


# What paho's thread posts for the loop's thread to do (LinkMessage's payload, back in handle()):


@dataclass(frozen=True, slots=True)
class Connection:
    """The broker took the connection (``online``), or it was lost."""

    online: bool


@dataclass(frozen=True, kw_only=True, slots=True)
class Ack:
    """The service stored ``match``'s events (or its result, ``of``) through seq ``through``: an ``ack`` message."""

    match: str
    of: Literal["event", "result"]
    seq: int
    through: int


@dataclass(frozen=True, kw_only=True, slots=True)
class Held:
    """What the service holds of ``match`` (a ``held`` message, when this table comes online): taken as it is,
    so a service restored from an older backup gets again what it lost."""

    match: str
    through: int
    result: bool


@dataclass(frozen=True, slots=True)
class Resend:
    """Every RESEND_S: send again what is still not acknowledged."""


LinkNews = Connection | Ack | Held | Resend


class Link:
    def __init__(self, broker: str, *, tournament: str, court_id: str, court_name: str, journal: Path,
                 ca_file: str | None = None) -> None:
        address = p.parse_broker(broker)
        self.host, self.port, self.tls = address.host, address.port, address.tls
        self.tournament, self.court, self.court_name = tournament, court_id, court_name
        self.outbox = Outbox(journal)
        self.online = False
        self.post: Callable[[Command], None] | None = None
        self._sent_at: dict[tuple[str, str, int], float] = {}
        self._live_last: tuple[float, Any] = (0.0, None)
        self._timer: threading.Thread | None = None
        self._stopping = threading.Event()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2,  # type: ignore[attr-defined]
                                  client_id=f"table-{court_id}-{new_id()[:6]}", clean_session=True)
        if address.username is not None:
            self.client.username_pw_set(address.username, address.password or "")
        if self.tls:
            self.client.tls_set(ca_certs=ca_file)
        will = p.presence_message(id=new_id(), court=court_id, online=False)
        self.client.will_set(self._topic("presence"), p.encode(will), qos=1, retain=True)
        self.client.reconnect_delay_set(min_delay=1, max_delay=5)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message

    def _topic(self, kind: str) -> str:
        return p.court_topic(self.tournament, self.court, kind)

    # -- paho's thread: only post ---------------------------------------------------------------

    def _on_connect(self, client: mqtt.Client, _u: Any, _f: Any, reason: Any, _props: Any = None) -> None:
        if getattr(reason, "is_failure", False):
            return
        no_delay(client)  # each (re)connect brings a new socket: the result must not wait for a delayed ack
        client.subscribe([(self._topic("ack"), 1), (self._topic("schedule"), 1)])
        self._post(LinkMessage(payload=Connection(online=True)))

    def _on_disconnect(self, client: mqtt.Client, _u: Any, _f: Any, reason: Any, _props: Any = None) -> None:
        self._post(LinkMessage(payload=Connection(online=False)))

    def _on_message(self, client: mqtt.Client, _u: Any, message: mqtt.MQTTMessage) -> None:
        try:
            m = p.parse(bytes(message.payload), topic=message.topic, limit=p.MAX_SERVICE_BYTES)
        except CourtsideError:
            return  # only the service writes these topics (ACL); anything else is not ours to act on
        if message.topic not in (self._topic("ack"), self._topic("schedule")):
            # Another court's schedule would empty this court's (its matches are filtered by court), and the
            # table would fall back to a friendly: seen with the demo's embedded broker delivering other
            # courts' retained schedules. Only this court's own topics count (parse has already checked
            # that the envelope names the court its topic does).
            return
        match m.body:
            case CourtSchedule(court_name=court_name, matches=matches):
                left = tuple(s for s in matches if s.status not in ("finished", "conflict"))
                self._post(ScheduleUpdate(schedule=CourtSchedule(court_name=court_name, matches=left)))
            case AckPayload(of=of, through=through) if m.match is not None and m.seq is not None:
                self._post(LinkMessage(payload=Ack(match=m.match, of=of, seq=m.seq, through=through)))
            case HeldPayload(through=through, result=result) if m.match is not None:
                self._post(LinkMessage(payload=Held(match=m.match, through=through, result=result)))

    def _post(self, command: Command) -> None:
        if self.post is not None:
            self.post(command)

    def _tick(self) -> None:
        while not self._stopping.wait(RESEND_S):
            self._post(LinkMessage(payload=Resend()))

    # -- the loop's thread ----------------------------------------------------------------------

    def start(self, post: Callable[[Command], None]) -> None:
        self.post = post
        self.client.connect_async(self.host, self.port, keepalive=10)
        self.client.loop_start()
        self._timer = threading.Thread(target=self._tick, name="courtside-link-tick", daemon=True)
        self._timer.start()

    def stop(self) -> None:
        self._stopping.set()
        if self.online:
            off = p.presence_message(id=new_id(), court=self.court, online=False)
            self.client.publish(self._topic("presence"), p.encode(off), qos=1, retain=True)
        self.client.disconnect()
        self.client.loop_stop()

    def match_loaded(self, header: LogHeader, events: tuple[Event, ...]) -> None:
        self.outbox.loaded(header, events)
        self._flush()

    def on_event(self, header: LogHeader, event: Event) -> None:
        self.outbox.add(header, event)
        self._flush()

    def on_state(self, view: ScoreboardView) -> None:
        state, match_id = view.state, view.match
        if state is None:
            return
        if state.phase == "finished" and match_id is not None and self.outbox.boxes.get(match_id) is not None \
                and not self.outbox.boxes[match_id].finished:
            self.outbox.shown_finished(match_id)
            self._flush()
        payload = live_payload(state, view.ruleset, _name_or_none(match_id))
        now = time.monotonic()
        last_at, last = self._live_last
        if payload == last or now - last_at < 1 / LIVE_MAX_PER_S or not self.online:
            return
        self._live_last = (now, payload)
        msg = p.build(id=new_id(), type="live", court=self.court, match=_name_or_none(match_id), payload=payload)
        self.client.publish(self._topic("live"), p.encode(msg), qos=0, retain=True)

    def handle(self, news: LinkNews) -> None:
        if isinstance(news, Connection) and news.online:
            self.online = True
            here = p.presence_message(id=new_id(), court=self.court, online=True)
            self.client.publish(self._topic("presence"), p.encode(here), qos=1, retain=True)
            self._sent_at.clear()
        elif isinstance(news, Connection):
            self.online = False
            return
        elif isinstance(news, Ack):
            self.outbox.acked(news.match, news.of, news.seq, news.through)
        elif isinstance(news, Held) and self.outbox.held(news.match, news.through, news.result):
            self._sent_at.clear()  # what the service lacks goes now, not after RESEND_S
        self._flush()

    def status(self) -> Mark:
        """The screen's mark of the link: offline, and how many messages wait to be sent."""
        return Mark(online=self.online, waiting=self.outbox.waiting())

    def counts(self) -> dict[str, int | bool]:
        return {"online": self.online, "waiting": self.outbox.waiting()}

    def _flush(self) -> None:
        """Send what waits and was not sent in the last RESEND_S (PUBACK is not enough: only an ack is)."""
        if not self.online:
            return
        now = time.monotonic()
        for box, kind, body in self.outbox.pending():
            seq = body["seq"] if kind == "event" else box.last_seq
            key = (box.match_id, kind, seq)
            if now - self._sent_at.get(key, -RESEND_S) < RESEND_S:
                continue
            self._sent_at[key] = now
            # The message id is fixed per journal line, so the service's log shows a resend as one.
            mid = f"{self.court}.{box.match_id}.{kind}.{seq}"[:64]
            if kind == "event":
                msg = p.event_message(id=mid, court=self.court, match=box.match_id, event=body)
            else:
                msg = p.result_message(id=mid, court=self.court, match=box.match_id, seq=seq, result=body)
            self.client.publish(self._topic("events" if kind == "event" else "result"), p.encode(msg), qos=1)


def _name_or_none(text: str | None) -> str | None:
    try:
        return p.slug(text) if text and not text.replace("-", "").replace("_", "").isalnum() else text
    except CourtsideError:
        return None


def make_link(args: Any) -> Link:
    """The link for ``courtside table --broker URL --court ID [--tournament FILE] --journal DIR``."""
    court_name = str(args.court)
    tournament_id = "friendly"
    if getattr(args, "tournament", None):
        from rules import open_file, parse_cup

        with open_file(args.tournament) as f:  # a named pipe or a device is refused, not waited on
            t = parse_cup(f.read().decode("utf-8"), str(args.tournament))
        courts = list(t.schedule.courts)
        if court_name not in courts and court_name.isdigit() and 1 <= int(court_name) <= len(courts):
            court_name = courts[int(court_name) - 1]
        tournament_id = p.slug(Path(args.tournament).stem)
    tournament_id = getattr(args, "tournament_id", None) or tournament_id
    return Link(args.broker, tournament=tournament_id, court_id=p.slug(court_name), court_name=court_name,
                journal=Path(args.journal), ca_file=getattr(args, "ca", None))

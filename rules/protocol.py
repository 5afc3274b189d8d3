"""The MQTT protocol between the tables and the standings service: topic names and the envelope.

Pure: building, parsing and checking messages only (no broker, no clock, no randomness: the
caller passes the message id and any instant). docs/asyncapi.yaml describes the same channels
and payloads; tests check real captured messages against its schemas.

Every topic lives under one versioned root, ``courtside/v2/{tournament}``. Version 2 came with a cup's
classes: a court's schedule names each match's class, whose ruleset the table plays it by. A version-1 table
would ignore that and play a 7 v 7 class's match by its own rules, so the service refuses it, saying why
(:func:`older_table_refusal`), on its own ``courtside/v1`` topics:

=================================  =========  ====================================================
topic                              from       what
=================================  =========  ====================================================
``court/{court}/live``             table      the scoreboard state, retained (screens that join late)
``court/{court}/events``           table      each journaled event of a match, QoS 1
``court/{court}/result``           table      a finished match's result, QoS 1
``court/{court}/presence``         table      ``online`` / ``offline`` (the will), retained
``court/{court}/ack``              service    the event or result stored (end to end, after commit);
                                              ``held``: what the service holds of each match, when
                                              the court's table comes online (after a restore: less
                                              than the table's outbox believes, so it sends again)
``court/{court}/schedule``         service    the court's matches, teams resolved, retained
``pool/{pool}/table``              service    a pool's table, retained
``class/{class}/scorers``          service    a class's top scorers, retained (``_`` for a file without
                                              classes)
``errors``                         service    every refused message, with its reason
=================================  =========  ====================================================

The envelope (JSON object, UTF-8, at most :data:`MAX_BYTES`)::

    {"v": 2, "id": "…", "type": "event", "court": "hall-1", "match": "7", "seq": 3, "payload": {…}}

``id`` is unique per message (resends of one journal line keep theirs); ``court`` and ``match``
name where it comes from (``match`` is the schedule's match number as text); ``seq`` is the
event's number in its match's log, so gaps show. Unknown keys and wrong types are refused.

Checking a message reads its payload into the record its type has (``Message.body``: an event, a result,
a live state, a schedule, a pool's table, a class's scorers, or one of rules.link_payloads' small ones); the table, the
service and the screens read those fields and never a payload's keys by hand.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any, Literal, cast
from urllib.parse import unquote, urlsplit

from rules.court_schedule import CourtSchedule, read_court_schedule
from rules.errors import EventLogError, FileLineError, ProtocolError, whole_number
from rules.link_payloads import (
    AckPayload,
    ErrorPayload,
    HeldPayload,
    LivePayload,
    PresencePayload,
    read_ack,
    read_error,
    read_held,
    read_live_payload,
    read_presence,
)
from rules.match.events import Event
from rules.match.log import event_from_dict
from rules.pool_table import PublishedTable, read_pool_table
from rules.published_scorers import PublishedScorers, read_scorers
from rules.record import Record, field
from rules.result import Result, read_result

VERSION = 2
ROOT = "courtside/v2"
PREVIOUS_VERSION = 1
PREVIOUS_ROOT = "courtside/v1"
OLDER_TABLE = (f"this table speaks protocol {PREVIOUS_VERSION} and the service protocol {VERSION}: a cup's match "
               "now comes with its class, whose rules the table must play it by, and a protocol-1 table would play "
               "it by its own; update courtside on the table")
MAX_BYTES = 16_384
"""Largest message accepted from a table (a schedule or a table from the service may be larger)."""
MAX_SERVICE_BYTES = 262_144

MessageType = Literal["event", "result", "live", "presence", "ack", "held", "schedule", "table", "scorers", "error"]
TABLE_TYPES: tuple[MessageType, ...] = ("event", "result", "live", "presence")
SERVICE_TYPES: tuple[MessageType, ...] = ("ack", "held", "schedule", "table", "scorers", "error")
COURT_KINDS = {"live", "events", "result", "presence", "ack", "schedule"}
# The topic's last level for each message type.
KIND_OF_TYPE: dict[str, str] = {
    "event": "events", "result": "result", "live": "live", "presence": "presence",
    "ack": "ack", "held": "ack", "schedule": "schedule", "table": "table", "scorers": "scorers",
    "error": "errors",
}
NO_CLASS = "_"  # the class level of a file without classes: no class name can be it (they begin alphanumeric)
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
_KEYS = ("v", "id", "type", "court", "match", "seq", "payload")


# -- names ----------------------------------------------------------------------------------


def slug(text: str) -> str:
    """A topic-safe name for a court or tournament: ``"Hall 1"`` -> ``"hall-1"``."""
    out = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:64]
    if not out:
        raise ProtocolError("name", f"{text!r} has no letter or digit to name a topic level by")
    return out


def _name(field: str, value: Any) -> str:
    if not isinstance(value, str) or not _NAME.match(value):
        raise ProtocolError(field, f"{value!r} is not a name (letters, digits, '-', '_', '.'; at most 64)")
    return value


def root(tournament: str) -> str:
    return f"{ROOT}/{_name('tournament', tournament)}"


def court_topic(tournament: str, court: str, kind: str) -> str:
    if kind not in COURT_KINDS:
        raise ProtocolError("kind", f"{kind!r} is not a court topic ({', '.join(sorted(COURT_KINDS))})")
    return f"{root(tournament)}/court/{_name('court', court)}/{kind}"


def pool_topic(tournament: str, pool: str) -> str:
    return f"{root(tournament)}/pool/{_name('pool', pool)}/table"


def scorers_topic(tournament: str, class_name: str) -> str:
    """A class's top scorers; ``""``, the one class of a file without classes, is :data:`NO_CLASS`."""
    return f"{root(tournament)}/class/{_name('class', class_name) if class_name else NO_CLASS}/scorers"


def errors_topic(tournament: str) -> str:
    return f"{root(tournament)}/errors"


def service_subscriptions(tournament: str) -> list[str]:
    """What the service subscribes to: everything the tables publish but their live state; and the same of
    tables that still speak the previous version, to refuse them with the reason (:func:`older_table_refusal`)."""
    name = _name("tournament", tournament)
    return [f"{top}/{name}/court/+/{kind}" for top in (ROOT, PREVIOUS_ROOT)
            for kind in ("events", "result", "presence")]


def from_older_table(topic: str) -> bool:
    """Whether ``topic`` is a previous version's (a table not updated since)."""
    return topic.startswith(f"{PREVIOUS_ROOT}/")


def older_table_refusal(topic: str, *, id: str) -> tuple[str, bytes]:
    """For a message on a previous version's ``topic``: the error on that version's errors topic, in that
    version's envelope, so that the table's own tools (and anyone watching the old topics) read why."""
    parts = topic.split("/")
    if not from_older_table(topic) or len(parts) < 4:
        raise ProtocolError("topic", f"{topic!r} is not under {PREVIOUS_ROOT}/<tournament>/")
    tournament = _name("topic", parts[2])
    court = _name("topic", parts[4]) if len(parts) == 6 and parts[3] == "court" else None
    envelope = {"v": PREVIOUS_VERSION, "id": id, "type": "error", "court": court, "match": None, "seq": None,
                "payload": {"reason": OLDER_TABLE, "topic": topic[:256]}}
    text = json.dumps(envelope, ensure_ascii=False, separators=(",", ":"))
    return f"{PREVIOUS_ROOT}/{tournament}/errors", text.encode()


class Topic(Record, kw_only=False):
    tournament: str
    kind: str
    court: str | None = None
    pool: str | None = None
    class_name: str | None = None


def parse_topic(topic: str) -> Topic:
    """Which channel a topic is; a topic outside the protocol raises ProtocolError('topic', ...)."""
    parts = topic.split("/")
    if len(parts) < 4 or f"{parts[0]}/{parts[1]}" != ROOT:
        raise ProtocolError("topic", f"{topic!r} is not under {ROOT}/<tournament>/")
    tournament, rest = parts[2], parts[3:]
    _name("topic", tournament)
    if rest == ["errors"]:
        return Topic(tournament, "errors")
    if len(rest) == 3 and rest[0] == "court" and rest[2] in COURT_KINDS:
        return Topic(tournament, rest[2], court=_name("topic", rest[1]))
    if len(rest) == 3 and rest[0] == "pool" and rest[2] == "table":
        return Topic(tournament, "table", pool=_name("topic", rest[1]))
    if len(rest) == 3 and rest[0] == "class" and rest[2] == "scorers":
        return Topic(tournament, "scorers", class_name="" if rest[1] == NO_CLASS else _name("topic", rest[1]))
    raise ProtocolError("topic", f"{topic!r} is not a courtside channel")


# -- the envelope ---------------------------------------------------------------------------


Body = Event | Result | LivePayload | PresencePayload | AckPayload | HeldPayload | CourtSchedule | PublishedTable | \
    PublishedScorers | ErrorPayload
"""A message's payload as the record its type reads into (an event, a result, a live state ...)."""


class Message(Record):
    id: str
    type: MessageType
    court: str | None
    match: str | None
    seq: int | None
    payload: dict[str, Any]
    v: int = VERSION
    # The payload read into its record when the message was checked (parse, build): what its receivers read.
    body: Body | None = field(default=None, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {"v": self.v, "id": self.id, "type": self.type, "court": self.court, "match": self.match,
                "seq": self.seq, "payload": self.payload}


def build(
    *, id: str, type: MessageType, payload: dict[str, Any], court: str | None = None, match: str | None = None,
    seq: int | None = None,
) -> Message:
    """A checked message (the same checks :func:`parse` makes on the way in), its body read."""
    return validate(Message(id=id, type=type, court=court, match=match, seq=seq, payload=payload).to_dict())


def encode(message: Message) -> bytes:
    return json.dumps(message.to_dict(), ensure_ascii=False, separators=(",", ":")).encode()


class _RepeatedKey(Exception):
    pass


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise _RepeatedKey(key)
        data[key] = value
    return data


def parse(raw: bytes, *, topic: str | None = None, limit: int = MAX_BYTES) -> Message:
    """Decode and check one message; with ``topic`` also that it travels on its own channel."""
    if len(raw) > limit:
        raise ProtocolError("size", f"{len(raw)} bytes is more than the {limit} allowed")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ProtocolError("encoding", f"not UTF-8 (byte {err.start})") from None
    try:
        data = json.loads(text, object_pairs_hook=_pairs)
    except _RepeatedKey as err:
        raise ProtocolError(str(err), "given twice") from None
    except (json.JSONDecodeError, RecursionError) as err:
        raise ProtocolError("json", f"not valid JSON ({getattr(err, 'msg', 'too deeply nested')})") from None
    message = validate(data)
    if topic is not None:
        where = parse_topic(topic)
        if where.kind != KIND_OF_TYPE[message.type]:
            raise ProtocolError("type", f"a {message.type!r} message does not belong on {topic!r}")
        if where.court is not None and message.court != where.court:
            raise ProtocolError("court", f"{message.court!r} sent on court {where.court!r}'s topic")
    return message


def validate(data: Any) -> Message:
    """Check a decoded envelope and its payload for its type; returns the message."""
    if not isinstance(data, dict):
        raise ProtocolError("message", "must be a JSON object")
    unknown = sorted(set(data) - set(_KEYS))
    if unknown:
        raise ProtocolError(unknown[0], "unknown key")
    missing = [k for k in _KEYS if k not in data]
    if missing:
        raise ProtocolError(missing[0], "required key is missing")
    if data["v"] == PREVIOUS_VERSION and not isinstance(data["v"], bool):
        raise ProtocolError("v", OLDER_TABLE)
    if data["v"] != VERSION or isinstance(data["v"], bool):
        raise ProtocolError("v", f"version {data['v']!r} is not supported (expected {VERSION})")
    kind = data["type"]
    if not isinstance(kind, str) or kind not in KIND_OF_TYPE:
        raise ProtocolError("type", f"{kind!r} is not a message type ({', '.join(KIND_OF_TYPE)})")
    if not isinstance(data["id"], str) or not 1 <= len(data["id"]) <= 64 or not _NAME.match(data["id"]):
        raise ProtocolError("id", "a name of 1 to 64 letters, digits, '-', '_' or '.' is required")
    court = None if data["court"] is None else _name("court", data["court"])
    match = None if data["match"] is None else _name("match", data["match"])
    seq = None if data["seq"] is None else whole_number("seq", data["seq"], low=1)
    payload = data["payload"]
    if not isinstance(payload, dict):
        raise ProtocolError("payload", "must be a JSON object")
    message = Message(id=data["id"], type=cast(MessageType, kind), court=court, match=match, seq=seq,
                      payload=payload)
    return message.replace(body=_CHECKS[kind](message))


def _needs(message: Message, *keys: str) -> None:
    for key in keys:
        if getattr(message, key) is None:
            raise ProtocolError(key, f"required in a {message.type!r} message")


def _check_event(m: Message) -> Event:
    _needs(m, "court", "match", "seq")
    try:
        event = event_from_dict(m.payload, "payload")
    except EventLogError as err:
        raise ProtocolError("payload", err.message) from None
    if event.seq != m.seq:
        raise ProtocolError("payload.seq", f"{event.seq} differs from the envelope's seq {m.seq}")
    return event


def _check_result(m: Message) -> Result:
    _needs(m, "court", "match", "seq")
    return read_result(m.payload)


def _check_live(m: Message) -> LivePayload:
    _needs(m, "court")
    live = read_live_payload(m.payload)
    if live.board.match != m.match:
        raise ProtocolError("payload.board.match",
                            f"{live.board.match!r} differs from the envelope's match {m.match!r}")
    return live


def _check_presence(m: Message) -> PresencePayload:
    _needs(m, "court")
    return read_presence(m.payload)


def _check_ack(m: Message) -> AckPayload:
    _needs(m, "court", "match", "seq")
    return read_ack(m.payload)


def _check_held(m: Message) -> HeldPayload:
    _needs(m, "court", "match")
    return read_held(m.payload)


def _check_schedule(m: Message) -> CourtSchedule:
    _needs(m, "court")
    return read_court_schedule(m.payload)


def _check_table(m: Message) -> PublishedTable:
    return read_pool_table(m.payload)


def _check_scorers(m: Message) -> PublishedScorers:
    return read_scorers(m.payload)


def _check_error(m: Message) -> ErrorPayload:
    return read_error(m.payload)


_CHECKS: dict[str, Callable[[Message], Body]] = {
    "event": _check_event, "result": _check_result, "live": _check_live, "presence": _check_presence,
    "ack": _check_ack, "held": _check_held, "schedule": _check_schedule, "table": _check_table,
    "scorers": _check_scorers, "error": _check_error,
}


# -- builders for the messages each side sends ----------------------------------------------


def event_message(*, id: str, court: str, match: str, event: dict[str, Any]) -> Message:
    """An event line of docs/events.md (as ``rules.match.event_to_dict`` gives it) in its envelope."""
    return build(id=id, type="event", court=court, match=match, seq=event.get("seq"), payload=event)


def result_message(*, id: str, court: str, match: str, seq: int, result: dict[str, Any]) -> Message:
    """A finished match: ``seq`` is the last event of the log the result follows from."""
    return build(id=id, type="result", court=court, match=match, seq=seq, payload=result)


def ack_message(*, id: str, court: str, match: str, seq: int, of: Literal["event", "result"], through: int) -> Message:
    """The service stored ``seq`` of ``match``; ``through`` is the last seq stored with none missing before it.

    Not checked again as :func:`build` would: court, match and seq come from a message :func:`parse` checked,
    and the service sends one for every message it takes (the check was an eighth of a result's cost).
    """
    if of not in ("event", "result") or not isinstance(through, int) or isinstance(through, bool) or through < 0:
        raise ProtocolError("payload", f"an ack is of an event or a result, through a seq: not {of!r}, {through!r}")
    return Message(id=id, type="ack", court=court, match=match, seq=seq, payload={"of": of, "through": through},
                   body=AckPayload(of=of, through=through))


def held_message(*, id: str, court: str, match: str, through: int, result: bool) -> Message:
    """What the service holds of ``match``: its events up to ``through`` with none missing, and whether it holds
    a result (the table's or the organiser's). The table takes it as it is, lower than its outbox believed
    included (a database restored from a backup), and sends again what the service lacks."""
    return build(id=id, type="held", court=court, match=match, payload={"through": through, "result": result})


def presence_message(*, id: str, court: str, online: bool, at: str | None = None) -> Message:
    payload: dict[str, Any] = {"state": "online" if online else "offline"}
    if at is not None:
        payload["at"] = at
    return build(id=id, type="presence", court=court, payload=payload)


def error_message(*, id: str, reason: str, topic: str | None = None, court: str | None = None,
                  match: str | None = None, seq: int | None = None, refused_id: str | None = None,
                  conflict: bool = False) -> Message:
    """``conflict``: the message was a result held for the organiser, not refused."""
    payload: dict[str, Any] = {"reason": reason}
    if topic is not None:
        payload["topic"] = topic
    if refused_id is not None:
        payload["id"] = refused_id
    if conflict:
        payload["conflict"] = True
    return build(id=id, type="error", court=court, match=match, seq=seq, payload=payload)


# -- where the broker is ----------------------------------------------------------------------


class BrokerAddress(Record):
    host: str
    port: int
    username: str | None = None
    password: str | None = None
    tls: bool = False


def parse_broker(url: str, option: str = "--broker") -> BrokerAddress:
    """``mqtt://[user:password@]host[:port]`` (1883) or ``mqtts://...`` (8883, TLS); ``tcp://`` and ``ssl://``
    are paho's names for the same. The table, the second screen and the service all take it so."""
    parts = urlsplit(url if "://" in url else f"mqtt://{url}")
    if parts.scheme not in ("mqtt", "mqtts", "tcp", "ssl"):
        raise FileLineError(option, None, f"{url!r}: use mqtt://host:port or mqtts://host:port")
    tls = parts.scheme in ("mqtts", "ssl")
    try:
        port = parts.port or (8883 if tls else 1883)
    except ValueError:
        raise FileLineError(option, None, f"{url!r}: the port is not a number") from None
    return BrokerAddress(host=parts.hostname or "127.0.0.1", port=port,
                         username=unquote(parts.username) if parts.username else None,
                         password=unquote(parts.password) if parts.password else None, tls=tls)

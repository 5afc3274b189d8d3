"""The payloads of the link's small messages as records: a court's presence, an ack, what the service holds of
a match, a refusal, and a live state (its board and the engine's state). ``rules.protocol.parse`` builds one
for every message it checks (``Message.body``), so the service, the table and the screens read typed fields,
never a payload's keys by hand. docs/asyncapi.yaml describes the same payloads.
"""

from __future__ import annotations

from typing import Any, Literal

from rules.errors import ProtocolError, whole_number
from rules.live import LiveBoard, read_live
from rules.record import Record


class PresencePayload(Record):
    state: Literal["online", "offline"]
    at: str | None = None  # the table's wall clock when it came online (ISO 8601), when it knows it


class AckPayload(Record):
    """The service stored an event or a result; ``through``: the last seq stored with none missing before it."""

    of: Literal["event", "result"]
    through: int


class HeldPayload(Record):
    """What the service holds of a match: its events through ``through`` with none missing, and a result or not."""

    through: int
    result: bool


class ErrorPayload(Record):
    """A refused message's reason, or a result held for the organiser (``conflict``)."""

    reason: str
    topic: str | None = None
    id: str | None = None  # the refused message's
    conflict: bool = False


class LivePayload(Record):
    """A court's live state: the board everyone reads, and the engine's whole state (``MatchState.to_dict``) that
    a screen joining late draws from."""

    board: LiveBoard
    state: dict[str, Any]


def read_presence(payload: dict[str, Any]) -> PresencePayload:
    _only(payload, {"state", "at"})
    state = payload.get("state")
    if state not in ("online", "offline"):
        raise ProtocolError("payload.state", "must be 'online' or 'offline'")
    at = payload.get("at")
    if at is not None and not isinstance(at, str):
        raise ProtocolError("payload.at", "must be an instant written as text")
    return PresencePayload(state=state, at=at)


def read_ack(payload: dict[str, Any]) -> AckPayload:
    of = payload.get("of")
    if of not in ("event", "result"):
        raise ProtocolError("payload.of", "must be 'event' or 'result'")
    return AckPayload(of=of, through=whole_number("payload.through", payload.get("through")))


def read_held(payload: dict[str, Any]) -> HeldPayload:
    _only(payload, {"through", "result"})
    through = whole_number("payload.through", payload.get("through"))
    result = payload.get("result")
    if not isinstance(result, bool):
        raise ProtocolError("payload.result", "must be true or false")
    return HeldPayload(through=through, result=result)


def read_error(payload: dict[str, Any]) -> ErrorPayload:
    reason = payload.get("reason")
    if not isinstance(reason, str):
        raise ProtocolError("payload.reason", "required, a sentence")
    topic, id_ = payload.get("topic"), payload.get("id")
    for key, value in (("topic", topic), ("id", id_)):
        if value is not None and not isinstance(value, str):
            raise ProtocolError(f"payload.{key}", "must be text")
    return ErrorPayload(reason=reason, topic=topic, id=id_, conflict=payload.get("conflict") is True)


def read_live_payload(payload: Any) -> LivePayload:
    board = read_live(payload)  # the board checked, and the state an object
    return LivePayload(board=board, state=payload["state"])


def _only(payload: dict[str, Any], keys: set[str]) -> None:
    if set(payload) - keys:
        raise ProtocolError(f"payload.{sorted(set(payload) - keys)[0]}", "unknown key")


__all__ = ["AckPayload", "ErrorPayload", "HeldPayload", "LivePayload", "PresencePayload", "read_ack", "read_error",
           "read_held", "read_live_payload", "read_presence"]

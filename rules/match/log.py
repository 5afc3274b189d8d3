"""The event log as JSON lines (format version 1, documented in docs/events.md).

One event per line: ``{"v": 1, "seq": 7, "at": 123456, "type": "goal", "team":
"home", "player": "7"}``. The same lines are what the table journals and what the
MQTT link carries, so a journal can be replayed anywhere.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from pydantic import TypeAdapter, ValidationError

from rules.errors import EventLogError
from rules.match.events import EVENT_TYPES, Event

VERSION = 1
_ENVELOPE = ("v", "seq", "at", "type")


_ADAPTERS: dict[str, TypeAdapter[Event]] = {}


def _adapter(cls: type[Event]) -> TypeAdapter[Event]:
    if cls.type not in _ADAPTERS:
        _ADAPTERS[cls.type] = TypeAdapter(cls)
    return _ADAPTERS[cls.type]


def event_to_dict(event: Event) -> dict[str, Any]:
    """The JSON object for one event; optional fields left empty are omitted."""
    data: dict[str, Any] = {"v": VERSION, "seq": event.seq, "at": event.at, "type": event.type}
    for field in dataclasses.fields(event):
        if field.name in ("seq", "at"):
            continue
        value = getattr(event, field.name)
        if value is not None:
            data[field.name] = value
    return data


def event_to_line(event: Event) -> str:
    return json.dumps(event_to_dict(event), ensure_ascii=False, separators=(", ", ": "))


def format_log(events: list[Event]) -> str:
    return "".join(event_to_line(e) + "\n" for e in events)


def _describe(err: ValidationError) -> str:
    problems = []
    for e in err.errors():
        key = ".".join(str(p) for p in e["loc"]) or "event"
        msg = "unknown key" if e["type"] in ("extra_forbidden", "unexpected_keyword_argument") else e["msg"]
        if e["type"] == "missing":
            msg = "required key is missing"
        problems.append(f"{key}: {msg}")
    return "; ".join(problems)


def event_from_dict(data: Any, source: str, line: int | None = None) -> Event:
    """Check and build one event; a fault raises EventLogError naming ``source`` and ``line``."""
    if not isinstance(data, dict):
        raise EventLogError(source, line, "an event must be a JSON object")
    version = data.get("v")
    if version != VERSION:
        raise EventLogError(source, line, f"v: format version {version!r} is not supported (expected {VERSION})")
    kind = data.get("type")
    cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise EventLogError(
            source, line, f"type: {kind!r} is not an event type (known: {', '.join(sorted(EVENT_TYPES))})"
        )
    for key in ("seq", "at"):
        value = data.get(key)
        if not isinstance(value, int) or isinstance(value, bool):
            raise EventLogError(source, line, f"{key}: required, a whole number")
    if data["seq"] < 1:
        raise EventLogError(source, line, "seq: must be 1 or more")
    if data["at"] < 0:
        raise EventLogError(source, line, "at: must not be negative")
    fields = {k: v for k, v in data.items() if k not in ("v", "type")}
    try:
        return _adapter(cls).validate_json(json.dumps(fields))
    except ValidationError as err:
        raise EventLogError(source, line, f"{kind}: {_describe(err)}") from None


class _RepeatedKey(Exception):
    def __init__(self, key: str) -> None:
        self.key = key


def _no_repeated_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # json keeps the last of two equal keys; a journal line that says "at" twice is ambiguous.
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise _RepeatedKey(key)
        data[key] = value
    return data


def parse_log(text: str, source: str) -> list[Event]:
    """Every event of a JSON-lines log; blank lines are skipped, sequence numbers must grow."""
    return [event for _, event in numbered_events(text, source)]


def numbered_events(text: str, source: str) -> list[tuple[int, Event]]:
    """Like :func:`parse_log`, each event with its line number (for errors found later)."""
    events: list[tuple[int, Event]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            data = json.loads(raw, object_pairs_hook=_no_repeated_keys)
        except json.JSONDecodeError as err:
            raise EventLogError(source, number, f"not valid JSON ({err.msg} at column {err.colno})") from None
        except _RepeatedKey as err:
            raise EventLogError(source, number, f"{err.key}: given twice") from None
        event = event_from_dict(data, source, number)
        if events and event.seq <= events[-1][1].seq:
            raise EventLogError(source, number, f"seq {event.seq} does not follow seq {events[-1][1].seq}")
        events.append((number, event))
    return events

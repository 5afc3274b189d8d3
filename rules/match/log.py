"""The event log as JSON lines (format version 2, documented in docs/events.md).

A log starts with a header line, ``{"v": 2, "header": {...}}`` (:class:`LogHeader`),
then one event per line: ``{"v": 2, "seq": 7, "at": 123456, "type": "goal",
"team": "home", "player": "7"}``. The same event lines are what the MQTT link
carries. Version 1 logs (event lines only, ``"v": 1``) stay readable.
"""

from __future__ import annotations

import json
from typing import Any

from rules.errors import EventError, EventLogError
from rules.match.events import EVENT_TYPES, Event
from rules.match.header import LogHeader
from rules.record import Record

VERSION = 2
VERSIONS = (1, 2)  # what the reader takes; a header exists from version 2
MAX_LINE = 4_096  # characters: an event line is under 300
MAX_LINES = 200_000  # a day of presses at one table is under 20,000
MAX_CHARS = MAX_LINES * 400

_REQUIRED: dict[type[Event], frozenset[str]] = {cls: cls.__record_required__ for cls in EVENT_TYPES.values()}
_KNOWN: dict[type[Event], frozenset[str]] = {cls: frozenset(cls.__record_fields__) for cls in EVENT_TYPES.values()}


def event_to_dict(event: Event) -> dict[str, Any]:
    """The JSON object for one event; optional fields left empty are omitted."""
    data: dict[str, Any] = {"v": VERSION, "seq": event.seq, "at": event.at, "type": event.type}
    for name, value in vars(event).items():
        if value is not None and name not in ("seq", "at"):
            data[name] = value
    return data


def _line(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(", ", ": "))


def event_to_line(event: Event) -> str:
    return _line(event_to_dict(event))


def header_to_line(header: LogHeader) -> str:
    return _line({"v": VERSION, "header": header.to_dict()})


def format_log(events: list[Event] | tuple[Event, ...], header: LogHeader | None = None) -> str:
    """The log's text: the header line (when given), then one line per event."""
    lines = [header_to_line(header)] if header is not None else []
    lines += [event_to_line(e) for e in events]
    return "".join(line + "\n" for line in lines)


def _version(data: dict[str, Any], source: str, line: int | None) -> int:
    version = data.get("v")
    # type() and not isinstance(): true and 2.0 are not versions (json makes 1.0 a float, true a bool).
    if type(version) is not int or version not in VERSIONS:
        raise EventLogError(
            source, line, f"v: format version {version!r} is not supported (expected one of {list(VERSIONS)})"
        )
    return version


def event_from_dict(data: Any, source: str, line: int | None = None) -> Event:
    """Check and build one event; a fault raises EventLogError naming ``source`` and ``line``."""
    if not isinstance(data, dict):
        raise EventLogError(source, line, "an event must be a JSON object")
    _version(data, source, line)
    kind = data.get("type")
    cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise EventLogError(
            source, line, f"type: {kind!r} is not an event type (known: {', '.join(sorted(EVENT_TYPES))})"
        )
    fields = {k: v for k, v in data.items() if k not in ("v", "type")}
    for key in ("seq", "at", *sorted(_REQUIRED[cls])):
        if key not in fields:
            raise EventLogError(source, line, f"{kind}: {key}: required key is missing")
    for key in fields:
        if key not in _KNOWN[cls]:
            raise EventLogError(source, line, f"{kind}: {key}: unknown key")
    if fields["seq"] == 0:
        raise EventLogError(source, line, f"{kind}: seq: must be 1 or more in a log")
    try:
        return cls(**fields)
    except EventError as err:
        raise EventLogError(source, line, str(err)) from None


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


def _json(raw: str, source: str, number: int) -> Any:
    if len(raw) > MAX_LINE:
        raise EventLogError(source, number, f"the line is {len(raw)} characters long; at most {MAX_LINE}")
    try:
        return json.loads(raw, object_pairs_hook=_no_repeated_keys)
    except json.JSONDecodeError as err:
        raise EventLogError(source, number, f"not valid JSON ({err.msg} at column {err.colno})") from None
    except _RepeatedKey as err:
        raise EventLogError(source, number, f"{err.key}: given twice") from None
    except RecursionError:
        raise EventLogError(source, number, "nested too deeply to be an event") from None


class TornLine(Record):
    """A final line dropped by ``read_log(lenient_tail=True)``: a write cut short by a power loss."""

    line: int
    offset: int  # byte offset (UTF-8) where it starts: truncate the journal there
    reason: str


class ParsedLog(Record):
    header: LogHeader | None  # None for a version 1 log, or a stream of event lines
    version: int
    events: tuple[Event, ...]
    lines: tuple[int, ...]  # the line number of each event, for errors found on replay
    torn: TornLine | None = None


def read_log(text: str, source: str, *, lenient_tail: bool = False) -> ParsedLog:
    """The header (if any) and every event of a log; blank lines are skipped, sequence numbers must grow.

    A bad line raises EventLogError with its line number and byte ``offset``. With
    ``lenient_tail`` a bad *last* line is dropped instead and reported in ``torn``.
    """
    if len(text) > MAX_CHARS:
        raise EventLogError(source, None, f"{len(text)} characters; a match log has at most {MAX_CHARS}")
    raw_lines = text.split("\n")  # only "\n" ends a line: a JSON string may hold U+2028
    if len(raw_lines) > MAX_LINES + 1:
        raise EventLogError(source, None, f"more than {MAX_LINES} lines; no match has that many events")
    last = max((i for i, raw in enumerate(raw_lines) if raw.strip()), default=-1)
    header: LogHeader | None = None
    version: int | None = None
    events: list[Event] = []
    numbers: list[int] = []
    offset = 0
    for index, raw in enumerate(raw_lines):
        start, number = offset, index + 1
        offset += len(raw.encode("utf-8", "surrogatepass")) + 1
        if not raw.strip():
            continue
        try:
            data = _json(raw.removesuffix("\r"), source, number)
            if isinstance(data, dict) and "header" in data:
                if version is not None:
                    raise EventLogError(source, number, "header: only the first line of a log is its header")
                if _version(data, source, number) < 2 or set(data) != {"v", "header"}:
                    raise EventLogError(source, number, 'header: a header line is {"v": 2, "header": {...}}')
                try:
                    header = LogHeader.from_dict(data["header"])
                except (EventError, TypeError) as err:
                    raise EventLogError(source, number, str(err)) from None
                version = 2
                continue
            event = event_from_dict(data, source, number)
            line_version = _version(data, source, number)
            if version is not None and line_version != version:
                raise EventLogError(source, number, f"v: {line_version} in a log of version {version}")
            version = line_version
            if events and event.seq <= events[-1].seq:
                raise EventLogError(source, number, f"seq {event.seq} does not follow seq {events[-1].seq}")
        except EventLogError as err:
            if lenient_tail and index == last:
                torn = TornLine(line=number, offset=start, reason=err.message)
                return ParsedLog(header=header, version=version or VERSION, events=tuple(events),
                                 lines=tuple(numbers), torn=torn)
            raise EventLogError(source, number, err.message, offset=start) from None
        events.append(event)
        numbers.append(number)
    return ParsedLog(header=header, version=version or VERSION, events=tuple(events), lines=tuple(numbers))


def parse_log(text: str, source: str) -> list[Event]:
    """Every event of a log (its header, if any, is checked and left out)."""
    return list(read_log(text, source).events)


def numbered_events(text: str, source: str) -> list[tuple[int, Event]]:
    """Like :func:`parse_log`, each event with its line number (for errors found later)."""
    parsed = read_log(text, source)
    return list(zip(parsed.lines, parsed.events, strict=True))

"""The JSON-lines event log: round trip and clear errors naming the line."""

from __future__ import annotations

import pytest

from rules.errors import EventLogError
from rules.match import (
    EVENT_TYPES,
    ClockStarted,
    Goal,
    PenaltyAwarded,
    ShootoutAttempt,
    Undo,
    event_to_line,
    format_log,
    parse_log,
)
from rules.match.log import numbered_events


def test_round_trip_of_every_kind_of_line() -> None:
    events = [
        ClockStarted(at=0, seq=1),
        Goal(at=61_000, seq=2, team="home", player="7"),
        PenaltyAwarded(at=70_000, seq=3, team="away", kind="yellow", player="4", length=300_000),
        ShootoutAttempt(at=80_000, seq=4, team="away", scored=False),
        Undo(at=90_000, seq=5, target=2),
    ]
    text = format_log(events)
    assert parse_log(text, "t.jsonl") == events
    assert text.splitlines()[1] == '{"v": 2, "seq": 2, "at": 61000, "type": "goal", "team": "home", "player": "7"}'


def test_the_documented_example_line_parses() -> None:
    line = '{"v": 2, "seq": 7, "at": 123456, "type": "goal", "team": "home", "player": "7"}'
    assert parse_log(line, "doc") == [Goal(at=123456, seq=7, team="home", player="7")]
    assert event_to_line(parse_log(line, "doc")[0]) == line


def test_every_event_type_has_a_name() -> None:
    assert all(name and cls.type == name for name, cls in EVENT_TYPES.items())
    assert len(EVENT_TYPES) == 21


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "an event must be a JSON object"),
        ('{"v": 3, "seq": 1, "at": 0, "type": "clock_started"}', "v: format version 3 is not supported"),
        ('{"v": true, "seq": 1, "at": 0, "type": "clock_started"}', "v: format version True is not supported"),
        ('{"v": 1.0, "seq": 1, "at": 0, "type": "clock_started"}', "v: format version 1.0 is not supported"),
        ('{"v": 2, "seq": 1, "at": 0, "type": "clock_started"}', "v: 2 in a log of version 1"),
        ('{"v": 1, "seq": 1, "at": 0, "type": "kick"}', "type: 'kick' is not an event type"),
        ('{"v": 1, "at": 0, "type": "clock_started"}', "seq: required"),
        ('{"v": 1, "seq": 0, "at": 0, "type": "clock_started"}', "seq: must be 1 or more"),
        ('{"v": 1, "seq": 1, "at": -5, "type": "clock_started"}', "at: -5 is out of range"),
        ('{"v": 1, "seq": 1, "at": 1.5, "type": "clock_started"}', "at: a whole number is required, not float 1.5"),
        ('{"v": 1, "seq": 1, "at": 0, "type": "goal"}', "goal: team: required key is missing"),
        ('{"v": 1, "seq": 1, "at": 0, "type": "goal", "team": "guests"}', "team: 'guests' is not a side"),
        ('{"v": 1, "seq": 1, "at": 0, "type": "goal", "team": "home", "minute": 3}', "goal: minute: unknown key"),
        ('{"v": 1, "seq": 1, "at": 0, "type": "shootout_attempt", "team": "home", "scored": "yes"}', "scored"),
        ('{"v": 1, "seq": 1, "at": 0, "type": "goal", "team": "home", "player": 7}', "player"),
        ('{"v": 1, "seq": 1, "at": 0, "type": "goal", "team": "home", "at": 9}', "at: given twice"),
    ],
)
def test_bad_line_is_reported_with_file_and_line(line: str, message: str) -> None:
    text = '{"v": 1, "seq": 1, "at": 0, "type": "clock_started"}\n\n' + line.replace('"seq": 1,', '"seq": 2,')
    with pytest.raises(EventLogError) as err:
        parse_log(text, "court2.jsonl")
    assert err.value.line == 3
    assert str(err.value).startswith("court2.jsonl, line 3: ")
    assert message in str(err.value)


def test_sequence_numbers_must_grow() -> None:
    text = (
        '{"v": 1, "seq": 4, "at": 0, "type": "clock_started"}\n'
        '{"v": 1, "seq": 4, "at": 9, "type": "clock_stopped"}\n'
    )
    with pytest.raises(EventLogError, match=r"line 2: seq 4 does not follow seq 4"):
        parse_log(text, "x")


def test_numbered_events_skip_blank_lines() -> None:
    text = (
        '\n{"v": 1, "seq": 1, "at": 0, "type": "clock_started"}\n'
        '\n{"v": 1, "seq": 2, "at": 5, "type": "clock_stopped"}\n'
    )
    assert [n for n, _ in numbered_events(text, "x")] == [2, 4]

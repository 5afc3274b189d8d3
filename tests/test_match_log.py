"""The JSON-lines event log: round trip and clear errors naming the line."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.errors import CourtsideError, EventLogError
from rules.match import (
    EVENT_TYPES,
    ClockStarted,
    Goal,
    Match,
    PenaltyAwarded,
    ShootoutAttempt,
    Undo,
    event_to_line,
    format_log,
    parse_log,
    read_log,
)
from rules.match.log import numbered_events
from rules.ruleset import PRESETS, load_ruleset


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
    assert len(EVENT_TYPES) == 23


def test_a_resumption_and_a_replay_read_back_as_lines_of_their_own() -> None:
    from rules.match import MatchReplayed, MatchResumed

    text = ('{"v": 2, "seq": 9, "at": 7200000, "type": "match_resumed"}\n'
            '{"v": 2, "seq": 10, "at": 7300000, "type": "match_replayed"}')
    assert parse_log(text, "t.jsonl") == [MatchResumed(at=7_200_000, seq=9), MatchReplayed(at=7_300_000, seq=10)]
    with pytest.raises(EventLogError, match="line 1"):
        parse_log('{"v": 2, "seq": 9, "at": 7200000, "type": "match_resumed", "reason": "x"}', "t.jsonl")


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


# -- fuzz: valid logs mutated at the byte and the value level (issue 8) --------------------------------




ROOT = Path(__file__).parent.parent
SEEDS = sorted((ROOT / "rules" / "examples").glob("*.jsonl")) + sorted((ROOT / "tests" / "traces").glob("*/*.jsonl"))
TEXTS = [p.read_text(encoding="utf-8") for p in SEEDS]
TRIED = {"inputs": 0, "accepted": 0}

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70) | st.floats()
    | st.text(max_size=12) | st.sampled_from(["home", "away", "", "\x00", "7", "ice-hockey", "final", "1e400"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)


def _load(name: str) -> object:
    # Only presets: a mutated header must not make the fuzz read arbitrary files.
    if name not in PRESETS:
        raise CourtsideError(f"not a preset: {name!r}")
    return load_ruleset(name)


@st.composite
def mutated_logs(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(TEXTS))
    if draw(st.booleans()):  # byte level: flip, insert, delete, truncate, duplicate a span
        data = bytearray(text.encode("utf-8"))
        for _ in range(draw(st.integers(1, 4))):
            where = draw(st.integers(0, max(0, len(data) - 1)))
            how = draw(st.sampled_from(["flip", "insert", "delete", "truncate", "repeat"]))
            if how == "flip" and data:
                data[where] ^= 1 << draw(st.integers(0, 7))
            elif how == "insert":
                data[where:where] = draw(st.binary(min_size=1, max_size=6)) or b"["
            elif how == "delete":
                del data[where : where + draw(st.integers(1, 8))]
            elif how == "truncate":
                del data[where:]
            else:
                data[where:where] = data[where : where + draw(st.integers(1, 40))] * draw(st.integers(2, 200))
        return data.decode("utf-8", errors="replace")
    lines = text.splitlines()  # value level: one key of one line gets another JSON value
    index = draw(st.integers(0, len(lines) - 1))
    obj = json.loads(lines[index])
    target = obj["header"] if "header" in obj and isinstance(obj["header"], dict) and draw(st.booleans()) else obj
    key = draw(st.sampled_from([*target, "extra"]))
    if draw(st.integers(0, 9)) == 0:
        target.pop(key, None)
    else:
        target[key] = draw(json_values)
    if draw(st.integers(0, 19)) == 0:
        lines[index] = "[" * draw(st.integers(500, 5000)) + "]" * 3  # nesting deeper than Python reads
    else:
        lines[index] = json.dumps(obj, ensure_ascii=draw(st.booleans()))
    return "\n".join(lines) + "\n"


def _check_one(text: str) -> None:
    """No traceback and nothing accepted that docs/events.md refuses; an accepted log replays or is refused."""
    TRIED["inputs"] += 1
    try:
        parsed = read_log(text, "fuzz.jsonl")
    except EventLogError as err:
        assert err.line is None or err.line >= 1
        return
    TRIED["accepted"] += 1
    assert parsed.version in (1, 2) and (parsed.header is None or parsed.version == 2)
    seqs = [e.seq for e in parsed.events]
    assert all(s >= 1 for s in seqs) and seqs == sorted(set(seqs))
    for line in text.split("\n"):
        if line.strip():
            data = json.loads(line)
            assert type(data.get("v")) is int and data["v"] in (1, 2)  # versions are strict
    # What was accepted is written back the same and reads back equal.
    again = read_log(format_log(parsed.events, parsed.header), "again.jsonl")
    assert (again.header, again.events) == (parsed.header, parsed.events)
    try:
        match = Match.from_log(parsed, _load, source="fuzz.jsonl") if parsed.header else None  # type: ignore[arg-type]
    except CourtsideError:
        return
    if match is not None:
        match.state_at(match.last_at)


@settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", "150")), deadline=2_000, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(mutated_logs())
def test_a_mutated_log_is_read_or_refused_cleanly(text: str) -> None:
    _check_one(text)


@pytest.mark.slow
@settings(max_examples=20_000, deadline=5_000, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(mutated_logs())
def test_a_mutated_log_is_read_or_refused_cleanly_long(text: str) -> None:
    _check_one(text)


def test_the_fuzz_seeds_are_valid_logs() -> None:
    assert len(TEXTS) >= 20
    for text in TEXTS:
        assert read_log(text, "seed").events

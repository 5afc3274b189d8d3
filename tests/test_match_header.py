"""A match log that stands alone: its header line, read back, checked against the ruleset."""

from __future__ import annotations

import pytest

from rules.errors import EventError, EventLogError, IllegalCommand
from rules.match import ClockStarted, Goal, LogHeader, Match, format_log, read_log, ruleset_digest
from rules.ruleset import load_ruleset

HOCKEY = load_ruleset("indoor-hockey")


def header(**extra: object) -> LogHeader:
    fields: dict[str, object] = {"stage": "knockout", "round": "semi_final", "home": "Rot-Weiss Köln",
                                 "away": "Slavia Praha", "match_id": "SF1", "court": "Hall 2"}
    fields.update(extra)
    return LogHeader.for_match(HOCKEY, **fields)  # type: ignore[arg-type]


def test_header_round_trip_and_replay_with_what_it_says() -> None:
    events = [ClockStarted(at=0, seq=1), Goal(at=5_000, seq=2, team="away", player="8")]
    parsed = read_log(format_log(events, header()), "sf1.jsonl")
    assert (parsed.header, parsed.version, parsed.events, parsed.lines) == (header(), 2, tuple(events), (2, 3))
    match = Match.from_log(parsed, load_ruleset)
    assert (match.ruleset.name, match.stage, match.round) == ("indoor-hockey", "knockout", "semi_final")
    assert match.state_at(6_000).away_goals == 1
    overridden = Match.from_log(parsed, load_ruleset, round="pool")  # the round decides the stage
    assert (overridden.stage, overridden.round) == ("round_robin", "pool")
    with pytest.raises(IllegalCommand, match="a final match is played in the knockout stage"):
        Match.from_log(parsed, load_ruleset, stage="round_robin", round="final")


def test_the_digest_follows_the_rules_not_where_they_were_read_from() -> None:
    assert ruleset_digest(HOCKEY) == ruleset_digest(load_ruleset("rules/presets/indoor-hockey.toml"))
    assert ruleset_digest(HOCKEY) != ruleset_digest(load_ruleset("water-polo"))


def test_a_log_replayed_with_other_rules_is_refused() -> None:
    parsed = read_log(format_log([ClockStarted(at=0, seq=1)], header()), "sf1.jsonl")
    with pytest.raises(IllegalCommand, match="not the one this log was written with") as refused:
        Match.from_log(parsed, load_ruleset, ruleset=load_ruleset("water-polo"))
    assert refused.value.key == "ruleset_mismatch"
    lying = LogHeader(ruleset="indoor-hockey", ruleset_digest="0" * 64)
    with pytest.raises(IllegalCommand, match="its rules differ"):
        Match.from_log(read_log(format_log([], lying), "x"), load_ruleset)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"v": 1, "header": {"ruleset": "indoor-hockey", "ruleset_digest": "DIGEST"}}', "a header line is"),
        ('{"v": 2, "header": {"ruleset": "indoor-hockey"}}', "ruleset_digest: required key is missing"),
        ('{"v": 2, "header": {"ruleset": "indoor-hockey", "ruleset_digest": "abc"}}', "ruleset_digest: 64 lowercase"),
        ('{"v": 2, "header": {"ruleset": "indoor-hockey", "ruleset_digest": "DIGEST", "pitch": 1}}',
         "pitch: unknown key"),
        ('{"v": 2, "header": {"ruleset": "indoor-hockey", "ruleset_digest": "DIGEST", "stage": "league"}}',
         "stage: 'league' is not a stage"),
        ('{"v": 2, "header": {"ruleset": "indoor-hockey", "ruleset_digest": "DIGEST", "home": "A\\u0000"}}',
         "home: 1 to 200 printable"),
        ('{"v": 2, "header": {"ruleset": "indoor-hockey", "ruleset_digest": "DIGEST"}, "x": 1}', "a header line is"),
        ('{"v": 2, "header": []}', "header: a JSON object is required"),
    ],
)
def test_a_bad_header_is_refused_naming_the_field(line: str, message: str) -> None:
    text = line.replace("DIGEST", ruleset_digest(HOCKEY)) + "\n"
    with pytest.raises(EventLogError, match=message) as err:
        read_log(text, "h.jsonl")
    assert err.value.line == 1


def test_the_header_is_the_first_line_only_and_versions_do_not_mix() -> None:
    head = format_log([], header())
    event = '{"v": 2, "seq": 1, "at": 0, "type": "clock_started"}\n'
    with pytest.raises(EventLogError, match="line 2: header: only the first line"):
        read_log(event + head, "x")
    with pytest.raises(EventLogError, match="v: 1 in a log of version 2"):
        read_log(head + event.replace('"v": 2', '"v": 1'), "x")


def test_a_version_1_log_is_read_without_header() -> None:
    parsed = read_log('{"v": 1, "seq": 1, "at": 0, "type": "clock_started"}\n', "old.jsonl")
    assert (parsed.header, parsed.version, len(parsed.events)) == (None, 1, 1)
    with pytest.raises(IllegalCommand, match="no header"):
        Match.from_log(parsed, load_ruleset)
    assert Match.from_log(parsed, ruleset=HOCKEY).state_at(1_000).running


def test_a_torn_last_line_is_reported_with_its_byte_offset_or_dropped() -> None:
    good = format_log([ClockStarted(at=0, seq=1), Goal(at=9, seq=2, team="home", player="Å")], header())
    text = good + '{"v": 2, "seq": 3, "at": 1'
    with pytest.raises(EventLogError, match="line 4: not valid JSON") as err:
        read_log(text, "j")
    assert err.value.offset == len(good.encode("utf-8"))
    parsed = read_log(text, "j", lenient_tail=True)
    assert parsed.torn is not None and (parsed.torn.line, parsed.torn.offset) == (4, len(good.encode("utf-8")))
    assert len(parsed.events) == 2
    with pytest.raises(EventLogError, match="line 2"):  # only the last line may be torn
        read_log(good.replace('"seq": 1', '"seq": "1"'), "j", lenient_tail=True)


def test_a_header_built_wrong_in_python_names_the_field() -> None:
    with pytest.raises(EventError, match="on_field"):
        LogHeader(ruleset="x", ruleset_digest="0" * 64, on_field=True)

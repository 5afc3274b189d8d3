"""rules/court_schedule.py: a court's schedule on the wire, one builder and one reader, checked key by key."""

from __future__ import annotations

from datetime import datetime

import pytest

from rules import protocol as p
from rules.court_schedule import CourtMatch, CourtSchedule, Suspended, court_schedule_payload, read_court_schedule
from rules.errors import ProtocolError
from tests.test_protocol import MATCH_7, SCHEDULE, SUSPENDED, schema_for


def test_who_may_not_play_a_scheduled_match_is_optional_and_checked() -> None:
    _, validator = schema_for("schedule")
    good = p.build(id="s1", type="schedule", court="hall-1", payload=SCHEDULE)
    validator.validate(good.to_dict())
    older = {**SCHEDULE, "matches": [{k: v for k, v in MATCH_7.items() if k != "suspended"}]}
    validator.validate(p.build(id="s2", type="schedule", court="hall-1", payload=older).to_dict())
    later = {**SUSPENDED, "note": "a key a later version may add"}  # ignored, so an older table keeps working
    p.build(id="s3", type="schedule", court="hall-1", payload={**SCHEDULE, "matches": [
        {**MATCH_7, "suspended": [later]}]})
    for bad, field in (
        ({**SUSPENDED, "side": "visitors"}, "payload.matches[0].suspended[0].side"),
        ({**SUSPENDED, "matches_left": 0}, "payload.matches[0].suspended[0].matches_left"),
        ({**SUSPENDED, "player": ""}, "payload.matches[0].suspended[0].player"),
        ({k: v for k, v in SUSPENDED.items() if k != "given_in"}, "payload.matches[0].suspended[0]"),
    ):
        payload = {**SCHEDULE, "matches": [{**MATCH_7, "suspended": [bad]}]}
        message = {**good.to_dict(), "payload": payload}
        assert not validator.is_valid(message), bad
        with pytest.raises(ProtocolError) as err:
            p.validate(message)
        assert err.value.field == field


def test_how_an_abandoned_match_is_played_on_is_optional_and_checked() -> None:
    _, validator = schema_for("schedule")
    for how in ("resume", "replay"):
        good = p.build(id="s1", type="schedule", court="hall-1",
                       payload={**SCHEDULE, "matches": [{**MATCH_7, "continues": how}]})
        validator.validate(good.to_dict())
    message = {**good.to_dict(), "payload": {**SCHEDULE, "matches": [{**MATCH_7, "continues": "restart"}]}}
    assert not validator.is_valid(message)
    with pytest.raises(ProtocolError, match="one of resume, replay, not 'restart'") as err:
        p.validate(message)
    assert err.value.field == "payload.matches[0].continues"


def test_a_matchs_class_is_optional_and_checked() -> None:
    _, validator = schema_for("schedule")
    good = p.build(id="s1", type="schedule", court="hall-1",
                   payload={**SCHEDULE, "matches": [{**MATCH_7, "class": "P10"}]})
    validator.validate(good.to_dict())
    assert read_court_schedule(good.payload).matches[0].class_name == "P10"
    assert read_court_schedule(SCHEDULE).matches[0].class_name == ""  # a tournament without classes: no key
    message = {**good.to_dict(), "payload": {**SCHEDULE, "matches": [{**MATCH_7, "class": 10}]}}
    assert not validator.is_valid(message)
    with pytest.raises(ProtocolError, match="a text is required") as err:
        p.validate(message)
    assert err.value.field == "payload.matches[0].class"


def test_a_schedule_has_one_builder_and_one_reader() -> None:

    from rules.result import Result

    schedule = read_court_schedule(SCHEDULE)
    (m,) = schedule.matches
    assert (schedule.court_name, m.match, m.home, m.start, m.status) == (
        "Hall 1", "7", "Örebro SK", datetime(2026, 5, 16, 9, 50), "scheduled")
    assert m.suspended == (Suspended(side="home", player="7", kind="red", label="Red card", given_in=2),)
    assert court_schedule_payload(schedule) == SCHEDULE  # the builder gives back what the reader read
    played = CourtMatch(match="8", number=8, stage="SF1", round="semi_final", kind="knockout",
                              home="Örebro SK", away="winner SF2", away_known=False,
                              start=datetime(2026, 5, 16, 11, 0), status="finished",
                              result=Result(home_goals=2, away_goals=2, outcome="shootout", winner="away",
                                            home_shootout=3, away_shootout=4), continues="replay")
    both = CourtSchedule(court_name="Hall 1", matches=(m, played))
    message = p.build(id="s9", type="schedule", court="hall-1", payload=court_schedule_payload(both))
    schema_for("schedule")[1].validate(message.to_dict())
    assert read_court_schedule(p.parse(p.encode(message)).payload) == both
    for bad, field in (({**MATCH_7, "start": "at ten"}, "payload.matches[0].start"),
                       ({k: v for k, v in MATCH_7.items() if k != "status"}, "payload.matches[0].status"),
                       ({**MATCH_7, "number": "7"}, "payload.matches[0].number"),
                       ({**MATCH_7, "home": None}, "payload.matches[0].home"),
                       ({**MATCH_7, "result": {"home_goals": 1}}, "payload.matches[0].result.away_goals")):
        with pytest.raises(ProtocolError) as err:
            read_court_schedule({**SCHEDULE, "matches": [bad]})
        assert err.value.field == field

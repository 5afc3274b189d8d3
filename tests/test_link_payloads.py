"""rules/link_payloads.py: the link's small payloads read into records, as ``rules.protocol.parse`` hands them on."""

from __future__ import annotations

from typing import Any

import pytest

from rules import protocol as p
from rules.errors import ProtocolError
from rules.link_payloads import (
    AckPayload,
    ErrorPayload,
    HeldPayload,
    LivePayload,
    PresencePayload,
    read_ack,
    read_error,
    read_held,
    read_presence,
)
from rules.live import live_payload
from rules.match import ClockStarted, Goal, Match, MatchState
from rules.ruleset import load_ruleset


def test_every_small_message_arrives_as_its_record() -> None:
    """The table, the service and the screens read these fields; none reads a payload's keys by hand."""
    sent = [
        (p.presence_message(id="p", court="hall-1", online=True, at="2026-01-16T17:00:00+01:00"),
         PresencePayload(state="online", at="2026-01-16T17:00:00+01:00")),
        (p.ack_message(id="a", court="hall-1", match="7", seq=4, of="event", through=4),
         AckPayload(of="event", through=4)),
        (p.held_message(id="h", court="hall-1", match="7", through=12, result=True),
         HeldPayload(through=12, result=True)),
        (p.error_message(id="e", reason="held for the organiser", topic="t", refused_id="r1", conflict=True),
         ErrorPayload(reason="held for the organiser", topic="t", id="r1", conflict=True)),
    ]
    for message, body in sent:
        assert message.body == body
        assert p.parse(p.encode(message)).body == body


def test_a_live_state_arrives_with_its_board_and_the_engines_state() -> None:
    rules = load_ruleset("indoor-hockey")
    match = Match(rules, stage="round_robin", round="pool")
    match.apply(ClockStarted(at=0))
    match.apply(Goal(at=1000, team="away"))
    state = match.state_at(1500)
    message = p.build(id="l", type="live", court="hall-1", match="7", payload=live_payload(state, rules, "7"))
    body = p.parse(p.encode(message)).body
    assert isinstance(body, LivePayload)
    assert (body.board.match, body.board.home_goals, body.board.away_goals, body.board.running) == ("7", 0, 1, True)
    assert MatchState.from_dict(body.state) == state


@pytest.mark.parametrize(("read", "payload", "where"), [
    (read_presence, {"state": "away"}, r"payload\.state"),
    (read_presence, {"state": "online", "at": 5}, r"payload\.at"),
    (read_presence, {"state": "online", "when": "x"}, r"payload\.when"),
    (read_ack, {"of": "goal", "through": 1}, r"payload\.of"),
    (read_ack, {"of": "event", "through": -1}, r"payload\.through"),
    (read_held, {"through": 3, "result": "yes"}, r"payload\.result"),
    (read_held, {"through": 3, "result": True, "extra": 1}, r"payload\.extra"),
    (read_error, {"reason": None}, r"payload\.reason"),
    (read_error, {"reason": "x", "topic": 3}, r"payload\.topic"),
])
def test_a_wrong_payload_is_refused_by_where(read: Any, payload: dict[str, Any], where: str) -> None:
    with pytest.raises(ProtocolError, match=where):
        read(payload)

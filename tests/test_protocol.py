"""rules/protocol.py: topic names, the envelope, and docs/asyncapi.yaml against real captured messages."""

from __future__ import annotations

import json
import queue
import time
import uuid
from pathlib import Path
from typing import Any

import jsonschema
import paho.mqtt.client as mqtt
import pytest
import yaml
from paho.mqtt.enums import CallbackAPIVersion

from rules import protocol as p
from rules.errors import CourtsideError, ProtocolError
from rules.published_scorers import PublishedScorer, scorers_payload

ASYNCAPI = Path(__file__).resolve().parent.parent / "docs" / "asyncapi.yaml"
GOAL = {"v": 1, "seq": 3, "at": 61_000, "type": "goal", "team": "home", "player": "7"}
SUSPENDED = {"side": "home", "player": "7", "kind": "red", "label": "Red card", "given_in": 2, "matches_left": 1}
MATCH_7: dict[str, Any] = {
    "match": "7", "number": 7, "stage": "A", "round": "pool", "kind": "round_robin", "home": "Örebro SK",
    "away": "Hammarby IF", "home_known": True, "away_known": True, "start": "2026-05-16T09:50",
    "end": "2026-05-16T10:40", "status": "scheduled", "result": None, "suspended": [SUSPENDED]}
SCHEDULE: dict[str, Any] = {"court_name": "Hall 1", "matches": [MATCH_7]}
RESULT = {"home_goals": 2, "away_goals": 1, "outcome": "regular", "winner": "home"}


def schema_for(kind: str) -> tuple[dict[str, Any], jsonschema.protocols.Validator]:
    doc = yaml.safe_load(ASYNCAPI.read_text())
    ref = doc["components"]["messages"][kind]["payload"]["$ref"]
    root = {"$ref": ref, "components": doc["components"]}
    return doc, jsonschema.Draft202012Validator(root)


def test_topics_live_under_one_versioned_root() -> None:
    assert p.court_topic("cup", "hall-1", "events") == "courtside/v2/cup/court/hall-1/events"
    assert p.pool_topic("cup", "A") == "courtside/v2/cup/pool/A/table"
    assert p.errors_topic("cup") == "courtside/v2/cup/errors"
    assert p.parse_topic("courtside/v2/cup/court/hall-1/ack") == p.Topic("cup", "ack", court="hall-1")
    assert p.parse_topic("courtside/v2/cup/pool/A/table") == p.Topic("cup", "table", pool="A")
    assert p.scorers_topic("cup", "P13") == "courtside/v2/cup/class/P13/scorers"
    assert p.parse_topic("courtside/v2/cup/class/P13/scorers") == p.Topic("cup", "scorers", class_name="P13")
    # A file without classes has one, named "": its level is "_", which no class name can be.
    assert p.parse_topic(p.scorers_topic("cup", "")) == p.Topic("cup", "scorers", class_name="")
    assert p.slug("Hall 1") == "hall-1"
    with pytest.raises(ProtocolError, match="topic"):
        p.parse_topic("courtside/v3/cup/errors")
    with pytest.raises(ProtocolError, match="court"):
        p.court_topic("cup", "hall+1", "events")
    with pytest.raises(ProtocolError, match="kind"):
        p.court_topic("cup", "hall-1", "standings")


def test_an_event_round_trips_through_its_envelope() -> None:
    message = p.event_message(id="a1", court="hall-1", match="7", event=GOAL)
    parsed = p.parse(p.encode(message), topic="courtside/v2/cup/court/hall-1/events")
    assert parsed == message
    assert parsed.seq == 3 and parsed.payload["player"] == "7"


def test_a_table_of_the_previous_version_is_refused_with_the_reason_in_its_own_envelope() -> None:
    """Version 2 came with classes (a match's class in the schedule); a version-1 table would play a class's
    match by its own rules. Its messages are refused saying so, on its own topics and in its own envelope."""
    old = {**p.event_message(id="a1", court="hall-1", match="7", event=GOAL).to_dict(), "v": 1}
    with pytest.raises(ProtocolError, match="update courtside on the table") as err:
        p.parse(json.dumps(old).encode())
    assert err.value.field == "v" and "protocol 1" in str(err.value)
    assert "courtside/v1/cup/court/+/result" in p.service_subscriptions("cup")
    assert "courtside/v2/cup/court/+/result" in p.service_subscriptions("cup")
    assert p.from_older_table("courtside/v1/cup/court/hall-1/events")
    assert not p.from_older_table("courtside/v2/cup/court/hall-1/events")
    topic, raw = p.older_table_refusal("courtside/v1/cup/court/hall-1/events", id="e1")
    assert topic == "courtside/v1/cup/errors"
    assert json.loads(raw) == {"v": 1, "id": "e1", "type": "error", "court": "hall-1", "match": None, "seq": None,
                               "payload": {"reason": p.OLDER_TABLE, "topic": "courtside/v1/cup/court/hall-1/events"}}
    with pytest.raises(ProtocolError, match="is not under courtside/v1"):
        p.older_table_refusal("courtside/v2/cup/court/hall-1/events", id="e1")


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"seq": "3"}, "seq"),
        ({"seq": 0}, "seq"),
        ({"seq": True}, "seq"),
        ({"v": 3}, "v"),
        ({"type": "goal"}, "type"),
        ({"court": "hall/1"}, "court"),
        ({"id": ""}, "id"),
        ({"extra": 1}, "extra"),
        ({"payload": []}, "payload"),
        ({"payload": {**GOAL, "seq": 4}}, "payload.seq"),
        ({"payload": {**GOAL, "team": "visitors"}}, "payload"),
        ({"match": None}, "match"),
    ],
)
def test_a_wrong_field_is_refused_by_name(change: dict[str, Any], field: str) -> None:
    data = {**p.event_message(id="a1", court="hall-1", match="7", event=GOAL).to_dict(), **change}
    with pytest.raises(ProtocolError) as err:
        p.parse(json.dumps(data).encode())
    assert err.value.field == field
    assert isinstance(err.value, CourtsideError) and isinstance(err.value, ValueError)


def test_size_encoding_json_and_repeated_keys_are_refused() -> None:
    with pytest.raises(ProtocolError, match="size"):
        p.parse(b"{" + b" " * p.MAX_BYTES + b"}")
    with pytest.raises(ProtocolError, match="encoding"):
        p.parse(b"\xff\xfe")
    with pytest.raises(ProtocolError, match="json"):
        p.parse(b"{not json")
    with pytest.raises(ProtocolError, match="id: given twice"):
        p.parse(b'{"id": "a", "id": "b"}')
    with pytest.raises(ProtocolError, match="json"):
        p.parse(b"[" * 100_00 + b"]" * 100_00, limit=10**6)


def test_a_message_on_another_courts_topic_or_channel_is_refused() -> None:
    raw = p.encode(p.event_message(id="a1", court="hall-1", match="7", event=GOAL))
    with pytest.raises(ProtocolError, match="court"):
        p.parse(raw, topic="courtside/v2/cup/court/hall-2/events")
    with pytest.raises(ProtocolError, match="type"):
        p.parse(raw, topic="courtside/v2/cup/court/hall-1/result")


def test_result_payload_is_strict() -> None:
    ok = p.result_message(id="r1", court="c1", match="7", seq=9, result=RESULT)
    assert ok.payload["outcome"] == "regular"
    for bad, field in (
        ({**RESULT, "home_goals": -1}, "payload.home_goals"),
        ({**RESULT, "outcome": "won"}, "payload.outcome"),
        ({**RESULT, "winner": "visitors"}, "payload.winner"),
        ({**RESULT, "score": "2-1"}, "payload.score"),
    ):
        with pytest.raises(ProtocolError) as err:
            p.result_message(id="r1", court="c1", match="7", seq=9, result=bad)
        assert err.value.field == field


def _capture(broker_url: str, topic_filter: str, publish: list[tuple[str, bytes, bool]], count: int) -> list[Any]:
    port = int(broker_url.rsplit(":", 1)[1])
    got: queue.Queue[mqtt.MQTTMessage] = queue.Queue()
    sub = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"cap-{uuid.uuid4().hex[:6]}")
    sub.on_message = lambda _c, _u, m: got.put(m)
    sub.connect("127.0.0.1", port)
    sub.subscribe(topic_filter, qos=1)
    sub.loop_start()
    pub = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"pub-{uuid.uuid4().hex[:6]}")
    pub.connect("127.0.0.1", port)
    pub.loop_start()
    try:

        time.sleep(0.2)  # let the subscription land before publishing
        for topic, payload, retain in publish:
            pub.publish(topic, payload, qos=1, retain=retain).wait_for_publish(5)
        return [got.get(timeout=5) for _ in range(count)]
    finally:
        pub.loop_stop()
        pub.disconnect()
        sub.loop_stop()
        sub.disconnect()


def test_captured_messages_match_the_asyncapi_schemas(mosquitto: Any) -> None:
    broker = mosquitto()
    t = "cup"
    sent = [
        (p.court_topic(t, "hall-1", "events"), p.event_message(id="e3", court="hall-1", match="7", event=GOAL)),
        (p.court_topic(t, "hall-1", "result"),
         p.result_message(id="r9", court="hall-1", match="7", seq=9, result=RESULT)),
        (p.court_topic(t, "hall-1", "presence"), p.presence_message(id="p1", court="hall-1", online=True)),
        (p.court_topic(t, "hall-1", "ack"),
         p.ack_message(id="k1", court="hall-1", match="7", seq=3, of="event", through=3)),
        (p.court_topic(t, "hall-1", "ack"),
         p.held_message(id="h1", court="hall-1", match="7", through=2, result=False)),
        (p.errors_topic(t), p.error_message(id="x1", reason="unknown match 99", topic="courtside/v2/t/court/a/events")),
        (p.court_topic(t, "hall-1", "schedule"), p.build(id="s1", type="schedule", court="hall-1", payload=SCHEDULE)),
        (p.scorers_topic(t, "P13"), p.build(id="c1", type="scorers", payload=scorers_payload("P13", [
            PublishedScorer(rank=1, team="Köln", label="#9 Ada", goals=3)]))),
    ]
    captured = _capture(broker.url, f"{p.ROOT}/{t}/#", [(tp, p.encode(m), False) for tp, m in sent], len(sent))
    doc = yaml.safe_load(ASYNCAPI.read_text())
    for message in captured:
        where = p.parse_topic(message.topic)
        parsed = p.parse(message.payload, topic=message.topic)
        channel = doc["channels"][where.kind]
        assert parsed.type in channel["messages"]  # the ack channel carries acks and held messages
        _, validator = schema_for(parsed.type)
        validator.validate(json.loads(message.payload))


def test_the_schemas_refuse_what_parse_refuses() -> None:
    _, validator = schema_for("event")
    good = p.event_message(id="e3", court="hall-1", match="7", event=GOAL).to_dict()
    validator.validate(good)
    for bad in ({**good, "extra": 1}, {**good, "seq": 0}, {**good, "payload": {**GOAL, "team": "x"}}):
        assert not validator.is_valid(bad)
        with pytest.raises(ProtocolError):
            p.validate(bad)


def test_every_channel_has_its_message_and_the_document_is_asyncapi_3() -> None:
    doc = yaml.safe_load(ASYNCAPI.read_text())
    assert doc["asyncapi"].startswith("3.")
    kinds = {p.parse_topic(ch["address"].format(tournament="t", court="c", pool="A", **{"class": "P13"})).kind
             for ch in doc["channels"].values()}
    assert kinds == set(p.KIND_OF_TYPE.values())
    for ch in doc["channels"].values():
        for message in ch["messages"].values():
            name = message["$ref"].rsplit("/", 1)[1]
            assert name in doc["components"]["messages"]


def test_a_broker_is_named_by_a_url_with_its_scheme_port_and_account() -> None:
    from rules.errors import FileLineError
    from rules.protocol import parse_broker

    b = parse_broker("mqtt://hall-1:p%40ss@example:1884")
    assert (b.host, b.port, b.username, b.password, b.tls) == ("example", 1884, "hall-1", "p@ss", False)
    assert (parse_broker("mqtts://venue").port, parse_broker("mqtts://venue").tls) == (8883, True)
    assert parse_broker("127.0.0.1").port == 1883 and parse_broker("ssl://venue").tls
    with pytest.raises(FileLineError, match=r"--broker.*use mqtt://"):
        parse_broker("http://venue")
    with pytest.raises(FileLineError, match="the port is not a number"):
        parse_broker("mqtt://venue:eighty")

"""Thousands of bad payloads through the service's own message path: each refused with a reason, data unchanged.

The short run is in the normal suite; ``pytest -m slow tests/test_server_service_fuzz.py`` runs the long one
(the figure in docs/reliability.md, "MQTT messages").
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from rules import protocol as p
from server.db.models import EventRow, ResultRow
from server.plan import load_plan
from server.service import Service
from server.store import Store
from tests.service_support import HOCKEY

TOPIC = "courtside/v2/indoor-hockey/court/hall-1/events"
GOOD = p.event_message(id="e1", court="hall-1", match="1", event={"v": 2, "seq": 1, "at": 0,
                                                                  "type": "clock_started"}).to_dict()
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


def _mutated(draw: Any) -> bytes:
    data: dict[str, Any] = json.loads(json.dumps(GOOD))
    key = draw(st.sampled_from([*GOOD, "payload.type", "payload.seq", "payload.extra", "court", "match"]))
    how = draw(st.sampled_from(["drop", "replace"]))
    target, field = (data["payload"], key.split(".")[1]) if key.startswith("payload.") else (data, key)
    if how == "drop":
        target.pop(field, None)
        if field in ("court", "match") and target is data:
            data[field] = draw(st.sampled_from(["hall-2", "99", "x" * 80, "hall/1"]))
    else:
        target[field] = draw(json_values)
    return json.dumps(data).encode()


@st.composite
def bad_payloads(draw: Any) -> tuple[str, bytes]:
    kind = draw(st.sampled_from(["bytes", "json", "mutated", "big", "topic"]))
    if kind == "bytes":
        return TOPIC, draw(st.binary(max_size=200))
    if kind == "json":
        return TOPIC, json.dumps(draw(json_values)).encode()
    if kind == "big":
        return TOPIC, json.dumps({**GOOD, "pad": "x" * draw(st.integers(p.MAX_BYTES, 3 * p.MAX_BYTES))}).encode()
    if kind == "topic":
        court = draw(st.sampled_from(["hall-2", "hall-9"]))
        return f"courtside/v2/indoor-hockey/court/{court}/events", json.dumps(GOOD).encode()
    return TOPIC, _mutated(draw)


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Any:
    store = Store.open(f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'f.db'}", load_plan(HOCKEY))
    s = Service(store, "mqtt://127.0.0.1:9")  # never connected: what it would publish stays queued in paho
    yield s
    store.close()


def _stored(service: Service) -> tuple[int, int]:
    with service.store.session() as s:
        return (s.scalar(select(func.count()).select_from(EventRow)) or 0,
                s.scalar(select(func.count()).select_from(ResultRow)) or 0)


def _run(service: Service, topic: str, raw: bytes) -> None:
    before = _stored(service), service.counts["refused"]
    published: list[Any] = []
    original = service.client.publish
    service.client.publish = lambda *a, **k: published.append(a)  # type: ignore[method-assign,assignment]
    try:
        service._messages([(topic, raw)], set(), set())
    finally:
        service.client.publish = original  # type: ignore[method-assign]
    after = _stored(service), service.counts["refused"]
    valid = False
    try:
        m = p.parse(raw, topic=topic)
        valid = m.court == "hall-1" and m.match == "1" and m.type == "event"
    except Exception:
        pass
    if valid:  # a mutation that happens to be a good event: stored at most once, never an error
        return
    assert after[0] == before[0], f"data changed for {raw[:80]!r}"
    assert after[1] == before[1] + 1
    (topic_out, payload), *_ = published
    assert topic_out == p.errors_topic("indoor-hockey")
    assert p.parse(payload, limit=p.MAX_SERVICE_BYTES).payload["reason"]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                    HealthCheck.too_slow, HealthCheck.data_too_large])
@given(bad=bad_payloads())
def test_bad_payloads_are_refused_with_a_reason_and_change_nothing(service: Service, bad: tuple[str, bytes]) -> None:
    _run(service, *bad)


@pytest.mark.slow
@settings(max_examples=20_000, deadline=None, suppress_health_check=list(HealthCheck))
@given(bad=bad_payloads())
def test_bad_payloads_long_campaign(service: Service, bad: tuple[str, bytes]) -> None:
    _run(service, *bad)


def test_the_service_still_takes_a_good_event_afterwards(service: Service) -> None:
    before = _stored(service)
    service._messages([(TOPIC, json.dumps({**GOOD, "id": "after-fuzz", "payload": {**GOOD["payload"], "seq": 2},
                                           "seq": 2}).encode())], set(), set())
    assert _stored(service)[0] == before[0] + 1

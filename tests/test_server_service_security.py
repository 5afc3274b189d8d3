"""The shipped Mosquitto configuration, run for real: per-court credentials, the ACL, the TLS listener."""

from __future__ import annotations

import queue
import shutil
import ssl
import subprocess
import sys
import threading
import uuid
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from rules import protocol as p
from server.passwords import passwords_command

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "systemd" / "mosquitto"
GOAL = {"v": 2, "seq": 1, "at": 0, "type": "clock_started"}


def shipped_broker(mosquitto: Any, tmp_path: Path) -> Any:
    conf = (SHIPPED / "mosquitto.conf").read_text()
    conf = (conf.replace("/etc/mosquitto/courtside", "{dir}").replace("/var/lib/mosquitto/", "{dir}/")
            .replace("listener 1883", "listener {port} 127.0.0.1")
            .replace("listener 8883", "listener {tls_port} 127.0.0.1"))
    broker = mosquitto(conf, run=False)
    shutil.copy(SHIPPED / "acl", broker.dir / "acl")
    passwords_command(str(broker.dir / "passwd"), ["hall-1:pw-hall-1", "hall-2:pw-hall-2"],
                      "courtside-server:pw-server", None, ["screen:pw-screen"])
    tls = broker.dir / "tls"
    tls.mkdir()
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("openssl is not installed: the TLS listener needs a certificate")
    subprocess.run([openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(tls / "server.key"),
                    "-out", str(tls / "server.crt")], check=True, capture_output=True)
    shutil.copy(tls / "server.crt", tls / "ca.crt")
    broker.start()
    return broker


def subscribe(c: mqtt.Client, topics: str | list[tuple[str, int]]) -> None:
    """Subscribe and wait for the broker's SUBACK: what is published after it reaches ``c`` (a filter the ACL
    denies is acknowledged too, and delivers nothing)."""
    done = threading.Event()
    c.on_subscribe = lambda *_a: done.set()
    c.subscribe(topics if isinstance(topics, list) else [(topics, 1)])
    assert done.wait(10), "the broker did not acknowledge the subscription"


def client(port: int, user: str | None, password: str | None, *, ca: Path | None = None) -> tuple[mqtt.Client, int]:
    c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"{user}-{uuid.uuid4().hex[:6]}")
    if user:
        c.username_pw_set(user, password)
    if ca is not None:
        c.tls_set(ca_certs=str(ca), cert_reqs=ssl.CERT_REQUIRED)
    codes: queue.Queue[int] = queue.Queue()
    c.on_connect = lambda _c, _u, _f, reason, _p=None: codes.put(reason.value)
    c.connect("127.0.0.1", port)
    c.loop_start()
    return c, codes.get(timeout=10)


def test_an_anonymous_client_is_refused(mosquitto: Any, tmp_path: Path) -> None:
    broker = shipped_broker(mosquitto, tmp_path)
    c, code = client(broker.port, None, None)
    c.loop_stop()
    assert code != 0  # not authorised
    c2, code2 = client(broker.port, "hall-1", "wrong password")
    c2.loop_stop()
    assert code2 != 0


def test_a_table_writes_only_its_own_courts_topics(mosquitto: Any, tmp_path: Path) -> None:
    broker = shipped_broker(mosquitto, tmp_path)
    service, code = client(broker.port, "courtside-server", "pw-server")
    assert code == 0
    got: queue.Queue[str] = queue.Queue()
    service.on_message = lambda _c, _u, m: got.put(m.topic)
    subscribe(service, "courtside/v2/#")
    table, code = client(broker.port, "hall-1", "pw-hall-1")
    assert code == 0
    raw = p.encode(p.event_message(id="e1", court="hall-2", match="2", event=GOAL))
    for forbidden in (p.court_topic("cup", "hall-2", "events"), p.court_topic("cup", "hall-1", "ack"),
                      p.court_topic("cup", "hall-1", "schedule"), p.pool_topic("cup", "A"), p.errors_topic("cup")):
        table.publish(forbidden, raw, qos=1).wait_for_publish(5)
    allowed = p.court_topic("cup", "hall-1", "events")
    table.publish(allowed, raw, qos=1).wait_for_publish(5)
    # One connection keeps its order: had any forbidden message passed, it would arrive first.
    assert got.get(timeout=10) == allowed
    for c in (service, table):
        c.loop_stop()
        c.disconnect()


def test_the_tls_listener_takes_a_table_with_the_venues_ca(mosquitto: Any, tmp_path: Path) -> None:
    broker = shipped_broker(mosquitto, tmp_path)
    c, code = client(broker.tls_port, "hall-1", "pw-hall-1", ca=broker.dir / "tls" / "ca.crt")
    assert code == 0
    c.publish(p.court_topic("cup", "hall-1", "presence"),
              p.encode(p.presence_message(id="p1", court="hall-1", online=True)), qos=1).wait_for_publish(5)
    c.loop_stop()
    c.disconnect()


def test_a_screen_user_reads_the_courts_and_tables_and_writes_nothing(mosquitto: Any, tmp_path: Path) -> None:
    broker = shipped_broker(mosquitto, tmp_path)
    screen, code = client(broker.port, "screen", "pw-screen")
    assert code == 0
    seen: queue.Queue[str] = queue.Queue()
    screen.on_message = lambda _c, _u, m: seen.put(m.topic)
    subscribe(screen, [(f"courtside/v2/cup/court/+/{kind}", 1) for kind in ("live", "presence", "schedule")]
              + [("courtside/v2/cup/pool/+/table", 1)])
    service, code = client(broker.port, "courtside-server", "pw-server")
    assert code == 0
    got: queue.Queue[str] = queue.Queue()
    service.on_message = lambda _c, _u, m: got.put(m.topic)
    subscribe(service, "courtside/v2/#")
    raw = p.encode(p.presence_message(id="s1", court="hall-1", online=True))
    for forbidden in (p.court_topic("cup", "hall-1", "live"), p.court_topic("cup", "hall-1", "events"),
                      p.court_topic("cup", "hall-1", "result"), p.court_topic("cup", "screen", "live"),
                      p.pool_topic("cup", "A"), p.court_topic("cup", "hall-1", "ack"), p.errors_topic("cup")):
        screen.publish(forbidden, raw, qos=1).wait_for_publish(5)
    table, code = client(broker.port, "hall-1", "pw-hall-1")
    assert code == 0
    shown = [p.court_topic("cup", "hall-1", "live"), p.court_topic("cup", "hall-1", "presence")]
    for topic in shown:
        table.publish(topic, raw, qos=1).wait_for_publish(5)
    service.publish(p.pool_topic("cup", "A"), raw, qos=1).wait_for_publish(5)
    # The service hears only the table's two messages (none of the screen's), then its own table.
    assert [got.get(timeout=10) for _ in range(3)] == [*shown, p.pool_topic("cup", "A")]
    # The screen hears what it shows: the table's live state and presence, the service's pool table.
    assert sorted(seen.get(timeout=10) for _ in range(3)) == sorted([*shown, p.pool_topic("cup", "A")])
    for c in (screen, service, table):
        c.loop_stop()
        c.disconnect()


def test_the_passwords_command_makes_a_screen_user_and_refuses_a_courts_name(tmp_path: Path) -> None:
    if shutil.which("mosquitto_passwd") is None and not Path("/usr/bin/mosquitto_passwd").exists():
        pytest.skip("mosquitto_passwd is not installed")
    out = subprocess.run([sys.executable, "-m", "courtside", "server", "passwords", str(tmp_path / "passwd"),
                          "--court", "hall-1:pw", "--screen", "screen"], capture_output=True, text=True,
                         cwd=ROOT, check=True)
    users = [line.split(":")[0] for line in (tmp_path / "passwd").read_text().splitlines()]
    assert users == ["courtside-server", "hall-1", "screen"]
    printed = dict(line.split(" ", 1) for line in out.stdout.splitlines())
    assert set(printed) == {"courtside-server", "screen"} and len(printed["screen"]) >= 20
    bad = subprocess.run([sys.executable, "-m", "courtside", "server", "passwords", str(tmp_path / "other"),
                          "--court", "hall-1", "--screen", "hall-1"], capture_output=True, text=True, cwd=ROOT)
    assert bad.returncode != 0 and "not a court's" in bad.stderr
    assert not (tmp_path / "other").exists()


def test_a_table_of_the_previous_protocol_is_heard_by_the_service_and_reads_why_it_is_refused(
        mosquitto: Any, tmp_path: Path) -> None:
    """A table not updated since protocol 1 writes its court's messages under courtside/v1: the ACL lets the
    service hear them and answer on that version's errors topic, which the table may read; nothing else."""
    broker = shipped_broker(mosquitto, tmp_path)
    service, code = client(broker.port, "courtside-server", "pw-server")
    assert code == 0
    heard: queue.Queue[str] = queue.Queue()
    service.on_message = lambda _c, _u, m: heard.put(m.topic)
    subscribe(service, [(t, 1) for t in p.service_subscriptions("cup")])
    table, code = client(broker.port, "hall-1", "pw-hall-1")
    assert code == 0
    told: queue.Queue[bytes] = queue.Queue()
    table.on_message = lambda _c, _u, m: told.put(bytes(m.payload))
    subscribe(table, "courtside/v1/cup/errors")
    old = "courtside/v1/cup/court/hall-1/events"
    table.publish("courtside/v1/cup/court/hall-2/events", b"{}", qos=1).wait_for_publish(5)  # not its court
    table.publish(old, b"{}", qos=1).wait_for_publish(5)
    assert heard.get(timeout=10) == old  # in order on one connection: the other court's would have come first
    service.publish(*p.older_table_refusal(old, id="r1"), qos=1).wait_for_publish(5)
    assert p.OLDER_TABLE in told.get(timeout=10).decode()
    for c in (service, table):
        c.loop_stop()
        c.disconnect()

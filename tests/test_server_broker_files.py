"""The shipped Mosquitto configuration started the way Debian starts it: as root, dropping to the mosquitto
user before it reads the password file, the ACL and the TLS key, which therefore must be that user's.

Regression test for issue 21: the password file written by `courtside server passwords` and the key from
the shipped openssl line were root's alone, and Mosquitto 2 stopped with "Unable to open pwfile".
Here the broker runs as the mosquitto user (checked in /proc), every account connects, and one court
cannot write another court's topics.
"""

from __future__ import annotations

import os
import pwd
import queue
import shutil
import stat
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from rules import protocol as p
from server.passwords import BROKER_USER, passwords_command
from tests.conftest import Broker
from tests.test_server_service_security import SHIPPED, client, subscribe

ACCOUNTS = {"courtside-server": "pw-server", "hall-1": "pw-hall-1", "hall-2": "pw-hall-2", "screen": "pw-screen"}


def _as_shipped_says(path: Path, owner: pwd.struct_passwd) -> None:
    """What the shipped config's comment tells the operator to run for a secret file."""
    os.chown(path, owner.pw_uid, owner.pw_gid)
    path.chmod(0o600)


@pytest.fixture
def broker() -> Iterator[Broker]:
    if os.geteuid() != 0:
        pytest.skip("Mosquitto drops to its own user only when started as root")
    try:
        owner = pwd.getpwnam(BROKER_USER)
    except KeyError:
        pytest.skip("no mosquitto user (the mosquitto package makes it)")
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("openssl is not installed: the TLS listener needs a key")
    # A folder the mosquitto user can pass through, as /etc/mosquitto/courtside is (a test's tmp_path is not).
    home = Path(tempfile.mkdtemp(prefix="courtside-mosquitto-"))
    home.chmod(0o755)
    conf = (SHIPPED / "mosquitto.conf").read_text()
    conf = (conf.replace("/etc/mosquitto/courtside", str(home)).replace("/var/lib/mosquitto/", f"{home}/data/")
            .replace("listener 1883", "listener {port} 127.0.0.1")
            .replace("listener 8883", "listener {tls_port} 127.0.0.1"))
    b = Broker(conf, home)
    b.conf_path.write_text(b.conf_path.read_text().replace("\nuser root\n", "\n"))  # Debian's way: drop to mosquitto
    data = home / "data"
    data.mkdir()
    os.chown(data, owner.pw_uid, owner.pw_gid)
    shutil.copy(SHIPPED / "acl", home / "acl")
    _as_shipped_says(home / "acl", owner)
    passwords_command(str(home / "passwd"), ["hall-1:pw-hall-1", "hall-2:pw-hall-2"], "courtside-server:pw-server",
                      None, ["screen:pw-screen"])
    tls = home / "tls"
    tls.mkdir(mode=0o755)
    subprocess.run([openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(tls / "server.key"),
                    "-out", str(tls / "server.crt")], check=True, capture_output=True)
    _as_shipped_says(tls / "server.key", owner)
    shutil.copy(tls / "server.crt", tls / "ca.crt")
    for crt in ("server.crt", "ca.crt"):
        (tls / crt).chmod(0o644)
    try:
        b.start()
        yield b
    finally:
        b.stop()
        shutil.rmtree(home, ignore_errors=True)


def test_the_password_file_is_the_brokers_alone(tmp_path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("only root can give a file to the mosquitto user")
    passwords_command(str(tmp_path / "passwd"), ["hall-1:pw-hall-1"], "courtside-server:pw", None)
    info = (tmp_path / "passwd").stat()
    assert pwd.getpwuid(info.st_uid).pw_name == BROKER_USER
    assert stat.S_IMODE(info.st_mode) == 0o600


def test_the_shipped_broker_runs_as_mosquitto_and_takes_every_account(broker: Broker) -> None:
    status = Path(f"/proc/{broker.pid}/status").read_text()
    uid = int(next(line for line in status.splitlines() if line.startswith("Uid:")).split()[1])
    assert uid == pwd.getpwnam(BROKER_USER).pw_uid
    for user, password in ACCOUNTS.items():
        c, code = client(broker.port, user, password)
        c.loop_stop()
        c.disconnect()
        assert code == 0, f"{user} refused: {broker.log_path.read_text(errors='replace')}"
    tls, code = client(broker.tls_port, "hall-2", "pw-hall-2", ca=broker.dir / "tls" / "ca.crt")
    tls.loop_stop()
    tls.disconnect()
    assert code == 0  # the TLS key, the mosquitto user's, was read
    log = broker.log_path.read_text(errors="replace")
    assert "Unable to" not in log and "Error" not in log


def test_one_court_cannot_write_another_courts_topics(broker: Broker) -> None:
    service, code = client(broker.port, "courtside-server", "pw-server")
    assert code == 0
    got: queue.Queue[str] = queue.Queue()
    service.on_message = lambda _c, _u, m: got.put(m.topic)
    subscribe(service, "courtside/v2/#")
    hall1, code = client(broker.port, "hall-1", "pw-hall-1")
    assert code == 0
    raw = p.encode(p.presence_message(id="x1", court="hall-2", online=True))
    for kind in ("events", "result", "live", "presence"):
        hall1.publish(p.court_topic("cup", "hall-2", kind), raw, qos=1).wait_for_publish(5)
    own = p.court_topic("cup", "hall-1", "presence")
    hall1.publish(own, raw, qos=1).wait_for_publish(5)
    assert got.get(timeout=10) == own  # in order on one connection: a forbidden one would have come first
    for c in (service, hall1):
        c.loop_stop()
        c.disconnect()

"""``courtside server``'s options for an open network: the broker password from a file, systemd's
credentials or the environment (never the command line), trusted proxies, the trusted-LAN mode."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from courtside.commands.server import broker_url
from rules.errors import CourtsideError
from tests.ports import free_port
from tests.service_support import HOCKEY


def test_the_password_comes_from_a_file(tmp_path: Path) -> None:
    secret = tmp_path / "pw"
    secret.write_text("s3cret/with:odd@chars\n")
    url = broker_url("mqtts://broker.local:8883", "courtside-server", str(secret), {})
    assert url == "mqtts://courtside-server:s3cret%2Fwith%3Aodd%40chars@broker.local:8883"


def test_systemds_credentials_directory_is_read_when_no_file_is_named(tmp_path: Path) -> None:
    (tmp_path / "broker-password").write_text("from-systemd")
    env = {"CREDENTIALS_DIRECTORY": str(tmp_path), "COURTSIDE_BROKER_PASSWORD": "from-env"}
    assert broker_url("mqtt://h:1883", "svc", None, env) == "mqtt://svc:from-systemd@h:1883"
    assert broker_url("mqtt://h:1883", "svc", None, {"COURTSIDE_BROKER_PASSWORD": "from-env"}) == \
        "mqtt://svc:from-env@h:1883"


def test_without_an_account_the_url_is_kept() -> None:
    assert broker_url("mqtt://127.0.0.1:1883", None, None, {}) == "mqtt://127.0.0.1:1883"
    assert broker_url("mqtt://u:p@h:1", None, None, {}) == "mqtt://u:p@h:1"
    assert broker_url("mqtt://u@h:1", None, None, {"COURTSIDE_BROKER_PASSWORD": "pw"}) == "mqtt://u:pw@h:1"


def test_bad_credentials_say_where(tmp_path: Path) -> None:
    with pytest.raises(CourtsideError, match=r"--broker-password-file .*missing"):
        broker_url("mqtt://h", "u", str(tmp_path / "missing"), {})
    (tmp_path / "empty").write_text("\n")
    with pytest.raises(CourtsideError, match="first line is empty"):
        broker_url("mqtt://h", "u", str(tmp_path / "empty"), {})
    with pytest.raises(CourtsideError, match="needs its account's name"):
        broker_url("mqtt://h", None, None, {"COURTSIDE_BROKER_PASSWORD": "pw"})


def _serve(args: list[str], env: dict[str, str], tmp_path: Path) -> tuple[subprocess.Popen[str], int]:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "courtside", "server", "--tournament", str(HOCKEY), "--db",
         str(tmp_path / "c.db"), "--http", f"127.0.0.1:{port}", *args],
        env={**os.environ, **env}, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/", timeout=1)
            return process, port
        except httpx.TransportError:
            assert process.poll() is None, process.stderr.read() if process.stderr else ""
            time.sleep(0.2)
    process.kill()
    raise AssertionError("the server did not answer")


def _stop(process: subprocess.Popen[str]) -> str:
    process.terminate()
    _, err = process.communicate(timeout=20)
    return err


def test_the_service_logs_in_to_the_broker_with_a_credential_not_on_its_command_line(
        mosquitto: Any, tmp_path: Path) -> None:
    from server.passwords import passwords_command

    conf = ("listener {port} 127.0.0.1\nallow_anonymous false\npassword_file {dir}/passwd\npersistence false\n")
    broker = mosquitto(conf, run=False)
    passwords_command(str(broker.dir / "passwd"), [], "courtside-server:a secret pass", None)
    broker.start()
    creds = tmp_path / "creds"
    creds.mkdir()
    (creds / "broker-password").write_text("a secret pass\n")
    process, port = _serve(["--broker", broker.url, "--broker-user", "courtside-server"],
                           {"CREDENTIALS_DIRECTORY": str(creds)}, tmp_path)
    try:
        cmdline = Path(f"/proc/{process.pid}/cmdline").read_bytes().decode()
        assert "secret" not in cmdline
        assert httpx.get(f"http://127.0.0.1:{port}/api/v1/tournament", timeout=10).status_code == 200
        time.sleep(1)  # the broker's answer
    finally:
        err = _stop(process)
    assert "event=server_starting" in err and "secret" not in err
    assert "event=server_ready" in err  # connected and subscribed: the broker took the account


def test_trusted_lan_logs_a_warning_and_the_login_page_says_so(mosquitto: Any, tmp_path: Path) -> None:
    broker = mosquitto()
    process, port = _serve(["--broker", broker.url, "--trusted-lan"], {}, tmp_path)
    try:
        page = httpx.get(f"http://127.0.0.1:{port}/desk/login", timeout=10)
        assert "plain HTTP" in page.text and "Secure" not in page.headers["set-cookie"]
    finally:
        err = _stop(process)
    assert "about=trusted_lan" in err
    process, port = _serve(["--broker", broker.url], {}, tmp_path)
    try:
        page = httpx.get(f"http://127.0.0.1:{port}/desk/login", timeout=10)
        assert "plain HTTP" not in page.text and "Secure" in page.headers["set-cookie"]
    finally:
        err = _stop(process)
    assert "about=trusted_lan" not in err


@pytest.mark.parametrize(("args", "reason"), [
    (["--http-fd", "3"], "--http-fd FD serves --http HOST:PORT's socket; give both"),
    (["--http", "127.0.0.1:8080", "--http-fd", "999"], "--http-fd 999: not a socket this process inherited"),
])
def test_a_socket_to_serve_on_is_refused_with_why_when_it_cannot_be(args: list[str], reason: str,
                                                                     tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "courtside", "server", "--tournament", str(HOCKEY), "--db",
                           str(tmp_path / "c.db"), "--broker", "mqtt://127.0.0.1:1", *args],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and reason in done.stderr and "Traceback" not in done.stderr

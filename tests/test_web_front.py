"""The shipped front: Debian's Caddy with systemd/Caddyfile, on loopback ports, in front of the real service;
the desk logged in to through it in Chromium, at a venue's name (not localhost), over HTTPS with Caddy's own
certificate authority (``tls internal``), as an organiser's second device would.

Regression test for issue 21 ("There is no HTTPS path for the desk on a venue network").
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from server.web.accounts import Accounts
from server.web.serve import start_web
from tests.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.instances_support import CADDY_READY_S
from tests.ports import free_port
from tests.service_support import running_service
from tests.web_support import PASSWORD

CADDYFILE = Path(__file__).resolve().parent.parent / "systemd" / "Caddyfile"
VENUE = "scores.venue.test"


class Front:
    def __init__(self, https: int, http: int, home: Path) -> None:
        self.https, self.http, self.home = https, http, home

    @property
    def url(self) -> str:
        return f"https://{VENUE}:{self.https}"

    @property
    def root(self) -> Path:
        return self.home / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"


def trust_once(home: Path, root: Path) -> None:
    """What systemd/README.md tells the organiser to do on a Linux desktop: Chromium's own certificate store
    (NSS, in ~/.pki/nssdb) trusts Caddy's root for websites."""
    certutil = shutil.which("certutil")
    if certutil is None:
        pytest.skip("certutil is not installed (Debian's libnss3-tools)")
    db = home / ".pki" / "nssdb"
    db.mkdir(parents=True)
    subprocess.run([certutil, "-d", f"sql:{db}", "-N", "--empty-password"], check=True, capture_output=True)
    subprocess.run([certutil, "-d", f"sql:{db}", "-A", "-t", "C,,", "-n", "courtside venue", "-i", str(root)],
                   check=True, capture_output=True)


@pytest.fixture(scope="module")
def front(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Front, Any]]:
    caddy = shutil.which("caddy")
    if caddy is None:
        pytest.skip("caddy is not installed (.ci/run installs Debian's)")
    from tests.conftest import PLAIN_CONF, Broker

    tmp = tmp_path_factory.mktemp("front")
    broker = Broker(PLAIN_CONF, tmp)
    broker.start()
    db = f"sqlite:///{tmp / 'courtside.db'}"
    Accounts.at(db).add("anna", PASSWORD)
    upstream = free_port()
    f = Front(free_port(), free_port(), tmp)
    env = {**os.environ, "XDG_DATA_HOME": str(tmp / "data"), "XDG_CONFIG_HOME": str(tmp / "config"),
           "HOME": str(tmp), "COURTSIDE_SITE": VENUE, "COURTSIDE_TLS": "internal",
           "COURTSIDE_UPSTREAM": f"127.0.0.1:{upstream}", "COURTSIDE_HTTPS_PORT": str(f.https),
           "COURTSIDE_HTTP_PORT": str(f.http), "COURTSIDE_CADDY_ADMIN": f"127.0.0.1:{free_port()}",
           "COURTSIDE_CADDY_PKI": str(f.root.parent)}
    log = (tmp / "caddy.log").open("wb")
    process = subprocess.Popen([caddy, "run", "--config", str(CADDYFILE), "--adapter", "caddyfile"], env=env,
                               stdout=log, stderr=log)
    try:
        with running_service(db, broker.url) as service:
            web = start_web(service, f"127.0.0.1:{upstream}", db, trusted_proxies=("127.0.0.1",))
            try:
                deadline = time.monotonic() + CADDY_READY_S
                while not f.root.exists() or not _answers(f):
                    assert process.poll() is None, (tmp / "caddy.log").read_text()
                    assert time.monotonic() < deadline, (tmp / "caddy.log").read_text()
                    time.sleep(0.2)
                yield f, web
            finally:
                web.stop()
    finally:
        process.terminate()
        process.wait(10)
        log.close()
        broker.stop()


def _answers(f: Front) -> bool:
    try:
        with httpx.Client(verify=False, timeout=2) as c:  # only: is it up yet
            c.get(f"https://127.0.0.1:{f.https}/", headers={"host": VENUE}, extensions={"sni_hostname": VENUE})
        return True
    except httpx.HTTPError:
        return False


def test_the_desk_logs_in_through_the_front_in_chromium_at_the_venues_name(front: tuple[Front, Any],
                                                                            capfd: pytest.CaptureFixture[str]) -> None:
    f, _ = front
    playwright = pytest.importorskip("playwright.sync_api")
    device = f.home / "organiser"  # the organiser's second device, which trusted the venue's root once
    trust_once(device, f.root)
    args = [*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {VENUE} 127.0.0.1"]
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=args, env={**os.environ, "HOME": str(device)})
        try:
            page = browser.new_context().new_page()
            page.goto(f"{f.url}/desk")  # the desk sends a visitor to its login first
            assert page.url == f"{f.url}/desk/login?next=/desk"
            page.fill("#name", "anna")
            page.fill("#password", PASSWORD)
            page.click("button[type=submit]")
            playwright.expect(page).to_have_url(f"{f.url}/desk")
            assert page.locator("h1").first.inner_text().strip() != ""
            cookies = {c["name"]: c for c in page.context.cookies()}
            assert cookies["courtside_session"]["secure"] and cookies["courtside_session"]["httpOnly"]
            assert page.locator("#plain-http").count() == 0  # HTTPS: no warning
        finally:
            browser.close()
    err = capfd.readouterr().err
    # The service saw the browser's own address through the front, not only the front's.
    assert "event=desk_login account=anna address=127.0.0.1" in err


def test_plain_http_is_sent_to_https_and_the_root_certificate_can_be_fetched(front: tuple[Front, Any]) -> None:
    f, _ = front
    r = httpx.get(f"http://127.0.0.1:{f.http}/desk/login", headers={"host": VENUE}, follow_redirects=False,
                  timeout=5)
    assert r.status_code in (301, 308) and r.headers["location"].startswith(f"https://{VENUE}")
    with httpx.Client(verify=str(f.root), timeout=5) as c:
        # Verified against Caddy's root: what the organiser's device does once the root is installed.
        transport_url = f"https://127.0.0.1:{f.https}/courtside-root.crt"
        got = c.get(transport_url, headers={"host": VENUE}, extensions={"sni_hostname": VENUE})
    assert got.status_code == 200 and got.content == f.root.read_bytes()


def test_the_front_keeps_the_pages_headers_and_forwards_the_clients_address_only(front: tuple[Front, Any]) -> None:
    f, _ = front
    with httpx.Client(verify=str(f.root), timeout=5) as c:
        page = c.get(f"https://127.0.0.1:{f.https}/", headers={"host": VENUE, "x-forwarded-for": "6.6.6.6"},
                     extensions={"sni_hostname": VENUE})
    assert page.status_code == 200
    assert page.headers["x-frame-options"] == "DENY"
    assert "frame-ancestors 'none'" in page.headers["content-security-policy"]

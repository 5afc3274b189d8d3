"""Several `courtside server` instances serve the public side (issue 24): two real processes over one
PostgreSQL and one Mosquitto, each serving every page and live stream; a page whose instance is killed
reconnects to the other with its last event id and is sent every region that changed meanwhile, and
only those. The JSON API's live reads carry a short max-age and an ETag a front can revalidate."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest

from rules import protocol as p
from rules.live import live_payload
from rules.match import ClockStarted, Goal, Match
from server.plan import load_plan
from tests.conftest import Broker
from tests.instances_support import CADDY_READY_S, Instance, Page
from tests.ports import free_port
from tests.service_support import HOCKEY, TableClient, played
from tests.web_support import cookie_of

PLAN = load_plan(HOCKEY)
CADDYFILE = Path(__file__).resolve().parent.parent / "systemd" / "Caddyfile"
VENUE = "scores.venue.test"


@pytest.fixture
def two(mosquitto: Callable[..., Broker], pg_url: str, tmp_path: Path) -> Iterator[tuple[Broker, Instance, Instance]]:
    broker = mosquitto()
    a = Instance(HOCKEY, pg_url, broker.url, tmp_path / "a.log").ready()  # A makes the schema, then B starts
    b = Instance(HOCKEY, pg_url, broker.url, tmp_path / "b.log").ready()
    try:
        yield broker, a, b
    finally:
        a.stop()
        b.stop()


def first_on(court_name: str, after: int = 0) -> int:
    """The first pool match on a court, after match ``after``."""
    return min(int(n) for n, m in PLAN.fixtures.items() if m.court == court_name and m.round == "pool"
               and int(n) > after)


def live_message(court: str, number: int, goals: int) -> bytes:
    """A court's live state from the engine: ``goals`` home goals, the clock stopped after them."""
    match = Match(PLAN.rulesets[""], stage="round_robin", round="pool")
    match.apply(ClockStarted(at=0))
    for i in range(goals):
        match.apply(Goal(at=1000 * (i + 1), team="home"))
    payload = live_payload(match.state_at(1000 * goals + 500), PLAN.rulesets[""], str(number))
    return p.encode(p.build(id=f"live-{court}-{goals}", type="live", court=court, match=str(number), payload=payload))


def home_goals(base: str, name: str) -> int | None:
    """The court's live home score as the instance at ``base`` serves it (None: no live state)."""
    live = httpx.get(f"{base}/api/v1/courts/{quote(name, safe='')}").json()["live"]
    return None if live is None else int(live["home_goals"])


def wait_until(check: Callable[[], Any], timeout: float = 15.0) -> Any:
    deadline = time.monotonic() + timeout
    while not (found := check()):
        assert time.monotonic() < deadline, "not reached in time"
        time.sleep(0.1)
    return found


def test_a_courts_live_state_reaches_every_instance_and_its_api_read_can_be_cached(
        two: tuple[Broker, Instance, Instance]) -> None:
    broker, a, b = two
    court, name = next(iter(PLAN.courts.items()))
    number = first_on(name)
    table = TableClient(broker.url, PLAN.id, court)
    try:
        for goals in (1, 2, 3):
            table.client.publish(p.court_topic(PLAN.id, court, "live"), live_message(court, number, goals), qos=1)
            # Only one instance of the shared group stores it; both show it.
            for base in (a.url, b.url):
                wait_until(partial(lambda url, g: home_goals(url, name) == g, base, goals))
    finally:
        table.close()
    page = Page([f"court/{name}"])
    page.follow(b.url, lambda pg: bool(pg.received))
    assert ">3</span>" in page.html[f"court/{name}"]  # the court page's score on the other instance too
    # One state, whichever instance answers: one weak ETag, a 304 without a body, a second's max-age.
    first = httpx.get(f"{a.url}/api/v1/courts/{quote(name, safe='')}")
    assert first.headers["cache-control"] == "public, max-age=1"
    tag = first.headers["etag"]
    assert tag.startswith('W/"')
    for instance in (a, b):
        again = httpx.get(f"{instance.url}/api/v1/courts/{quote(name, safe='')}", headers={"If-None-Match": tag})
        assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == tag
    stale = httpx.get(f"{b.url}/api/v1/courts/{quote(name, safe='')}", headers={"If-None-Match": 'W/"old"'})
    assert stale.status_code == 200 and stale.json()["live"]["home_goals"] == 3


def test_a_page_whose_instance_is_killed_resumes_on_the_other_and_misses_nothing(
        two: tuple[Broker, Instance, Instance]) -> None:
    broker, a, b = two
    (court1, hall1), (court2, hall2) = list(PLAN.courts.items())[:2]
    first, second = first_on(hall1), first_on(hall2)
    pool = PLAN.fixtures[str(first)].stage
    page = Page([f"pool/{pool}", f"court/{hall1}", f"court/{hall2}", f"courtmatches/{hall2}"])
    page.follow(a.url, lambda pg: len(pg.received) == 4)  # every region at once
    tables = {court1: TableClient(broker.url, PLAN.id, court1), court2: TableClient(broker.url, PLAN.id, court2)}
    try:
        events, result = played(PLAN.rulesets[""], 2, 1)
        tables[court1].play_until_acked(str(first), events, result)
        # A's page shows the result in the pool and on Hall 1, whichever instance stored it.
        page.follow(a.url, lambda pg: "2–1" in pg.html[f"pool/{pool}"] and f"court/{hall1}" in pg.received)
        held_hall2 = page.html[f"courtmatches/{hall2}"]
        a.kill()
        # While the page is away: a result on Hall 2, which only B can store now.
        events, result = played(PLAN.rulesets[""], 0, 3)
        tables[court2].play_until_acked(str(second), events, result)
    finally:
        for t in tables.values():
            t.close()
    # The page reconnects to B with its last event id: every region that changed since is sent.
    page.follow(b.url, None, quiet=3.0)  # all that B sends
    assert "0–3" in page.html[f"courtmatches/{hall2}"] and page.html[f"courtmatches/{hall2}"] != held_hall2
    assert "0–3" in page.html[f"pool/{pool}"] or PLAN.fixtures[str(second)].stage != pool
    assert "2–1" in page.html[f"pool/{pool}"]
    # What the page holds now is what a page opened afresh on B gets, region for region ...
    fresh = Page(page.regions)
    fresh.follow(b.url, lambda pg: len(pg.received) == 4)
    assert page.html == fresh.html
    # ... and Hall 1's region, the same on A before the kill and on B now, was not sent again.
    assert f"court/{hall1}" not in page.received
    assert set(page.received) == {f"court/{hall2}", f"courtmatches/{hall2}"} | (
        {f"pool/{pool}"} if PLAN.fixtures[str(second)].stage == pool else set())
    # Without its last event id (a new EventSource after a refused reconnection) a page gets everything.
    page.follow(b.url, lambda pg: len(pg.received) == 4, resume=False)


def test_through_the_front_the_pages_of_a_killed_instance_reconnect_to_the_other_at_once(
        mosquitto: Callable[..., Broker], pg_url: str, tmp_path: Path) -> None:
    """The shipped Caddyfile in front of two instances: pages spread over both; one instance killed, its pages
    reconnect through the front with their last event id, reach the other at the first try, and catch up."""
    caddy = shutil.which("caddy")
    if caddy is None:
        pytest.skip("caddy is not installed (.ci/run installs Debian's)")
    broker = mosquitto()
    trusted = ("--trusted-proxy", "127.0.0.1")
    a = Instance(HOCKEY, pg_url, broker.url, tmp_path / "a.log", *trusted).ready()
    b = Instance(HOCKEY, pg_url, broker.url, tmp_path / "b.log", *trusted).ready()
    https, admin = free_port(), free_port()
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "HOME": str(tmp_path), "COURTSIDE_SITE": VENUE, "COURTSIDE_TLS": "internal",
           "COURTSIDE_UPSTREAM": f"127.0.0.1:{a.port} 127.0.0.1:{b.port}", "COURTSIDE_HTTPS_PORT": str(https),
           "COURTSIDE_HTTP_PORT": str(free_port()), "COURTSIDE_CADDY_ADMIN": f"127.0.0.1:{admin}",
           "COURTSIDE_CADDY_PKI": str(tmp_path / "pki")}
    log = (tmp_path / "caddy.log").open("wb")
    front = subprocess.Popen([caddy, "run", "--config", str(CADDYFILE), "--adapter", "caddyfile"], env=env,
                             stdout=log, stderr=log)
    court, name = next(iter(PLAN.courts.items()))
    number = first_on(name)
    table = TableClient(broker.url, PLAN.id, court)
    base = f"https://{VENUE}:{https}"
    try:
        pages = [Page([f"court/{name}", "courts"]) for _ in range(6)]
        deadline = time.monotonic() + CADDY_READY_S
        while True:  # Caddy makes its certificate authority first
            try:
                pages[0].follow(base, lambda pg: pg.last_id != "", timeout=5)  # the id ends the first write
                break
            except (OSError, AssertionError):
                assert front.poll() is None and time.monotonic() < deadline, (tmp_path / "caddy.log").read_text()
                time.sleep(0.3)
        for page in pages[1:]:
            page.follow(base, lambda pg: pg.last_id != "")
        card = f"courtcard/{name}"  # the home page's card of the court, nested in its courts region
        a.kill()
        table.client.publish(p.court_topic(PLAN.id, court, "live"), live_message(court, number, 4), qos=1)
        wait_until(lambda: home_goals(b.url, name) == 4)
        # Every page reconnects through the front (as EventSource does, with its last event id), at the first
        # try though half of them were on the killed instance, and gets the new score in both regions that show
        # it: the court's board and its card, not the home page's courts around the card.
        for page in pages:
            started = time.monotonic()
            page.follow(base, lambda pg: {f"court/{name}", card} <= set(pg.received), timeout=10)
            assert time.monotonic() - started < 6
            assert ">4</span>" in page.html[f"court/{name}"] and "<b>4–0</b>" in page.html[card]
            assert "courts" not in page.received
    finally:
        table.close()
        front.terminate()
        try:
            front.wait(10)
        except subprocess.TimeoutExpired:  # still draining a stream: its clients are gone
            front.kill()
            front.wait(10)
        log.close()
        a.stop()
        b.stop()


def test_the_desk_works_whichever_instance_each_request_reaches(two: tuple[Broker, Instance, Instance],
                                                               pg_url: str) -> None:
    """Issue 31: behind the front, 8 of 12 logins got 403 (each instance signed the login form with its own key)
    and 12 of 20 desk pages bounced to the login (sessions lived in one process). The form from A logs in on B;
    the session works on both; a new password ends it on both at once."""
    from server.web.accounts import Accounts
    from tests.web_support import PASSWORD, csrf_of

    _, a, b = two
    accounts = Accounts.at(pg_url)
    accounts.add("anna", PASSWORD)
    form = httpx.get(f"{a.url}/desk/login", timeout=10)
    login = httpx.post(f"{b.url}/desk/login", data={"csrf": csrf_of(form.text), "name": "anna", "password": PASSWORD},
                       headers={"cookie": f"courtside_login={cookie_of(form, 'courtside_login')}"}, timeout=10)
    assert login.status_code == 303, login.text
    session = {"cookie": f"courtside_session={cookie_of(login, 'courtside_session')}"}
    for instance in (a, b):
        assert httpx.get(f"{instance.url}/desk", headers=session, timeout=10).status_code == 200
    csrf = csrf_of(httpx.get(f"{a.url}/desk", headers=session, timeout=10).text)
    # Logged in and the token good on B too: the empty decision reaches the desk's rules (409), not a 403.
    refused = httpx.post(f"{b.url}/api/v1/desk/decisions", json={}, headers={**session, "x-csrf-token": csrf},
                         timeout=10)
    assert refused.status_code == 409, refused.text
    accounts.reset("anna", "another long password")
    for instance in (a, b):
        page = httpx.get(f"{instance.url}/desk", headers=session, timeout=10)
        assert page.status_code == 303 and page.headers["location"].startswith("/desk/login")
    accounts.engine.dispose()

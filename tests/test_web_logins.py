"""Logins under attack, over a real uvicorn: guesses sent together, many accounts at once, anonymous visits.

Regression tests for issue 21 (docs/reliability.md, "The desk on an open network"): 60 guesses sent at
once were all checked (the right one among them got in), 40 argon2 checks ran at once, and every visit
to the login page kept a session for 12 hours.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from server.web import create_app
from server.web.sessions import CHECKS, QUEUE
from tests.web_day import sample_day
from tests.web_support import PASSWORD, LiveServer, csrf_of


@pytest.fixture
def served() -> Iterator[tuple[Any, LiveServer]]:
    with sample_day(played=0) as day:  # the logins, not the day, are under test
        app = create_app(day.backend, secure_cookies=False)
        for name in ("anna", *(f"org{n}" for n in range(40))):
            app.state.site.accounts.add(name, PASSWORD)
        server = LiveServer(app).start()
        try:
            yield app, server
        finally:
            server.stop()


async def _attempts(url: str, logins: list[tuple[str, str]], *, one_client: bool) -> list[int]:
    """Every login sent at once, each with the form cookie and token of a page fetched first."""
    async def one(client: httpx.AsyncClient, name: str, password: str, csrf: str) -> int:
        r = await client.post("/desk/login", data={"csrf": csrf, "name": name, "password": password})
        return r.status_code

    limits = httpx.Limits(max_connections=300)
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as shared:
        clients = [shared if one_client else httpx.AsyncClient(base_url=url, timeout=60, limits=limits)
                   for _ in logins]
        try:
            tokens = [csrf_of((await c.get("/desk/login")).text) for c in clients]
            return list(await asyncio.gather(*(one(c, n, p, t) for c, (n, p), t in zip(clients, logins, tokens,
                                                                                      strict=True))))
        finally:
            for c in clients:
                if c is not shared:
                    await c.aclose()


def test_guesses_sent_together_are_counted_before_they_are_checked(served: tuple[Any, LiveServer]) -> None:
    app, server = served
    guesses = [("anna", f"guess number {n}") for n in range(59)] + [("anna", PASSWORD)]
    codes = asyncio.run(_attempts(server.url, guesses, one_client=True))
    checked = [c for c in codes if c in (401, 303)]
    assert len(checked) <= 3, codes  # the back-off's free attempts; the rest wait, unchecked
    assert codes.count(429) >= 57
    assert app.state.site.limit.gate.most <= CHECKS


def test_logins_for_many_accounts_at_once_run_a_few_checks_and_refuse_the_overflow(
        served: tuple[Any, LiveServer]) -> None:
    app, server = served
    logins = [(f"org{n}", "not the password") for n in range(40)]
    codes = asyncio.run(_attempts(server.url, logins, one_client=False))
    assert set(codes) <= {401, 503}
    assert codes.count(401) >= CHECKS + QUEUE  # those running and those in line are checked ...
    gate = app.state.site.limit.gate
    assert gate.most <= CHECKS and gate.running == 0 and gate.waiting == 0  # ... never more at once


def test_anonymous_visits_keep_no_session(served: tuple[Any, LiveServer]) -> None:
    app, server = served
    with httpx.Client(base_url=server.url, timeout=10) as client:
        for _ in range(200):
            client.cookies.clear()
            page = client.get("/desk/login")
            assert "courtside_session" not in page.headers.get("set-cookie", "")
        assert len(app.state.site.sessions) == 0
        done = client.post("/desk/login", data={"csrf": csrf_of(client.get("/desk/login").text), "name": "anna",
                                                "password": PASSWORD})
        assert done.status_code == 303 and client.get("/desk").status_code == 200
    assert len(app.state.site.sessions) == 1


def test_a_login_form_larger_than_a_login_form_is_refused(served: tuple[Any, LiveServer]) -> None:
    _, server = served
    with httpx.Client(base_url=server.url, timeout=10) as client:
        csrf = csrf_of(client.get("/desk/login").text)
        r = client.post("/desk/login", data={"csrf": csrf, "name": "anna", "password": "x" * 100_000})
    assert r.status_code == 413

"""Sessions, CSRF tokens and the login limit."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from sqlalchemy import select

from server.db.models import SessionRow
from server.web.accounts import Accounts
from server.web.sessions import Backoff, Busy, CheckGate, LoginForms, Sessions, csrf_ok, shared_key


@pytest.fixture
def accounts() -> Iterator[Accounts]:
    store = Accounts.at("sqlite://")
    store.add("anna", "correct horse battery")
    yield store
    store.engine.dispose()


def test_sessions_are_random_and_end(accounts: Accounts) -> None:
    sessions = Sessions(accounts.engine)
    a, b = sessions.start("anna"), sessions.start("anna")
    assert a.token != b.token and a.csrf != b.csrf and len(a.token) >= 40
    got = sessions.get(a.token)
    assert got is not None and (got.account, got.csrf, got.role) == ("anna", a.csrf, "organiser")
    sessions.end(a.token)
    assert sessions.get(a.token) is None and sessions.get(None) is None and sessions.get("forged") is None
    assert sessions.get(b.token) is not None


def test_a_session_is_stored_as_its_token_s_digest_only(accounts: Accounts) -> None:
    s = Sessions(accounts.engine).start("anna")
    with accounts.engine.connect() as conn:
        stored = [tuple(row) for row in conn.execute(select(SessionRow.token_digest, SessionRow.csrf))]
    assert len(stored) == 1 and s.token not in stored[0][0] and len(stored[0][0]) == 64


def test_a_session_started_by_one_instance_is_good_on_another(accounts: Accounts) -> None:
    """Two instances behind a front each have their own Sessions over one database (issue 31)."""
    one, two = Sessions(accounts.engine), Sessions(accounts.engine)
    s = one.start("anna")
    assert two.get(s.token) is not None
    two.end(s.token)
    assert one.get(s.token) is None


def test_an_expired_session_is_gone(accounts: Accounts) -> None:
    sessions = Sessions(accounts.engine, lifetime=-1)
    s = sessions.start("anna")
    assert sessions.get(s.token) is None and len(sessions) == 0


def test_csrf(accounts: Accounts) -> None:
    s = Sessions(accounts.engine).start("anna")
    assert csrf_ok(s, s.csrf)
    assert not csrf_ok(s, None) and not csrf_ok(s, "") and not csrf_ok(s, s.csrf[:-1]) and not csrf_ok(None, s.csrf)


def test_the_store_is_bounded_oldest_first(accounts: Accounts) -> None:
    sessions = Sessions(accounts.engine, bound=3)
    first, *rest = [sessions.start("anna") for _ in range(5)]
    assert len(sessions) == 3 and sessions.get(first.token) is None and sessions.get(rest[-1].token) is not None


def test_a_login_form_token_matches_its_cookie_only(accounts: Accounts) -> None:
    key = shared_key(accounts.engine, "login_form")
    forms, other = LoginForms(key), LoginForms(b"another database's key")
    cookie, token = forms.issue()
    assert forms.check(cookie, token)
    wrong = token[:-1] + ("1" if token[-1] == "0" else "0")  # one character off, whatever the last one was
    assert not forms.check(cookie, wrong) and not forms.check(None, token) and not forms.check(cookie, None)
    assert not other.check(cookie, token)  # another key
    assert not forms.check(forms.issue()[0], token)
    assert not LoginForms(key, lifetime=-1).check(*LoginForms(key, lifetime=-1).issue())


def test_every_instance_signs_the_login_form_with_the_same_key(accounts: Accounts) -> None:
    """Issue 31: the key was random per process, so a login form from one instance was refused by the other."""
    key = shared_key(accounts.engine, "login_form")
    assert shared_key(accounts.engine, "login_form") == key and len(key) == 32
    cookie, token = LoginForms(key).issue()
    assert LoginForms(shared_key(accounts.engine, "login_form")).check(cookie, token)
    assert shared_key(accounts.engine, "another") != key


def test_the_backoff_counts_each_attempt_before_it_is_checked_and_grows() -> None:
    b = Backoff(free=3, first=60, longest=900)
    key = "10.0.0.9\x00anna"
    assert [b.attempt(key, now=0) for _ in range(3)] == [0, 0, 0]  # counted at once: no check has returned yet
    assert b.attempt(key, now=0) == 60 and b.failures(key) == 3  # a refused attempt is not counted
    assert b.attempt(key, now=60) == 0 and b.attempt(key, now=61) == 119  # then 120 s after the 4th ...
    assert b.attempt(key, now=180) == 0 and b.wait(key, now=180) == 240  # ... 240 after the 5th
    assert b.wait("10.0.0.9\x00bob", now=180) == 0 and b.wait("10.0.0.7\x00anna", now=180) == 0
    b.succeeded(key)
    assert b.wait(key, now=180) == 0


def test_at_most_five_checks_per_key_in_five_minutes() -> None:
    b = Backoff()
    checked = sum(b.attempt("a\x00anna", now=float(t)) == 0 for t in range(300))
    assert checked == 5


def test_a_refund_and_a_long_quiet_start_afresh() -> None:
    b = Backoff(free=1, first=60, forget=100)
    b.attempt("k", now=0)
    assert b.wait("k", now=1) > 0
    b.refund("k")
    assert b.wait("k", now=1) == 0
    b.attempt("k", now=1)
    assert b.wait("k", now=102) == 0 and b.attempt("k", now=102) == 0 and b.failures("k") == 1


def test_the_backoff_forgets_the_longest_quiet_keys_beyond_its_bound() -> None:
    b = Backoff(free=1, bound=2)
    for n, key in enumerate("abc"):
        b.attempt(key, now=float(n))
    assert b.failures("a") == 0 and b.failures("b") == b.failures("c") == 1


def test_the_gate_runs_a_few_checks_queues_some_and_refuses_the_rest() -> None:
    gate = CheckGate(running=2, waiting=3)
    release = asyncio.Event()
    outcomes: list[str] = []

    async def login() -> None:
        try:
            async with gate:
                await release.wait()
                outcomes.append("checked")
        except Busy:
            outcomes.append("busy")

    async def main() -> None:
        tasks = [asyncio.create_task(login()) for _ in range(8)]
        await asyncio.sleep(0.01)
        assert (gate.running, gate.waiting) == (2, 3)
        release.set()
        await asyncio.gather(*tasks)

    asyncio.run(main())
    assert sorted(outcomes) == ["busy"] * 3 + ["checked"] * 5
    assert gate.most == 2 and gate.running == 0 and gate.waiting == 0


def test_a_cancelled_login_in_line_gives_its_turn_away() -> None:
    gate = CheckGate(running=1, waiting=2)

    async def main() -> None:
        await gate.__aenter__()
        waiting = asyncio.create_task(gate.__aenter__())
        await asyncio.sleep(0)
        waiting.cancel()
        await asyncio.gather(waiting, return_exceptions=True)
        await gate.__aexit__()
        assert gate.running == 0 and gate.waiting == 0
        async with gate:
            assert gate.running == 1

    asyncio.run(main())

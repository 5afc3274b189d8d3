"""Sessions, CSRF tokens and the login limit."""

from __future__ import annotations

from standings.web.sessions import LoginLimit, Sessions, csrf_ok


def test_sessions_are_random_and_end() -> None:
    sessions = Sessions()
    a, b = sessions.start("anna"), sessions.start("anna")
    assert a.token != b.token and a.csrf != b.csrf and len(a.token) >= 40
    assert sessions.get(a.token) is a
    sessions.end(a.token)
    assert sessions.get(a.token) is None and sessions.get(None) is None and sessions.get("forged") is None


def test_an_expired_session_is_gone() -> None:
    sessions = Sessions(lifetime=-1)
    s = sessions.start("anna")
    assert sessions.get(s.token) is None


def test_csrf() -> None:
    s = Sessions().start(None)
    assert csrf_ok(s, s.csrf)
    assert not csrf_ok(s, None) and not csrf_ok(s, "") and not csrf_ok(s, s.csrf[:-1]) and not csrf_ok(None, s.csrf)


def test_the_limit_counts_failures_per_key_and_forgets_on_success() -> None:
    limit = LoginLimit(attempts=3, window=300)
    for _ in range(3):
        assert limit.wait("ip:1", "name:anna") == 0
        limit.failed("ip:1", "name:anna")
    assert limit.wait("ip:1") > 0 and limit.wait("name:anna") > 0
    assert limit.wait("ip:2", "name:bob") == 0
    limit.succeeded("ip:1", "name:anna")
    assert limit.wait("ip:1", "name:anna") == 0


def test_failures_leave_the_window() -> None:
    limit = LoginLimit(attempts=1, window=0)
    limit.failed("ip:1")
    assert limit.wait("ip:1") == 0

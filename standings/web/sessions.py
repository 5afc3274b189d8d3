"""Desk sessions, CSRF tokens and the login rate limit.

A session is a random token in a secure, HTTP-only, SameSite=Strict cookie; the
server keeps what it means (account, CSRF token, expiry), so logging out or a
restart ends it. Every form carries the session's CSRF token and every write checks
it; a visitor without a session gets one only to log in.
"""

from __future__ import annotations

import hmac
import secrets
import time
from collections import deque
from dataclasses import dataclass

COOKIE = "courtside_session"
LIFETIME = 12 * 3600  # a tournament day


@dataclass
class Session:
    token: str
    csrf: str
    account: str | None
    expires: float


class Sessions:
    def __init__(self, lifetime: float = LIFETIME) -> None:
        self.lifetime = lifetime
        self._by_token: dict[str, Session] = {}

    def get(self, token: str | None) -> Session | None:
        if not token:
            return None
        s = self._by_token.get(token)
        if s is None or s.expires < time.monotonic():
            self._by_token.pop(token or "", None)
            return None
        return s

    def start(self, account: str | None) -> Session:
        """A fresh session (a new token at login, so a token seen before login is worthless after)."""
        s = Session(
            token=secrets.token_urlsafe(32),
            csrf=secrets.token_urlsafe(32),
            account=account,
            expires=time.monotonic() + self.lifetime,
        )
        self._by_token[s.token] = s
        if len(self._by_token) > 10_000:  # anonymous login-page sessions must not pile up
            now = time.monotonic()
            self._by_token = {k: v for k, v in self._by_token.items() if v.expires >= now}
        return s

    def end(self, token: str | None) -> None:
        self._by_token.pop(token or "", None)


def csrf_ok(session: Session | None, sent: str | None) -> bool:
    return session is not None and bool(sent) and hmac.compare_digest(session.csrf, sent or "")


class LoginLimit:
    """At most ``attempts`` failed logins per ``window`` seconds, per client and per account name."""

    def __init__(self, attempts: int = 5, window: float = 300.0) -> None:
        self.attempts, self.window = attempts, window
        self._failures: dict[str, deque[float]] = {}

    def wait(self, *keys: str) -> float:
        """Seconds until another attempt is allowed (0: now)."""
        now = time.monotonic()
        longest = 0.0
        for key in keys:
            q = self._failures.get(key)
            while q and q[0] <= now - self.window:
                q.popleft()
            if q and len(q) >= self.attempts:
                longest = max(longest, q[0] + self.window - now)
        return longest

    def failed(self, *keys: str) -> None:
        now = time.monotonic()
        for key in keys:
            self._failures.setdefault(key, deque()).append(now)

    def succeeded(self, *keys: str) -> None:
        for key in keys:
            self._failures.pop(key, None)

"""Desk sessions, CSRF tokens, and what guards the login: back-off and a cap on password checks.

A session is a random token in an HTTP-only, SameSite=Strict cookie (Secure unless the server runs on
a trusted LAN without TLS); the database keeps what it means (account, CSRF token, expiry) under the
token's digest, so every instance behind the front knows it, and logging out, a password reset or a
removed account ends it at once everywhere. A session exists only after a successful login: the login
form carries a signed token (:class:`LoginForms`) tied to a cookie of its own, which the server does not
store, so a million visits to the login page cost nothing; its key is in the database too, made once
(:func:`shared_key`), so a form shown by one instance is accepted by another. The sessions are bounded
anyway (:data:`MAX_SESSIONS`).

Logins: every attempt is counted *before* its password is checked (:class:`Backoff`), so attempts sent
together cannot all slip through; the wait grows per (address, account), so a stranger guessing
anna's password from their phone does not lock anna out on hers; and at most :data:`CHECKS` argon2
checks run at once, a few more wait in line, the rest are refused (:class:`CheckGate`), so a flood of
logins costs a bounded amount of memory in the process that also ingests the tables' results.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
import time
from collections import OrderedDict, deque
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import Engine, delete, func, insert, select
from sqlalchemy.exc import IntegrityError

from server.db.models import AccountRow, SecretRow, SessionRow

COOKIE = "courtside_session"
FORM_COOKIE = "courtside_login"  # the login form's half of its CSRF pair; not a session
LIFETIME = 12 * 3600  # a tournament day
FORM_LIFETIME = 2 * 3600  # a login page left open this long must be reloaded
MAX_SESSIONS = 2_000  # logged-in organisers: a handful; the bound only stops a leak from growing

FREE_ATTEMPTS = 3  # per (address, account) before the first wait
FIRST_WAIT = 60.0  # seconds; doubles with every further failure ...
LONGEST_WAIT = 900.0  # ... up to this: 3 checks at once, then at 60, 180, 420 s: at most 5 in 5 minutes
FORGET_AFTER = 3600.0  # a key quiet this long starts afresh
MAX_KEYS = 50_000  # the back-off's memory is bounded too: the longest-quiet keys go first

CHECKS = 2  # argon2 checks at once (each takes accounts.MEMORY_KIB of memory and one core)
QUEUE = 16  # checks waiting for a turn; beyond this a login is refused at once (503)


@dataclass
class Session:
    token: str
    csrf: str
    account: str | None
    expires: datetime
    role: str = "organiser"


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Sessions:
    """The desk's sessions in the service's database (``web_sessions``), read on every desk request: a
    session started on one instance is good on all, and one ended anywhere is ended everywhere."""

    def __init__(self, engine: Engine, lifetime: float = LIFETIME, bound: int = MAX_SESSIONS) -> None:
        self.engine, self.lifetime, self.bound = engine, lifetime, bound

    def __len__(self) -> int:
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(SessionRow)
                                    .where(SessionRow.expires > _now())).scalar_one())

    def get(self, token: str | None) -> Session | None:
        """The session of ``token`` with its account's role now; None when there is none, it has ended or
        its account is gone."""
        if not token:
            return None
        with self.engine.connect() as conn:
            row = conn.execute(
                select(SessionRow.csrf, SessionRow.account, SessionRow.expires, AccountRow.role)
                .join(AccountRow, AccountRow.name == SessionRow.account)
                .where(SessionRow.token_digest == _digest(token), SessionRow.expires > _now())
            ).first()
        if row is None:
            return None
        return Session(token=token, csrf=row.csrf, account=row.account, expires=row.expires, role=row.role)

    def start(self, account: str) -> Session:
        """A fresh session (a new token at login, so a token seen before login is worthless after)."""
        now = _now()
        s = Session(token=secrets.token_urlsafe(32), csrf=secrets.token_urlsafe(32), account=account,
                    expires=now + timedelta(seconds=self.lifetime))
        with self.engine.begin() as conn:
            conn.execute(delete(SessionRow).where(SessionRow.expires <= now))
            conn.execute(insert(SessionRow).values(token_digest=_digest(s.token), account=account, csrf=s.csrf,
                                                   expires=s.expires))
            kept = conn.execute(select(SessionRow.token_digest).order_by(SessionRow.expires.desc())
                                .offset(self.bound).limit(1)).first()
            if kept is not None:  # the oldest logins give way: the bound only stops a leak from growing
                oldest = conn.execute(select(SessionRow.expires).where(SessionRow.token_digest == kept[0]))
                conn.execute(delete(SessionRow).where(SessionRow.expires <= oldest.scalar_one()))
        stored = self.get(s.token)  # with its account's role
        return stored if stored is not None else s

    def end(self, token: str | None) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(SessionRow).where(SessionRow.token_digest == _digest(token or "")))


def _now() -> datetime:
    return datetime.now(UTC)


def csrf_ok(session: Session | None, sent: str | None) -> bool:
    return session is not None and bool(sent) and hmac.compare_digest(session.csrf, sent or "")


class LoginForms:
    """The login form's CSRF token without server state: a cookie holds ``time.nonce``, the form holds
    its HMAC under the instances' shared key (:func:`shared_key`). A forged cross-site POST has neither;
    :data:`FORM_LIFETIME` makes old pages reload."""

    def __init__(self, key: bytes, lifetime: float = FORM_LIFETIME) -> None:
        self.lifetime = lifetime
        self._key = key

    def issue(self) -> tuple[str, str]:
        """(cookie value, form token)."""
        cookie = f"{int(time.time())}.{secrets.token_urlsafe(16)}"
        return cookie, self._sign(cookie)

    def check(self, cookie: str | None, token: str | None) -> bool:
        if not cookie or not token or not self._fresh(cookie, self.lifetime):
            return False
        return hmac.compare_digest(self._sign(cookie), token)

    def token(self, cookie: str | None) -> str | None:
        """The form token of a cookie still valid (so a page shown again, or in another tab, keeps working)."""
        # Half its lifetime left at least, so a form shown now is not stale before it is sent.
        return self._sign(cookie) if cookie and self._fresh(cookie, self.lifetime / 2) else None

    def _fresh(self, cookie: str | None, within: float) -> bool:
        issued, _, _ = (cookie or "").partition(".")
        return issued.isdigit() and time.time() - int(issued) <= within

    def _sign(self, cookie: str) -> str:
        return hmac.new(self._key, cookie.encode(), hashlib.sha256).hexdigest()


@dataclass
class _Record:
    failures: int
    last: float


class Backoff:
    """A growing wait per key (the caller makes it ``address + account``). :meth:`attempt` counts the
    attempt at once, as if it had failed; :meth:`succeeded` takes it back."""

    def __init__(self, free: int = FREE_ATTEMPTS, first: float = FIRST_WAIT, longest: float = LONGEST_WAIT,
                 forget: float = FORGET_AFTER, bound: int = MAX_KEYS) -> None:
        self.free, self.first, self.longest, self.forget, self.bound = free, first, longest, forget, bound
        self._keys: OrderedDict[str, _Record] = OrderedDict()  # least recently tried first

    def wait(self, key: str, now: float | None = None) -> float:
        """Seconds until ``key`` may try again (0: now)."""
        now = time.monotonic() if now is None else now
        r = self._keys.get(key)
        if r is None or now - r.last > self.forget:
            return 0.0
        if r.failures < self.free:
            return 0.0
        delay = min(self.longest, self.first * 2.0 ** (r.failures - self.free))
        return max(0.0, r.last + delay - now)

    def attempt(self, key: str, now: float | None = None) -> float:
        """0 and the attempt counted, or the seconds to wait (and nothing counted)."""
        now = time.monotonic() if now is None else now
        wait = self.wait(key, now)
        if wait > 0:
            return wait
        r = self._keys.pop(key, None)
        if r is None or now - r.last > self.forget:
            r = _Record(0, now)
        r.failures, r.last = r.failures + 1, now
        self._keys[key] = r
        while len(self._keys) > self.bound:
            self._keys.popitem(last=False)
        return 0.0

    def succeeded(self, key: str) -> None:
        self._keys.pop(key, None)

    def refund(self, key: str) -> None:
        """An attempt counted but never checked (the server was busy) does not count."""
        r = self._keys.get(key)
        if r is not None and r.failures > 0:
            r.failures -= 1

    def failures(self, key: str) -> int:
        r = self._keys.get(key)
        return 0 if r is None else r.failures


def shared_key(engine: Engine, name: str) -> bytes:
    """The key ``name`` every instance on this database signs with: read, or made by the first to need it (an
    instance starting at the same moment takes the one stored first)."""
    for _ in range(2):
        with engine.connect() as conn:
            found = conn.execute(select(SecretRow.value).where(SecretRow.name == name)).scalar_one_or_none()
        if found is not None:
            return bytes.fromhex(found)
        try:
            with engine.begin() as conn:
                conn.execute(insert(SecretRow).values(name=name, value=secrets.token_hex(32)))
        except IntegrityError:
            continue  # another instance made it first: read that one
    raise RuntimeError(f"the shared key {name!r} could not be read or made")


class LoginGuard:
    """What the login handler consults, in one place on the site: the form tokens, the back-off, the gate."""

    def __init__(self, form_key: bytes) -> None:
        self.forms = LoginForms(form_key)
        self.backoff = Backoff()
        self.gate = CheckGate()


class Busy(Exception):
    """Too many password checks are running and waiting: refuse this login now (503)."""


class CheckGate:
    """At most ``running`` checks at once and ``waiting`` in line. A waiting login holds only its coroutine
    (its form is read already), not a thread or argon2's memory. Futures, not an asyncio.Condition: the
    gate outlives any one event loop (tests start one per client)."""

    def __init__(self, running: int = CHECKS, waiting: int = QUEUE) -> None:
        self.running_limit, self.waiting_limit = running, waiting
        self.running = 0
        self.most = 0  # the most checks that ran at once: the benchmark reads it
        self._line: deque[asyncio.Future[None]] = deque()

    @property
    def waiting(self) -> int:
        return len(self._line)

    async def __aenter__(self) -> CheckGate:
        if self.running >= self.running_limit:
            if len(self._line) >= self.waiting_limit:
                raise Busy
            turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._line.append(turn)
            try:
                await turn  # handed over by __aexit__: running was not decremented for us
            except BaseException:
                if turn in self._line:
                    self._line.remove(turn)
                elif turn.done() and not turn.cancelled():
                    self._release()  # our turn came as we were cancelled: pass it on
                raise
        else:
            self.running += 1
        self.most = max(self.most, self.running)
        return self

    async def __aexit__(self, *exc: object) -> None:
        self._release()

    def _release(self) -> None:
        while self._line:
            turn = self._line.popleft()
            if not turn.done():
                turn.get_loop().call_soon_threadsafe(self._hand_over, turn)
                return  # the slot goes to the next in line
        self.running -= 1

    def _hand_over(self, turn: asyncio.Future[None]) -> None:
        if turn.done():  # cancelled meanwhile: the slot goes on down the line
            self._release()
        else:
            turn.set_result(None)

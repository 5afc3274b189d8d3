"""The desk's accounts: names, argon2 hashes and roles in the service's database.

One of the service's migrated tables (``web_accounts``, server/db/models.py), so the accounts live
wherever the tournament's data lives (SQLite file or PostgreSQL). A new password or a removed account
ends the account's sessions at once, on every instance (``web_sessions``).

Roles (server.desk_commands.ROLES, checked where each desk command is applied): an ``organiser`` does
everything at the desk; the ``desk`` role is for the officials' table of a tournament office: it enters
results of matches that have none, walk-overs and lots or penalty-competition decisions, and nothing that
replaces what is stored or moves a match.
Accounts are managed with ``courtside users`` on the server only, by nobody at the desk.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Engine, create_engine, delete, insert, select, update
from sqlalchemy.pool import StaticPool

from server.db import make_engine, upgrade
from server.db.models import AccountRow, SessionRow
from server.desk_commands import ORGANISER, ROLES
from server.web.errors import AccountError

MIN_PASSWORD = 10
_NAME = re.compile(r"[A-Za-z0-9._-]{1,64}")
# argon2id sized for a Raspberry Pi-class server that also ingests the tables' results: OWASP's
# second recommendation (19 MiB, 2 passes, 1 lane). One check takes about 45 ms on this project's
# x86 test machine and 0.2-0.3 s on a Pi 4; at most sessions.CHECKS run at once, so logins cost at
# most CHECKS x 19 MiB. A hash made with other parameters (argon2's 64 MiB default, before) still
# verifies and is rehashed with these at its next good login.
MEMORY_KIB = 19 * 1024
TIME_COST = 2
PARALLELISM = 1
_hasher = PasswordHasher(time_cost=TIME_COST, memory_cost=MEMORY_KIB, parallelism=PARALLELISM)
# Verifying an unknown name still costs one argon2 check, so timing does not tell which names exist.
_DUMMY = _hasher.hash("not a password of anyone")


class Accounts:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        upgrade(engine)  # the service's schema, the accounts' table with it (several instances: one migrates)

    @classmethod
    def at(cls, url: str) -> Accounts:
        if url in ("sqlite://", "sqlite:///:memory:"):  # one shared in-memory database, not one per thread
            return cls(create_engine(url, poolclass=StaticPool, connect_args={"check_same_thread": False}))
        return cls(make_engine(url))

    def add(self, name: str, password: str, role: str = ORGANISER) -> None:
        if not _NAME.fullmatch(name):
            raise AccountError(f"account name {name!r}: use 1-64 letters, digits, '.', '_' or '-'")
        if len(password) < MIN_PASSWORD:
            raise AccountError(f"the password must have at least {MIN_PASSWORD} characters")
        _check_role(role)
        with self.engine.begin() as conn:
            if conn.execute(select(AccountRow.name).where(AccountRow.name == name)).first() is not None:
                raise AccountError(f"account {name!r} exists already (use --reset to give it a new password)")
            conn.execute(insert(AccountRow).values(name=name, password_hash=_hasher.hash(password),
                                                   created=datetime.now(UTC), role=role))

    def reset(self, name: str, password: str) -> None:
        """A new password; every session of the account ends (one logged in with the old one is out)."""
        if len(password) < MIN_PASSWORD:
            raise AccountError(f"the password must have at least {MIN_PASSWORD} characters")
        with self.engine.begin() as conn:
            done = conn.execute(
                update(AccountRow).where(AccountRow.name == name).values(password_hash=_hasher.hash(password))
            )
            if done.rowcount == 0:
                raise AccountError(f"there is no account {name!r}")
            conn.execute(delete(SessionRow).where(SessionRow.account == name))

    def remove(self, name: str) -> None:
        """The account and every session of it, gone at once."""
        with self.engine.begin() as conn:
            if conn.execute(delete(AccountRow).where(AccountRow.name == name)).rowcount == 0:
                raise AccountError(f"there is no account {name!r}")
            conn.execute(delete(SessionRow).where(SessionRow.account == name))

    def set_role(self, name: str, role: str) -> None:
        """Takes effect at the account's next request, on every instance (a session reads its role anew)."""
        _check_role(role)
        with self.engine.begin() as conn:
            if conn.execute(update(AccountRow).where(AccountRow.name == name).values(role=role)).rowcount == 0:
                raise AccountError(f"there is no account {name!r}")

    def names(self) -> list[str]:
        return [name for name, _ in self.roles()]

    def roles(self) -> list[tuple[str, str]]:
        """(name, role) of every account, by name."""
        with self.engine.connect() as conn:
            return [(row[0], row[1]) for row in conn.execute(select(AccountRow.name, AccountRow.role)
                                                             .order_by(AccountRow.name))]

    def check(self, name: str, password: str) -> bool:
        with self.engine.connect() as conn:
            row = conn.execute(select(AccountRow.password_hash).where(AccountRow.name == name)).first()
        stored = row[0] if row is not None else _DUMMY
        try:
            ok = _hasher.verify(stored, password)
        except (VerificationError, InvalidHashError):
            return False
        if ok and row is not None and _hasher.check_needs_rehash(stored):
            with self.engine.begin() as conn:
                fresh = _hasher.hash(password)
                conn.execute(update(AccountRow).where(AccountRow.name == name).values(password_hash=fresh))
        return ok and row is not None


def _check_role(role: str) -> None:
    if role not in ROLES:
        raise AccountError(f"role {role!r}: one of {', '.join(ROLES)}")

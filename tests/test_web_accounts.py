"""Desk accounts: argon2 hashes in the database (SQLite and PostgreSQL), names and passwords checked."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from server.db.models import AccountRow
from server.web.accounts import Accounts
from server.web.errors import AccountError


def test_an_account_is_stored_as_an_argon2_hash(db_url: str) -> None:
    store = Accounts.at(db_url)
    store.add("anna", "correct horse battery")
    with store.engine.connect() as conn:
        stored = conn.execute(select(AccountRow.password_hash)).scalar_one()
    assert stored.startswith("$argon2id$") and "correct horse" not in stored
    assert store.check("anna", "correct horse battery")
    assert not store.check("anna", "wrong horse battery")
    assert not store.check("bob", "correct horse battery")
    assert store.names() == ["anna"]
    store.engine.dispose()


def test_refusals() -> None:
    store = Accounts.at("sqlite://")
    store.add("anna", "correct horse battery")
    with pytest.raises(AccountError, match="exists already"):
        store.add("anna", "another long password")
    with pytest.raises(AccountError, match="at least 10"):
        store.add("bob", "short")
    with pytest.raises(AccountError, match="letters, digits"):
        store.add("bob smith", "a long enough password")
    with pytest.raises(AccountError, match="no account"):
        store.reset("carol", "a long enough password")
    store.reset("anna", "a brand new password")
    assert store.check("anna", "a brand new password") and not store.check("anna", "correct horse battery")

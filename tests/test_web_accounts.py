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


def test_a_reset_or_a_removal_ends_the_account_s_sessions_and_a_role_change_shows_at_once(db_url: str) -> None:
    """Issue 31: `users add --reset` left the old session valid, and no account could be removed."""
    from server.web.sessions import Sessions

    store = Accounts.at(db_url)
    store.add("anna", "correct horse battery")
    store.add("tomas", "correct horse battery", role="desk")
    sessions = Sessions(store.engine)
    anna, tomas, other = sessions.start("anna"), sessions.start("tomas"), sessions.start("tomas")
    assert sessions.get(tomas.token) is not None and sessions.get(tomas.token).role == "desk"  # type: ignore[union-attr]
    store.set_role("tomas", "organiser")
    assert sessions.get(tomas.token).role == "organiser"  # type: ignore[union-attr]
    store.reset("tomas", "a brand new password")
    assert sessions.get(tomas.token) is None and sessions.get(other.token) is None
    assert sessions.get(anna.token) is not None
    store.remove("anna")
    assert sessions.get(anna.token) is None and store.roles() == [("tomas", "organiser")]
    with pytest.raises(AccountError, match="no account"):
        store.remove("anna")
    with pytest.raises(AccountError, match="role 'referee'"):
        store.set_role("tomas", "referee")
    with pytest.raises(AccountError, match="role 'referee'"):
        store.add("carol", "a long enough password", role="referee")
    store.engine.dispose()

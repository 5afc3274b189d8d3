"""The service's tables (SQLAlchemy 2 declarative). Alembic migrations in ``migrations/`` create them.

One row per fact, each with the instant it was stored (UTC):

- ``fixtures``: the tournament's matches as scheduled (number, stage, round, court, time); the
  organiser may move one (court, start), which the audit records.
- ``events``: every event received per match, unique per (match, seq) so a resend or a second
  instance never stores one twice (a match has one log whichever court sent it).
- ``results``: one per match (its primary key), from a table (checked against its events) or
  from the organiser; ``result_clock`` stamps each with the revision its write committed at.
- ``conflicts``: a result that differs from the one already stored, held for the organiser.
- ``presence`` and ``live``: each court's table online/offline, last message, last live state.
- ``message_log``: every message received and what became of it (stored, duplicate, refused).
- ``changes``: the organiser's changes (who, when, why, before, after).
- ``decisions``: lots and penalty competitions that break a tie the results cannot.
- ``team_sheets``: a team's sheet as the desk changed it (players, officials), replacing the file's.
- ``web_rulings``: the organiser's rulings on reported cards (``server.rulings``; named when the desk
  made it on its own, before it was one of these).
- The desk's accounts, sessions and the login form's key are the web part's own tables
  (``server.web.accounts``, ``server.web.sessions``), in the database so every instance shares them.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, DateTime, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class Fixture(Base):
    __tablename__ = "fixtures"
    match_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    number: Mapped[int] = mapped_column(Integer)
    stage: Mapped[str] = mapped_column(String(64))
    round: Mapped[str] = mapped_column(String(32))
    kind: Mapped[str] = mapped_column(String(16))  # round_robin | knockout
    home: Mapped[str] = mapped_column(String(128))  # a team or a placeholder ("2A", "winner SF1")
    away: Mapped[str] = mapped_column(String(128))
    court: Mapped[str] = mapped_column(String(64), index=True)  # the court's id (slug)
    court_name: Mapped[str] = mapped_column(String(128))
    start: Mapped[datetime] = mapped_column(DateTime)  # the tournament's local time, as in its file
    end: Mapped[datetime] = mapped_column(DateTime)


class EventRow(Base):
    __tablename__ = "events"
    # By type: the pages find the matches with a card among a day's events (server.web.service_backend).
    __table_args__ = (UniqueConstraint("match_id", "seq", name="uq_events_match_seq"),
                      Index("ix_events_type_match", "type", "match_id"))
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(String(64), index=True)
    court: Mapped[str] = mapped_column(String(64))
    seq: Mapped[int] = mapped_column(Integer)
    type: Mapped[str] = mapped_column(String(32))
    at: Mapped[int] = mapped_column(Integer)
    body: Mapped[dict[str, Any]] = mapped_column(JSON)
    message_id: Mapped[str] = mapped_column(String(64))
    received_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ResultRow(Base):
    __tablename__ = "results"
    match_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    stage: Mapped[str] = mapped_column(String(64), index=True)
    home: Mapped[str] = mapped_column(String(128))
    away: Mapped[str] = mapped_column(String(128))
    home_goals: Mapped[int] = mapped_column(Integer)
    away_goals: Mapped[int] = mapped_column(Integer)
    outcome: Mapped[str] = mapped_column(String(16))
    winner: Mapped[str | None] = mapped_column(String(8), nullable=True)  # "home" | "away" | None
    home_shootout: Mapped[int | None] = mapped_column(Integer, nullable=True)
    away_shootout: Mapped[int | None] = mapped_column(Integer, nullable=True)
    seq: Mapped[int | None] = mapped_column(Integer, nullable=True)  # last event it follows from
    court: Mapped[str | None] = mapped_column(String(64), nullable=True)
    source: Mapped[str] = mapped_column(String(16))  # "table" | "organiser"
    recorded_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # The result clock's reading when its transaction committed (server.result_feed): the pages read the results
    # stamped since they last read, not every result of the day.
    revision: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0", index=True)


class ResultClock(Base):
    """One row: the last revision a result was stamped with (server.result_feed)."""

    __tablename__ = "result_clock"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    revision: Mapped[int] = mapped_column(BigInteger)


class Conflict(Base):
    __tablename__ = "conflicts"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(String(64), index=True)
    court: Mapped[str | None] = mapped_column(String(64), nullable=True)
    seq: Mapped[int | None] = mapped_column(Integer, nullable=True)
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    reason: Mapped[str] = mapped_column(Text)
    message_id: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)
    received_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    settled_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    settled_by: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # "applied" | "rejected"; an abandoned match's report: "resume" | "replay" when it is played on later
    settlement: Mapped[str | None] = mapped_column(String(16), nullable=True)


class Presence(Base):
    __tablename__ = "presence"
    court: Mapped[str] = mapped_column(String(64), primary_key=True)
    state: Mapped[str] = mapped_column(String(8))  # online | offline
    since: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_message_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    last_type: Mapped[str | None] = mapped_column(String(16), nullable=True)
    last_match: Mapped[str | None] = mapped_column(String(64), nullable=True)


class Live(Base):
    __tablename__ = "live"
    court: Mapped[str] = mapped_column(String(64), primary_key=True)
    match_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    state: Mapped[dict[str, Any]] = mapped_column(JSON)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class MessageLog(Base):
    __tablename__ = "message_log"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    received_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    topic: Mapped[str] = mapped_column(String(256))
    message_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    court: Mapped[str | None] = mapped_column(String(64), nullable=True)
    match_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    seq: Mapped[int | None] = mapped_column(Integer, nullable=True)
    type: Mapped[str | None] = mapped_column(String(16), nullable=True)
    status: Mapped[str] = mapped_column(String(16))  # stored | duplicate | refused | conflict | waiting
    reason: Mapped[str | None] = mapped_column(Text, nullable=True)


class Change(Base):
    __tablename__ = "changes"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    who: Mapped[str] = mapped_column(String(64))
    action: Mapped[str] = mapped_column(String(32))  # result | walkover | move | decision | conflict
    match_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    pool: Mapped[str | None] = mapped_column(String(64), nullable=True)
    why: Mapped[str] = mapped_column(Text)
    before: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    after: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)


class DecisionRow(Base):
    __tablename__ = "decisions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    pool: Mapped[str] = mapped_column(String(64))
    method: Mapped[str] = mapped_column(String(32))  # lots | penalty_competition (rules.standings.Decision)
    order: Mapped[list[str]] = mapped_column(JSON)
    # The tie it orders (server.desk.tie_key): one decision per tie, backed by the database (revision 0005).
    tie: Mapped[str] = mapped_column(String(40))
    who: Mapped[str] = mapped_column(String(64))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (UniqueConstraint("pool", "tie", name="uq_decisions_pool_tie"),)



class TeamSheetRow(Base):
    """A team's sheet as the desk last changed it (rules.tournament.sheets' CSV text): it replaces the one the
    tournament file gives."""

    __tablename__ = "team_sheets"
    team: Mapped[str] = mapped_column(String(128), primary_key=True)
    sheet: Mapped[str] = mapped_column(Text)
    who: Mapped[str] = mapped_column(String(64))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RulingRow(Base):
    __tablename__ = "web_rulings"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    number: Mapped[int] = mapped_column(Integer)  # the match's number
    team: Mapped[str] = mapped_column(String(128))
    player: Mapped[str] = mapped_column(String(64))
    matches: Mapped[int] = mapped_column(Integer)  # how many matches the player misses
    who: Mapped[str] = mapped_column(String(64))
    why: Mapped[str] = mapped_column(Text)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class AccountRow(Base):
    """A desk account: its name, argon2 hash and role (server.web.accounts)."""

    __tablename__ = "web_accounts"
    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    role: Mapped[str] = mapped_column(String(16), server_default="organiser")


class SessionRow(Base):
    """A logged-in desk session, shared by every instance (server.web.sessions): the digest of its cookie's
    token (the token itself is never stored), its account, its CSRF token and when it ends."""

    __tablename__ = "web_sessions"
    token_digest: Mapped[str] = mapped_column(String(64), primary_key=True)
    account: Mapped[str] = mapped_column(String(64), index=True)
    csrf: Mapped[str] = mapped_column(String(64))
    expires: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class SecretRow(Base):
    """A key every instance signs with (the login form's), made once by whichever instance needs it first."""

    __tablename__ = "web_secrets"
    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))

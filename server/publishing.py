"""What the service publishes, retained, once a batch's messages are stored: the tables of the pools they
changed, the classes' top scorers, and the schedules of the courts whose matches changed.

It publishes what is stored, never what a message said: the pages are not told anything here (a stored result
told them at its commit, server.service). In a pause of a burst it gives way between two groups of tables or
schedules, and hands back what it has not published yet for the loop's next pause (server.pacing).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt
from sqlalchemy.orm import Session

from rules import protocol as p
from rules.published_scorers import scorers_payload
from server import queries
from server.ids import new_id
from server.logs import log
from server.payloads import schedule_payload, table_payload
from server.pool_tables import pool_states
from server.register import Register
from server.store import Store
from server.topscorers import TopScorers

TABLES_AT_ONCE = 8
"""Pools ranked (and their results read) together while publishing: in a pause of a burst, the loop looks
for new messages between two such groups."""
SCHEDULES_AT_ONCE = 8
"""Courts whose schedules are read and published together, for the same reason: a publishing interrupted
goes on with the courts not sent yet, without reading again those it sent."""


class Publishing:
    """The service's publishing to ``client``; ``changes`` is what its loop calls."""

    def __init__(self, store: Store, client: mqtt.Client, register: Register, top_scorers: TopScorers) -> None:
        self.store = store
        self.plan = store.plan
        self.client = client
        self.register = register  # who sits out which match, for the schedules
        self.top_scorers = top_scorers
        self._later_pools = {pool.name for pool in self.plan.pools} - set(self.plan.entry_teams)
        self._progress_due = False  # a published table completed a pool: the later pools' tables are due
        self._scorers_due: set[str] = set()  # classes whose scorers go out once their tables are out

    def changes(self, pools: set[str], courts: set[str], *, since: float | None = None,
                interrupted: Callable[[], bool] | None = None) -> tuple[set[str], set[str]]:
        """Publish the tables of ``pools`` and then the schedules of ``courts``; with ``interrupted``, stop
        between two steps as soon as it says so (messages are waiting: the loop takes them first and goes on
        publishing at the next pause) and hand back the pools and courts not published yet. ``since``: when
        (monotonic) the first message that changed them came, for the log's wait (None: now)."""
        stop = interrupted or (lambda: False)
        started = time.monotonic()
        since = started if since is None else since
        self._scorers_due |= {c.name for c in map(self.plan.cup.class_of_stage, pools) if c is not None}
        first = sorted(n for n in pools if n in self.plan.entry_teams)
        done: set[str] = set()
        # One session for the whole publishing, which only reads: the results, decisions and progress read once
        # for the tables, the scorers and the schedules, on one connection (each checkout costs PostgreSQL a ping
        # and a rollback).
        with self.store.reading(keyed=True) as s:
            for i in range(0, len(first), TABLES_AT_ONCE):
                if i and stop():
                    return self._logged(pools - done, courts, done, set(), started, since)
                states = pool_states(self.store, s, first[i:i + TABLES_AT_ONCE])
                self._tables(states)
                done |= set(states)
                # A pool that completes fills later pools (pool C) and knock-out slots.
                self._progress_due |= any(st.complete for st in states.values())
            # Only a later pool's table (pool C, its teams from other pools) can change with another stage's
            # result, and only once a stage completes or a knock-out result comes in: then the whole progress.
            self._progress_due |= bool(pools - done)
            if self._progress_due and self._later_pools:
                progress = self.store.progress(s)
                self._tables({n: st for n, st in progress.pools.items()
                              if n in self._later_pools and (st.table is not None or n in pools)})
            self._progress_due = False
            self._scorers(s)
            # A card in one court's match can suspend a player in another court's: that court's schedule goes out.
            suspended, moved = self.register.suspended(s)
            courts = courts | moved
            ordered = sorted(courts)
            sent: set[str] = set()
            for i in range(0, len(ordered), SCHEDULES_AT_ONCE):
                if sent and stop():
                    return self._logged(set(), courts - sent, pools, sent, started, since)
                group = ordered[i:i + SCHEDULES_AT_ONCE]
                by_court = queries.court_schedules(self.store, set(group), s)  # one read for the group
                for court in group:
                    payload = schedule_payload(self.store, court, by_court.get(court, []), suspended)
                    # Made by the court schedule's builder from typed records: reading it back to check it (p.build)
                    # doubled the cost of a burst's last publishing, and the builder/reader round trip is tested.
                    msg = p.Message(id=new_id(), type="schedule", court=court, match=None, seq=None, payload=payload)
                    self.client.publish(p.court_topic(self.plan.id, court, "schedule"), p.encode(msg), qos=1,
                                        retain=True)
                sent |= set(group)
        return self._logged(set(), set(), pools, courts, started, since)

    def _tables(self, states: dict[str, Any]) -> None:
        for name, state in sorted(states.items()):
            msg = p.build(id=new_id(), type="table", payload=table_payload(state))
            self.client.publish(p.pool_topic(self.plan.id, name), p.encode(msg), qos=1, retain=True)

    def _scorers(self, s: Session) -> None:
        for name in sorted(self._scorers_due):
            rows = self.top_scorers.of_class(name, s)
            if rows is not None:
                msg = p.build(id=new_id(), type="scorers", payload=scorers_payload(name, rows))
                self.client.publish(p.scorers_topic(self.plan.id, name), p.encode(msg), qos=1, retain=True)
        self._scorers_due = set()

    @staticmethod
    def _logged(pools_left: set[str], courts_left: set[str], pools: set[str], courts: set[str], started: float,
                since: float) -> tuple[set[str], set[str]]:
        """Log what was published, and hand back what is left."""
        if pools:  # how long the newest standings took, from the first message of the batch that changed them
            now = time.monotonic()
            log("published", pools=",".join(sorted(pools)), courts=len(courts),
                publish_ms=round((now - started) * 1000, 1),
                since_received_ms=round((now - since) * 1000, 1),
                left=len(pools_left) + len(courts_left) or None)
        return pools_left, courts_left

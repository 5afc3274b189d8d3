"""A tournament played through the real service for the parents' pages: Mosquitto, the service on a SQLite
store, one table client per court sending each match as the engine plays it, the web app on a live server.

Who wins is fixed by the teams' order in the tournament file (each pool's first-listed team is its strongest),
so the pools end without ties and the knock-out slots fill the same way every run; the scores vary."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rules.ruleset import load_ruleset
from standings.service import Service
from standings.web import create_app
from standings.web.service_backend import ServiceBackend
from standings.web.view import MatchRow, View
from tests.service_support import TableClient, played, running_service
from tests.web_support import PASSWORD, LiveServer

RULES = load_ruleset("indoor-hockey")


@dataclass
class Day:
    service: Service
    backend: ServiceBackend
    server: LiveServer
    tables: dict[str, TableClient]  # court name -> its table

    def view(self) -> View:
        return View(self.backend.data())

    def strength(self, team: str) -> tuple[int, str]:
        """Lower is stronger: the team's place in its pool's list in the file, then the pool."""
        for pool, teams in self.service.plan.entry_teams.items():
            if team in teams:
                return teams.index(team), pool
        raise AssertionError(f"{team} is in no entry pool")

    def play(self, until: Callable[[MatchRow], bool] = lambda m: False) -> list[MatchRow]:
        """Play the matches in playing order through their courts' tables, up to the first one ``until``
        picks (not played) or the last; each result is acknowledged by the service before the next."""
        done: list[MatchRow] = []
        while True:
            waiting = [m for m in self.view().matches if m.recorded is None]
            if not waiting or until(waiting[0]):
                return done
            m = waiting[0]
            assert m.home_known and m.away_known, f"match {m.number}'s teams are not known: {m.home}, {m.away}"
            weaker = m.number % 2
            stronger = weaker + 1 + m.number % 3
            home_wins = self.strength(m.home) < self.strength(m.away)
            goals = (stronger, weaker) if home_wins else (weaker, stronger)
            kind, rnd = ("round_robin", "pool") if m.is_pool else ("knockout", m.round)
            events, result = played(RULES, *goals, kind=kind, round=rnd)
            table = self.tables[m.court]
            table.play(str(m.number), events, result)
            table.wait_for("ack", lambda a, n=m.number: a.payload["of"] == "result" and a.match == str(n))
            done.append(m)


@contextlib.contextmanager
def served_day(tmp: Path, lang: str = "en") -> Iterator[Day]:
    from tests.conftest import PLAIN_CONF, Broker

    broker = Broker(PLAIN_CONF, tmp)
    broker.start()
    db = f"sqlite:///{tmp / 'courtside.db'}"
    tables: dict[str, TableClient] = {}
    try:
        with running_service(db, broker.url) as service:
            backend = ServiceBackend(service)
            app = create_app(backend, accounts_url=db, lang=lang)
            app.state.site.accounts.add("anna", PASSWORD)
            server = LiveServer(app).start()
            try:
                for cid, name in service.plan.courts.items():
                    tables[name] = TableClient(broker.url, service.plan.id, cid)
                yield Day(service, backend, server, tables)
            finally:
                for t in tables.values():
                    t.close()
                server.stop()
    finally:
        broker.stop()


def wait_until(check: Callable[[], Any], timeout: float = 10.0) -> Any:
    """``check()`` once it is truthy (the service's snapshot catches up with an acknowledged result)."""
    import time

    deadline = time.monotonic() + timeout
    while not (found := check()):
        assert time.monotonic() < deadline, "gave up waiting"
        time.sleep(0.05)
    return found

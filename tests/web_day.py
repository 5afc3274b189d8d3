"""Tournament days played through the real service, for the pages' tests, the screenshots
(docs/screens/make_web_day.py) and the load benchmark (bench/bench_web.py).

Nothing is typed by hand: a Mosquitto of its own, the service on a SQLite file and its ServiceBackend, and one
table client per court sending each match as the engine plays it (events, then the result), the live board the
engine gives, a correction and a court's presence, as tables do.

- :func:`sample_day` (:func:`served_sample` behind a live server): the youth-football example half played,
  a live match, a court offline, a conflicting result, a red card and a tie waiting for lots;
- :func:`served_day`: the indoor-hockey example behind a live server, played on as far as a test says; who
  wins is fixed by the teams' order in the tournament file (each pool's first-listed team is its strongest),
  so the pools end without ties and the knock-out slots fill the same way every run; the scores vary.
"""

from __future__ import annotations

import contextlib
import json
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from rules import protocol as p
from rules.link_payloads import ErrorPayload
from rules.live import live_payload
from rules.match import (
    ClockStarted,
    ClockStopped,
    Goal,
    Match,
    MatchState,
    PeriodAdvanced,
    ScoreCorrected,
    Side,
    event_from_dict,
    event_to_dict,
)
from rules.result import result_payload
from rules.ruleset import Ruleset, load_ruleset
from server.plan import load_plan
from server.service import Service
from server.web import create_app
from server.web.inputs import TournamentData
from server.web.match_rows import MatchRow
from server.web.service_backend import ServiceBackend
from server.web.view import View
from tests.service_support import HOCKEY, TableClient, played, running_service
from tests.web_support import PASSWORD, LiveServer

EXAMPLE = Path(__file__).resolve().parent.parent / "rules" / "examples" / "youth-football.toml"
RULES = load_ruleset("youth-football")  # the example's (the pages name its card as it does)
# Matches 1-12 of the example's schedule, as home-away goals: GAIS and Djurgården (pool C) end level
# on everything, their match drawn: only lots can settle it (the seed's last criterion).
SCORES = {1: (2, 1), 2: (0, 0), 3: (3, 1), 4: (1, 1), 5: (2, 2), 6: (2, 2), 7: (1, 0), 8: (4, 0), 9: (2, 3),
          10: (1, 1), 11: (0, 2), 12: (1, 1)}
LIVE_CLOCK_MS = 14 * 60_000 + 25_000  # the live match's clock when its board was sent: 14:25 left
RED = "7"  # the player sent off in the live home team's previous match


@dataclass
class SampleDay:
    service: Service
    backend: ServiceBackend
    broker: str
    tables: dict[str, TableClient]  # court id -> its table, opened when first used
    sent: dict[int, list[dict[str, Any]]]  # match number -> the events its table sent

    def data(self) -> TournamentData:
        return self.backend.data()

    def view(self) -> View:
        return View(self.backend.data())

    def court_id(self, name: str) -> str:
        return next(cid for cid, court in self.service.plan.courts.items() if court == name)

    def table(self, court: str) -> TableClient:
        """The table of ``court`` (its name)."""
        cid = self.court_id(court)
        if cid not in self.tables:
            self.tables[cid] = TableClient(self.broker, self.service.plan.id, cid)
        return self.tables[cid]

    def play(self, number: int, home: int, away: int, *, cards: Sequence[tuple[Side, str, str]] = ()) -> None:
        """Match ``number`` played on its court's table to ``home``-``away``, acknowledged and on the pages."""
        m = self.view().by_number[number]
        kind, rnd = ("round_robin", "pool") if m.is_pool else ("knockout", m.round)
        events, result = played(self.service.plan.rulesets[""], home, away, kind=kind, round=rnd, cards=cards)
        table = self.table(m.court)
        table.play(str(number), events, result)
        self.sent[number] = events
        table.wait_for("ack", lambda a: a.payload["of"] == "result" and a.match == str(number))
        wait_until(lambda: number in self.data().results)

    def correct(self, number: int, home: int, away: int) -> None:
        """The officials of finished match ``number`` correct its score afterwards: the service keeps what it
        stored and holds the correction for the organiser (a conflict)."""
        m = self.view().by_number[number]
        table = self.table(m.court)
        match = Match(self.service.plan.rulesets[""], stage="round_robin" if m.is_pool else "knockout",
                      round="pool" if m.is_pool else m.round)
        for line, event in enumerate(self.sent[number], start=1):  # the table's journal of the match
            match.apply(event_from_dict(event, "the table's journal", line))
        match.apply(ScoreCorrected(at=match.events[-1].at + 1000, home=home, away=away))
        outcome = match.result()
        assert outcome is not None
        fixed = event_to_dict(match.events[-1])
        table.send_event(str(number), fixed)
        table.send_result(str(number), fixed["seq"], result_payload(outcome))
        table.wait_for("error", lambda e: isinstance(e.body, ErrorPayload) and e.body.conflict)
        wait_until(lambda: any(c.number == number for c in self.data().conflicts))

    def live(self, number: int, home: int, away: int, *, running: bool = True,
             clock_ms: int = LIVE_CLOCK_MS) -> None:
        """The live board of match ``number`` in the second half, ``clock_ms`` left, as its table publishes it:
        ``home``-``away`` goals in the first half, then the second half started."""
        m = self.view().by_number[number]
        rules = self.service.plan.rulesets[""]
        state = second_half(rules, home, away, running=running, clock_ms=clock_ms)
        payload = json.loads(json.dumps(live_payload(state, rules, str(number))))
        court = self.court_id(m.court)
        before = self.data().live.get(m.court)
        self.table(m.court).send_raw("live", p.encode(p.build(id=uuid.uuid4().hex, type="live", court=court,
                                                               match=str(number), payload=payload)))
        wait_until(lambda: self.data().live.get(m.court) not in (None, before))

    def offline(self, court: str) -> None:
        """``court``'s table drops off: its will says so."""
        cid = self.court_id(court)
        self.table(court).send_raw("presence", p.encode(p.presence_message(id=uuid.uuid4().hex, court=cid,
                                                                           online=False)))
        wait_until(lambda: court in self.data().presence and not self.data().presence[court].online)


def second_half(rules: Ruleset, home: int, away: int, *, running: bool, clock_ms: int) -> MatchState:
    """The engine's state of a pool match of ``rules`` in its second period with ``clock_ms`` left."""
    match = Match(rules, stage="round_robin", round="pool")
    match.apply(ClockStarted(at=0))
    at = 0
    sides: tuple[tuple[Side, int], ...] = (("home", home), ("away", away))
    for side, goals in sides:
        for _ in range(goals):
            at += 60_000
            match.apply(Goal(at=at, team=side))
    half = rules.match.period_length
    match.apply(PeriodAdvanced(at=half))
    second = half + rules.match.intervals[0]
    match.apply(ClockStarted(at=second))
    at = second + half - clock_ms
    if not running:
        match.apply(ClockStopped(at=at))
    return match.state_at(at)


@contextlib.contextmanager
def _service(folder: Path, example: Path) -> Iterator[tuple[str, Service]]:
    """A Mosquitto of its own and the service on a SQLite file, both in ``folder``: the broker's address and
    the service."""
    from tests.conftest import PLAIN_CONF, Broker

    broker = Broker(PLAIN_CONF, folder)
    broker.start()
    try:
        with running_service(f"sqlite:///{folder / 'courtside.db'}", broker.url, plan=load_plan(example)) as service:
            yield broker.url, service
    finally:
        broker.stop()


@contextlib.contextmanager
def sample_day(played: int = 12, *, example: Path = EXAMPLE) -> Iterator[SampleDay]:
    """The day with the first ``played`` matches played; short of the pools' end, the next match is live
    (2-1), the live home team's player 7 was sent off in its previous match, match 2's table corrected its
    0-0 to 1-0 afterwards (held for the organiser) and the last court's table went offline. With none
    played, the day as its file (``example``, another tournament's if told) says it."""
    tables: dict[str, TableClient] = {}
    with tempfile.TemporaryDirectory() as tmp, _service(Path(tmp), example) as (broker, service):
        try:
            day = SampleDay(service, ServiceBackend(service), broker, tables, {})
            if played:
                _play(day, played)
            yield day
        finally:
            for table in tables.values():
                table.close()


@contextlib.contextmanager
def served_sample(lang: str | None = "en") -> Iterator[tuple[SampleDay, LiveServer]]:
    """The sample day behind a live server, with the desk account anna (PASSWORD); in English unless told
    (None: the sample cup's own language, from its file, Swedish)."""
    with sample_day() as day:
        app = create_app(day.backend, lang=lang)  # secure cookies: Chromium keeps them on 127.0.0.1
        app.state.site.accounts.add("anna", PASSWORD)
        server = LiveServer(app).start()
        try:
            yield day, server
        finally:
            server.stop()


def _play(day: SampleDay, played: int) -> None:
    rows = day.view().matches
    following = rows[played] if played < len(rows) else None
    # The live home team's previous match: its player is sent off in it.
    earlier = [m.number for m in rows[:played] if following is not None and following.home in (m.home, m.away)]
    for m in rows[:played]:
        side: Side = "home" if following is not None and m.home == following.home else "away"
        cards = [(side, "red", RED)] if earlier and m.number == earlier[-1] else []
        day.play(m.number, *SCORES.get(m.number, (1, 0)), cards=cards)
    if following is None:
        return
    if played > 1:  # a conflict needs a stored result to disagree with
        day.correct(rows[1].number, 1, 0)
    day.offline(list(day.service.plan.courts.values())[-1])
    day.live(following.number, 2, 1)


def wait_until(check: Callable[[], Any], timeout: float = 10.0) -> Any:
    """``check()`` once it is truthy (the service's snapshot catches up with what a table sent)."""
    deadline = time.monotonic() + timeout
    while not (found := check()):
        assert time.monotonic() < deadline, "gave up waiting"
        time.sleep(0.02)
    return found


HOCKEY_RULES = load_ruleset("indoor-hockey")


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
            events, result = played(HOCKEY_RULES, *goals, kind=kind, round=rnd)
            table = self.tables[m.court]
            table.play(str(m.number), events, result)
            table.wait_for("ack", lambda a, n=m.number: a.payload["of"] == "result" and a.match == str(n))
            done.append(m)


@contextlib.contextmanager
def served_day(tmp: Path, lang: str = "en") -> Iterator[Day]:
    """The indoor-hockey example, nothing played yet, behind a live server with the desk account anna."""
    tables: dict[str, TableClient] = {}
    with _service(tmp, HOCKEY) as (broker, service):
        backend = ServiceBackend(service)
        app = create_app(backend, accounts_url=f"sqlite:///{tmp / 'courtside.db'}", lang=lang)
        app.state.site.accounts.add("anna", PASSWORD)
        server = LiveServer(app).start()
        try:
            for cid, name in service.plan.courts.items():
                tables[name] = TableClient(broker, service.plan.id, cid)
            yield Day(service, backend, server, tables)
        finally:
            for t in tables.values():
                t.close()
            server.stop()


@contextlib.contextmanager
def big_cup_day(teams: int = 104, courts: int = 8, classes: int = 0) -> Iterator[SampleDay]:
    """A generated cup (bench/cup.py) of ``teams`` in pools of four on ``courts`` pitches over three days, none
    played: more pools than the header lists and more matches than one schedule page shows; with ``classes``, a cup
    of that many classes on small and large pitches."""
    from bench.cup import classes_cup_toml, cup_toml, pitches

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "cup.toml"
        text = classes_cup_toml(teams=teams, classes=classes, **pitches(courts)) if classes else \
            cup_toml(teams=teams, courts=courts, day_end="13:00")
        path.write_text(text, encoding="utf-8")
        with sample_day(0, example=path) as day:
            yield day


class YouthCup:
    """rules/examples/youth-cup.toml over the real service, its matches played through their courts' tables."""

    def __init__(self, service: Any, backend: ServiceBackend, broker: str, server: LiveServer) -> None:
        self.service, self.backend, self.broker, self.server = service, backend, broker, server
        self.tables: dict[str, TableClient] = {}

    def view(self) -> View:
        return View(self.backend.data())

    def table(self, court: str) -> TableClient:
        cid = next(c for c, name in self.service.plan.courts.items() if name == court)
        if cid not in self.tables:
            self.tables[cid] = TableClient(self.broker, self.service.plan.id, cid)
        return self.tables[cid]

    def play(self, until: Callable[[Any], bool]) -> None:
        """The matches in playing order, each by its class's ruleset, home winning 2-1, until ``until`` picks one."""
        while True:
            waiting = [m for m in self.view().matches if m.recorded is None]
            if not waiting or until(waiting[0]):
                return
            m = waiting[0]
            kind, rnd = ("round_robin", "pool") if m.is_pool else ("knockout", m.round)
            events, result = played(self.service.plan.ruleset_of(m.stage), 2, 1, kind=kind, round=rnd)
            self.play_match(m.court, m.number, events, result)

    def play_match(self, court: str, number: int, events: list[dict[str, Any]], result: dict[str, Any]) -> None:
        table = self.table(court)
        table.play(str(number), events, result)
        table.wait_for("ack", lambda a: a.payload["of"] == "result" and a.match == str(number))
        wait_until(lambda: number in self.backend.data().results)

    def get(self, path: str) -> httpx.Response:
        return httpx.get(self.server.url + path, timeout=10)


YOUTH_CUP = Path(__file__).resolve().parent.parent / "rules" / "examples" / "youth-cup.toml"


@contextlib.contextmanager
def youth_cup_day(db_url: str, lang: str = "en") -> Iterator[YouthCup]:
    """The youth cup (four classes, two unpublished) on ``db_url`` behind a live server, every pool match played
    and the P13 semi-finals, each by its class's ruleset: the cup on its Sunday morning."""
    from tests.conftest import PLAIN_CONF, Broker

    with tempfile.TemporaryDirectory() as tmp:
        broker = Broker(PLAIN_CONF, Path(tmp))
        broker.start()
        try:
            with running_service(db_url, broker.url, plan=load_plan(YOUTH_CUP)) as service:
                backend = ServiceBackend(service)
                server = LiveServer(create_app(backend, lang=lang)).start()
                try:
                    cup = YouthCup(service, backend, broker.url, server)
                    cup.play(lambda m: m.stage in ("P13-A3", "P13-AF", "P13-BF", "P13-B3", "F13-ASF2"))
                    yield cup
                finally:
                    server.stop()
        finally:
            broker.stop()

"""The desk's commands as the service's loop applies them (server.desk_commands): each checked against what is
stored when it is applied, in the transaction that stores it, never against the page the organiser read.

Issue 31: the desk's rules were checked on a snapshot up to a second old and the write applied later with no
precondition. Here each command is made from what a page showed, something changes in the database meanwhile
(a table's result, another organiser), and the command then meets what is stored: refused with why and
nothing stored, or asked first, or applied."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from rules import read_result
from rules.standings import Decision, MatchResult
from server import desk, queries
from server.db.models import Change, Conflict, DecisionRow, EventRow, Fixture, MessageLog, ResultRow
from server.desk import DeskError, StaleView
from server.desk_commands import (
    DESK,
    CorrectResult,
    DeskCommands,
    MoveMatch,
    NeedsConfirmation,
    NotYourRole,
    RecordDecision,
    RuleSanction,
    SettleConflict,
)
from server.plan import load_plan
from server.progresses import to_match_result
from server.rulings import Rulings
from server.store import Store, result_row, teams_of
from tests.service_support import TableClient, at_once, played
from tests.web_support import cookie_of

EXAMPLES = Path(__file__).resolve().parent.parent / "rules" / "examples"
HOCKEY = load_plan(EXAMPLES / "indoor-hockey.toml")
YOUTH = load_plan(EXAMPLES / "youth-football.toml")  # a protest window of one hour (seed 003)


@pytest.fixture
def hockey(db_url: str) -> Iterator[DeskCommands]:
    store = Store.open(db_url, HOCKEY)
    yield DeskCommands(store, Rulings(store.engine))
    store.close()


def _teams(commands: DeskCommands, number: int) -> tuple[str, str]:
    with commands.store.session() as s:
        return teams_of(commands.store, s, str(number))


def _seen(commands: DeskCommands, number: int) -> str:
    """What a desk page shows of the match, as it sends it back with a write."""
    with commands.store.session() as s:
        f = s.get(Fixture, str(number))
        assert f is not None
        return desk.match_version(f.court_name, f.start, s.get(ResultRow, str(number)))


def _tables_result(commands: DeskCommands, number: int, home_goals: int, away_goals: int) -> None:
    """A table's result as the service's ingest stores it."""
    result = read_result({"home_goals": home_goals, "away_goals": away_goals, "outcome": "regular",
                          "winner": "home" if home_goals > away_goals else "away" if away_goals > home_goals else None})
    with commands.store.session.begin() as s:
        s.add(result_row(commands.store, s, str(number), result, source="table", court="hall-1", seq=40))
    commands.store.forget_progress()


def _stored(commands: DeskCommands, number: int) -> tuple[int, int, str, str] | None:
    with commands.store.session() as s:
        row = s.get(ResultRow, str(number))
        return None if row is None else (row.home_goals, row.away_goals, row.outcome, row.source)


def _walkover(commands: DeskCommands, number: int, **kw: Any) -> CorrectResult:
    home, away = _teams(commands, number)
    return CorrectResult(who="bob", why="no show", number=number, result=MatchResult(
        pool="A", home=home, away=away, home_goals=0, away_goals=0, outcome="walkover", winner=home), **kw)


def test_a_walkover_made_before_the_tables_result_arrived_is_not_applied_over_it(hockey: DeskCommands) -> None:
    """A walk-over silently replaced the result its table had sent (issue 31, case 3)."""
    walkover = _walkover(hockey, 1, seen=_seen(hockey, 1))  # the page showed no result
    _tables_result(hockey, 1, 0, 6)  # ... which arrives now
    with pytest.raises(StaleView, match=r"match 1 changed since this page was shown: now 0–6 from its table"):
        hockey.run(walkover)
    unseen = _walkover(hockey, 1)  # the API without the version the page showed: asked first all the same
    with pytest.raises(NeedsConfirmation) as asked:
        hockey.run(unseen)
    assert asked.value.lines[0] == "it replaces match 1's result 0–6 from its table"
    assert _stored(hockey, 1) == (0, 6, "regular", "table")
    hockey.run(_walkover(hockey, 1, seen=_seen(hockey, 1), confirmed=True))  # looked again, and confirmed
    assert _stored(hockey, 1) == (0, 0, "walkover", "organiser")
    change = queries.change_log(hockey.store)[-1]
    assert change.before is not None and (change.before["home_goals"], change.before["away_goals"]) == (0, 6)


def test_what_a_result_replaces_is_said_from_what_is_stored_whoever_entered_it(hockey: DeskCommands) -> None:
    home, away = _teams(hockey, 1)
    hockey.run(CorrectResult(who="ann", why="score sheet", number=1, result=MatchResult(
        pool="A", home=home, away=away, home_goals=2, away_goals=1)))
    with pytest.raises(NeedsConfirmation) as asked:
        hockey.run(_walkover(hockey, 1))
    assert asked.value.lines[0] == "it replaces match 1's result 2–1 entered by ann"


def test_two_organisers_writing_one_match_on_two_instances_store_one(pg_url: str) -> None:
    """A correction and a walk-over on one match at once: both were told "saved", and the last won."""
    stores = [Store.open(pg_url, HOCKEY) for _ in range(2)]
    try:
        one, two = (DeskCommands(s, Rulings(s.engine)) for s in stores)
        _tables_result(one, 1, 3, 1)
        seen = _seen(one, 1)
        home, away = _teams(one, 1)
        correction = CorrectResult(who="ann", why="protest upheld", number=1, seen=seen, confirmed=True,
                                   result=MatchResult(pool="A", home=home, away=away, home_goals=1, away_goals=3))
        raised = at_once(lambda: one.run(correction), lambda: two.run(_walkover(two, 1, seen=seen, confirmed=True)))
        assert sorted(type(e).__name__ for e in raised) == ["NoneType", "StaleView"], raised
        stored = _stored(one, 1)
        assert stored in ((1, 3, "regular", "organiser"), (0, 0, "walkover", "organiser"))
        assert len([c for c in queries.change_log(one.store) if c.match_id == "1"]) == 1
    finally:
        for s in stores:
            s.close()


def test_a_desk_account_enters_first_results_and_decisions_and_nothing_that_replaces(hockey: DeskCommands) -> None:
    home, away = _teams(hockey, 1)
    first = CorrectResult(who="dora", why="sheet", role=DESK, number=1,
                          result=MatchResult(pool="A", home=home, away=away, home_goals=1, away_goals=0))
    _tables_result(hockey, 1, 2, 2)  # the table's result arrived after the command was made
    with pytest.raises(NotYourRole, match="replacing match 1's result is an organiser's"):
        hockey.run(first)
    assert _stored(hockey, 1) == (2, 2, "regular", "table")
    hockey.run(CorrectResult(who="dora", why="sheet", role=DESK, number=2, result=MatchResult(
        pool="A", home=_teams(hockey, 2)[0], away=_teams(hockey, 2)[1], home_goals=1, away_goals=0)))
    assert _stored(hockey, 2) == (1, 0, "regular", "organiser")
    f = HOCKEY.fixtures["3"]
    for command in (MoveMatch(who="dora", why="floor", role=DESK, number=3, court="hall-2", start=f.start),
                    SettleConflict(who="dora", why="x", role=DESK, conflict="1", keep="held"),
                    RuleSanction(who="dora", why="x", role=DESK, number=1, team=home, player="7", matches=1)):
        with pytest.raises(NotYourRole, match="is an organiser's: the desk role enters results"):
            hockey.run(command)
    with pytest.raises(DeskError, match="pool A has played"):  # a decision is the desk's to make, once it is due
        hockey.run(RecordDecision(who="dora", why="shoot-out", role=DESK, decision=Decision(
            pool="A", method="penalty_competition", order=(home, away))))


def test_the_protest_window_is_judged_at_the_moment_of_the_write(db_url: str) -> None:
    store = Store.open(db_url, YOUTH)
    try:
        commands = DeskCommands(store, Rulings(store.engine))
        home, away = _teams(commands, 1)
        pool = YOUTH.fixtures["1"].stage
        commands.run(CorrectResult(who="ann", why="sheet", number=1, result=MatchResult(
            pool=pool, home=home, away=away, home_goals=2, away_goals=0)))
        with store.session() as s:
            row = s.get(ResultRow, "1")
            assert row is not None
            ended = row.recorded_at.replace(tzinfo=UTC)
        again = CorrectResult(who="ann", why="protest upheld", number=1, confirmed=True, result=MatchResult(
            pool=pool, home=home, away=away, home_goals=2, away_goals=1))
        with pytest.raises(DeskError, match=r"match 1's protest window closed at .*; the result is final"):
            commands.run(again, now=ended + timedelta(minutes=61))
        commands.run(again, now=ended + timedelta(minutes=59))
        assert _stored(commands, 1) == (2, 1, "regular", "organiser")
        with store.session() as s:  # a correction does not restart the window: it runs from the match's end
            row = s.get(ResultRow, "1")
            assert row is not None and row.recorded_at.replace(tzinfo=UTC) == ended
    finally:
        store.close()


def test_an_abandoned_match_is_settled_with_its_report_closed_in_the_same_write(hockey: DeskCommands) -> None:
    with hockey.store.session.begin() as s:
        s.add(Conflict(match_id="1", court="hall-1", seq=12, reason="abandoned", message_id="m-ab",
                       received_at=datetime.now(UTC),
                       payload={"home_goals": 1, "away_goals": 1, "outcome": "abandoned", "winner": None}))
    home, away = _teams(hockey, 1)
    level = MatchResult(pool="A", home=home, away=away, home_goals=1, away_goals=1)
    with pytest.raises(DeskError, match="no team leads at 1-1"):
        hockey.run(CorrectResult(who="ann", why="storm", number=1, result=level, abandoned="leader"))
    with hockey.store.session() as s:
        report = s.get(Conflict, 1)
        assert report is not None and report.settled_at is None  # refused: the report still waits
    hockey.run(CorrectResult(who="ann", why="storm", number=1, result=level, abandoned="tie"))
    with hockey.store.session() as s:
        report = s.get(Conflict, 1)
        assert report is not None and report.settled_at is not None and report.settled_by == "ann"
    assert _stored(hockey, 1) == (1, 1, "regular", "organiser")
    entered = [c for c in queries.change_log(hockey.store) if c.action == "result"]
    assert len(entered) == 1 and (entered[0].after or {}).get("note") == "abandoned: game determined a tie"


def test_a_decision_by_a_method_the_ruleset_does_not_use_is_refused_not_stored(hockey: DeskCommands) -> None:
    """Stored, it stopped the service: the progress refuses to read such a decision (found by the day below)."""
    pool = "A"
    for number, m in HOCKEY.fixtures.items():
        if m.stage == pool:
            home, away = _teams(hockey, int(number))
            hockey.run(CorrectResult(who="ann", why="sheet", number=int(number), result=MatchResult(
                pool=pool, home=home, away=away, home_goals=1, away_goals=1)))
    with hockey.store.session() as s:
        table = hockey.store.progress(s).pools[pool].table
    assert table is not None and table.unresolved
    tie = table.unresolved[0].teams
    with pytest.raises(DeskError, match="the ruleset breaks the ties of a pool by penalty_competition, not lots"
                       ) as err:
        hockey.run(RecordDecision(who="ann", why="drawn", decision=Decision(pool=pool, method="lots", order=tie)))
    assert err.value.field == "method"
    hockey.run(RecordDecision(who="ann", why="shoot-out", decision=Decision(pool=pool, method="penalty_competition",
                                                                             order=tie)))
    with hockey.store.session() as s:
        assert [d.method for d in hockey.store.decisions(s)] == ["penalty_competition"]


def test_a_result_waits_for_the_matchs_teams(hockey: DeskCommands) -> None:
    final = max(HOCKEY.fixtures.values(), key=lambda m: m.number)
    with pytest.raises(DeskError, match=rf"match {final.number}'s teams are not known yet \(.* v .*\)") as err:
        hockey.run(CorrectResult(who="ann", why="sheet", number=final.number, result=MatchResult(
            pool=final.stage, home=final.home, away=final.away, home_goals=1, away_goals=0)))
    assert err.value.field == "match" and _stored(hockey, final.number) is None


def test_a_ruling_on_a_card_nobody_reported_is_refused(hockey: DeskCommands) -> None:
    home, _ = _teams(hockey, 1)
    with pytest.raises(DeskError, match=r"no report for 7 \(.*\) in match 1"):
        hockey.run(RuleSanction(who="ann", why="video", number=1, team=home, player="7", matches=2))
    assert hockey.rulings.all() == []


# A whole day at once: two organisers on two instances, the tables playing ------------------------------------


@pytest.mark.parametrize("steps", [30, pytest.param(400, marks=pytest.mark.slow)])
def test_two_organisers_on_two_instances_and_the_tables_acting_at_once_for_a_day_leave_one_truth(
        mosquitto: Any, pg_url: str, tmp_path: Path, steps: int) -> None:
    """Issue 31's concurrency goal. Two `courtside server` processes over one PostgreSQL; an organiser logged in
    on each sends random desk writes through the JSON API, each from what their own instance showed a moment
    before (results, corrections, walk-overs, decisions, moves, conflicts settled); meanwhile each court's table
    plays its next match and resends its result until it is acknowledged. Afterwards: every "saved" is stored
    (its change row is there), every refusal said why and stored nothing, every table result is stored, held as
    a conflict or replaced by a change that says so, nothing stored contradicts another row, and both instances
    show the same results that count."""
    from server.web.accounts import Accounts
    from tests.instances_support import Instance

    broker = mosquitto()
    a = Instance(HOCKEY_FILE, pg_url, broker.url, tmp_path / "a.log").ready()  # A makes the schema, then B starts
    b = Instance(HOCKEY_FILE, pg_url, broker.url, tmp_path / "b.log").ready()
    accounts = Accounts.at(pg_url)
    for name in ("anna", "bert"):
        accounts.add(name, PASSWORD)
    accounts.engine.dispose()
    store = Store.open(pg_url, HOCKEY)
    try:
        done = threading.Event()
        sent: list[tuple[int, dict[str, Any]]] = []
        failed: list[str] = []
        tables = [threading.Thread(target=_recording(failed, _table_day),
                                   args=(base, broker.url, court, done, sent, failed, store), daemon=True)
                  for base, court in ((a.url, "hall-1"), (b.url, "hall-2"))]
        writes: list[_Write] = []
        organisers = [threading.Thread(target=_recording(failed, _organiser_day),
                                       args=(who, base, store, random.Random(seed), writes, steps), daemon=True)
                      for who, base, seed in (("anna", a.url, steps + 1), ("bert", b.url, steps + 2))]
        for t in (*tables, *organisers):
            t.start()
        for t in organisers:
            t.join(30 + 2 * steps)
        done.set()
        for t in tables:
            t.join(120)
        assert not any(t.is_alive() for t in (*tables, *organisers)), "the day did not end"
        assert not failed, failed
        assert {w.status for w in writes} <= {200, 409}, [(w.tag, w.status, w.answer) for w in writes]
        assert len([w for w in writes if w.status == 200]) >= 10, "too few writes were saved to say anything"
        try:
            _one_truth(store, writes, sent)
        except AssertionError as err:  # what the two services logged of the match, for the next engineer
            number = str(err).split(":")[0].removeprefix("match ").strip()
            lines = [f"{x.log_path.name}: {line}" for x in (a, b) for line in x.log_path.read_text().splitlines()
                     if f"match={number} " in line or f"match {number}" in line]
            raise AssertionError(f"{err}\n" + "\n".join(lines[-40:])) from None
        for base in (a.url, b.url):
            _agree(store, base)
    finally:
        store.close()
        a.stop()
        b.stop()


HOCKEY_FILE = EXAMPLES / "indoor-hockey.toml"
ANSWER_S = 120  # a page or a desk write not answered in two minutes is a fault, whatever the machine's load
PASSWORD = "a long desk password"


@dataclass
class _Write:
    who: str
    tag: str  # in the write's reason, unique: its change row is found by it
    kind: str
    status: int
    answer: dict[str, Any]


def _recording(failed: list[str], day: Any) -> Any:
    """``day`` for a thread, its exception kept in ``failed``: a thread that died (a 500 from a desk write, a
    page that did not answer) must fail the test, not end the day early unnoticed."""
    def run(*args: Any) -> None:
        try:
            day(*args)
        except Exception as err:  # whatever it was, the test reports it
            failed.append(f"{day.__name__}: {type(err).__name__}: {err}")
    return run


def _login(base: str, who: str) -> tuple[dict[str, str], str]:
    """A desk session on the instance at ``base``: its cookie header and its CSRF token."""
    from tests.web_support import csrf_of

    form = httpx.get(f"{base}/desk/login", timeout=ANSWER_S)
    login = httpx.post(f"{base}/desk/login", data={"csrf": csrf_of(form.text), "name": who, "password": PASSWORD},
                       headers={"cookie": f"courtside_login={cookie_of(form, 'courtside_login')}"}, timeout=ANSWER_S)
    assert login.status_code == 303, login.text
    session = {"cookie": f"courtside_session={cookie_of(login, 'courtside_session')}"}
    return session, csrf_of(httpx.get(f"{base}/desk", headers=session, timeout=ANSWER_S).text)


def _organiser_day(who: str, base: str, store: Store, rng: random.Random, writes: list[_Write], steps: int) -> None:
    session, csrf = _login(base, who)
    headers = {**session, "x-csrf-token": csrf}
    for step in range(steps):
        tag = f"[{who}-{step:03d}]"
        matches = httpx.get(f"{base}/api/v1/matches", timeout=ANSWER_S).json()["matches"]
        kind, path, body = _desk_write(rng, base, store, matches)
        if not path:
            time.sleep(0.2)
            continue
        answer = httpx.post(f"{base}/api/v1/desk/{path}", json={**body, "why": f"{kind} {tag}"}, headers=headers,
                            timeout=ANSWER_S)
        writes.append(_Write(who=who, tag=tag, kind=kind, status=answer.status_code, answer=answer.json()))
        time.sleep(rng.uniform(0, 0.3))


def _desk_write(rng: random.Random, base: str, store: Store,
                matches: list[dict[str, Any]]) -> tuple[str, str, dict[str, Any]]:
    """What an organiser does next, from what their instance shows now: (kind, API path, body)."""
    waiting = [m for m in matches if m["teams_known"] and m["result"] is None]
    played = [m for m in matches if m["result"] is not None]
    draw = rng.random()
    if draw < 0.15:
        conflicts = queries.open_conflicts(store)  # as the desk's overview lists them
        if conflicts:
            c = rng.choice(conflicts)
            return "conflict", f"conflicts/{c.id}", {"keep": rng.choice(("stored", "held"))}
    if draw < 0.3:
        for pool in rng.sample(sorted({m["stage"] for m in matches if m["round"] == "pool"}), k=3):
            state = httpx.get(f"{base}/api/v1/pools/{pool}", timeout=ANSWER_S).json()
            if state["unresolved"] and state["played"] == state["expected"]:
                teams = list(rng.choice(state["unresolved"])["teams"])
                rng.shuffle(teams)
                method = rng.choice(("lots", "penalty_competition"))  # one of them is the ruleset's
                return "decision", "decisions", {"pool": pool, "method": method, "order": teams}
    if played and draw < 0.5:
        m = rng.choice(played)
        return "correction", f"matches/{m['number']}/result", {**_goals(rng, m), "seen": m["seen"], "confirm": True}
    if waiting and draw < 0.6:
        m = rng.choice(waiting)
        return "walkover", f"matches/{m['number']}/walkover", {
            "kind": "walkover", "winner": rng.choice((m["home"], m["away"])), "seen": m["seen"],
            "confirm": rng.random() < 0.5}
    later = [m for m in waiting if m not in _next_on_each_court(waiting) and not m["to_be_played_again"]]
    if later and draw < 0.7:
        m = rng.choice(later)
        other = "Hall 2" if m["court"] == "Hall 1" else "Hall 1"
        return "move", f"matches/{m['number']}/move", {"court": other, "start": m["start"], "seen": m["seen"]}
    if waiting:
        m = rng.choice(waiting)
        return "result", f"matches/{m['number']}/result", {**_goals(rng, m), "seen": m["seen"]}
    return "", "", {}


def _next_on_each_court(waiting: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The two matches each court's table may be about to start: an organiser moves only matches after them
    (a table whose next match moved away would have to be told, which the real table is by its schedule)."""
    out = []
    for court in {m["court"] for m in waiting}:
        out += sorted((m for m in waiting if m["court"] == court), key=lambda m: (m["start"], m["number"]))[:2]
    return out


def _goals(rng: random.Random, m: dict[str, Any]) -> dict[str, Any]:
    home, away = rng.randint(0, 4), rng.randint(0, 4)
    if m["round"] != "pool" and home == away:
        home += 1  # a knock-out match has a winner in regular time here
    return {"home_goals": home, "away_goals": away}


def _table_day(base: str, broker_url: str, court: str, done: threading.Event,
               sent: list[tuple[int, dict[str, Any]]], failed: list[str], store: Store) -> None:
    """A court's table: plays its next match that has its teams and no result, and resends the result until it
    is acknowledged. A match is played once: one a correction sent "to be played again" has its events stored
    under its number already, and a real table's schedule counts it played (firmware.schedule); its new result is
    the desk's to enter. The matches are read from this table's instance, which may not have caught up with a move
    the other instance stored (a real table's schedule comes from the service that stored it): the table plays a
    match only if the database has it on this court with no event yet, and a match moved away while it is played
    is refused by the service (its events "not here"), which ends it here and is no failure. A loaded run found
    the table playing a match already moved to and played on the other court, its result never acknowledged."""
    table = TableClient(broker_url, HOCKEY.id, court)
    name = HOCKEY.courts[court]
    played_here: set[int] = set()
    rng = random.Random(court)
    try:
        while True:
            matches = httpx.get(f"{base}/api/v1/matches", timeout=ANSWER_S).json()["matches"]
            mine = sorted((m for m in matches if m["court"] == name and m["teams_known"] and m["result"] is None
                           and not m["to_be_played_again"] and m["number"] not in played_here),
                          key=lambda m: (m["start"], m["number"]))
            if not mine:
                if done.is_set():
                    return
                time.sleep(0.2)
                continue
            m = mine[0]
            with store.session() as s:
                stored = s.get(Fixture, str(m["number"]))
                started = s.scalar(select(EventRow.id).where(EventRow.match_id == str(m["number"])).limit(1))
            if started is not None:  # played already (here, or on the court it was moved to): played once
                played_here.add(m["number"])
                continue
            if stored is None or stored.court != court:
                time.sleep(0.2)  # moved away: this instance has not caught up with the move yet
                continue
            played_here.add(m["number"])
            goals = _goals(rng, m)
            kind, rnd = ("round_robin", "pool") if m["round"] == "pool" else ("knockout", m["round"])
            events, result = played(HOCKEY.rulesets[""], goals["home_goals"], goals["away_goals"], kind=kind, round=rnd)
            try:
                table.play_until_acked(str(m["number"]), events, result, timeout=60)
            except AssertionError as err:
                if not _moved_away(table, str(m["number"])):
                    failed.append(f"{court}: {err}")
                    return
                continue
            sent.append((m["number"], result))
    finally:
        table.close()


def _moved_away(table: TableClient, match: str) -> bool:
    """Whether the service refused this table's messages of ``match`` as scheduled on another court now."""
    from rules import protocol as p
    from rules.link_payloads import ErrorPayload

    for topic, raw in table.raw:
        if topic.endswith("/errors"):
            m = p.parse(raw, topic=topic)
            if isinstance(m.body, ErrorPayload) and f"match {match} is scheduled on" in m.body.reason:
                return True
    return False


def _one_truth(store: Store, writes: list[_Write], sent: list[tuple[int, dict[str, Any]]]) -> None:
    # One snapshot of the whole database: read statement by statement, a write landing between two reads (a
    # result replaced after the change log was read) would look like a result lost.
    with Session(store.engine.execution_options(isolation_level="REPEATABLE READ"), expire_on_commit=False) as s, \
            s.begin():
        changes = list(s.scalars(select(Change).order_by(Change.id)))
        conflicts = list(s.scalars(select(Conflict)))
        results = {r.match_id: r for r in s.scalars(select(ResultRow))}
        decisions = list(s.scalars(select(DecisionRow)))
        messages = list(s.scalars(select(MessageLog).where(MessageLog.type == "result").order_by(MessageLog.id)))
    for w in writes:
        logged = [c for c in changes if w.tag in c.why]
        if w.status == 200:
            assert logged, f"{w.tag} {w.kind} was saved but nothing is stored: {w.answer}"
        else:
            assert w.answer.get("error") and not logged, (w.tag, w.kind, w.answer, logged)
    for c in conflicts:
        if c.settled_at is None:  # held while a different result is stored
            stored = results.get(c.match_id)
            assert stored is not None, f"conflict {c.id} is open for match {c.match_id}, which has no result"
        else:
            assert c.settled_by and c.settlement in ("applied", "rejected"), (c.id, c.settlement)
            assert any(f"conflict {c.id}:" in x.why or (x.action == "conflict" and x.match_id == c.match_id)
                       for x in changes), f"conflict {c.id} was settled with no change row"
    ties = [(d.pool, desk.tie_key(d.order)) for d in decisions]
    assert len(ties) == len(set(ties)), "two decisions for one tie"
    for number, result in sent:  # every result a table sent: stored, held, or replaced by a logged change
        key = str(number)
        stored = results.get(key)
        goals = (result["home_goals"], result["away_goals"])
        kept = stored is not None and (stored.home_goals, stored.away_goals) == goals
        held = any(c.match_id == key and (read_result(c.payload).home_goals, read_result(c.payload).away_goals) == goals
                   for c in conflicts)
        replaced = any(c.match_id == key and c.action == "result" and c.before is not None
                       and (c.before["home_goals"], c.before["away_goals"]) == goals for c in changes)
        log = [(m.received_at.time(), m.court, m.seq, m.status, m.reason) for m in messages if m.match_id == key]
        assert kept or held or replaced, (
            f"match {number}: the table's {goals} went nowhere; its result messages {log}; stored "
            f"{stored and (stored.home_goals, stored.away_goals, stored.source, stored.recorded_at)}; held "
            f"{[(c.id, c.payload, c.settlement) for c in conflicts if c.match_id == key]}; changes "
            f"{[(c.at, c.who, c.action, c.why, c.before, c.after) for c in changes if c.match_id == key]}")


def _agree(store: Store, base: str) -> None:
    """The instance shows the results that count as the stored ones give them, once it has caught up."""
    from rules import progress as progress_of

    deadline = time.monotonic() + 30
    while True:
        matches = httpx.get(f"{base}/api/v1/matches", timeout=ANSWER_S).json()["matches"]
        shown = {m["number"]: (m["result"]["home_goals"], m["result"]["away_goals"]) for m in matches
                 if m["result"] is not None}
        p = store.progress()
        aside = {a.result for a in p.set_aside}
        with store.session() as s:
            counted = {int(r.match_id): (r.home_goals, r.away_goals) for r in store.results(s)
                       if r.outcome != "abandoned" and to_match_result(r) not in aside}
            decisions = store.decisions(s)
            rows = [to_match_result(r) for r in store.results(s) if int(r.match_id) in counted]
        if shown == counted or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert shown == counted, base
    again = progress_of(HOCKEY.cup.classes[0].tournament, HOCKEY.rulesets[""], HOCKEY.entry_teams, rows, decisions,
                        strict=False)
    ranking = httpx.get(f"{base}/api/v1/ranking", timeout=ANSWER_S).json()
    assert [r.team or r.text for r in again.final_ranking] == [e["team"] for e in ranking["ranking"]], ranking

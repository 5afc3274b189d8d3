"""The desk's commands as the service's loop applies them (server.desk_commands): each checked against what is
stored when it is applied, in the transaction that stores it, never against the page the organiser read.

Issue 31: the desk's rules were checked on a snapshot up to a second old and the write applied later with no
precondition. Here each command is made from what a page showed, something changes in the database meanwhile
(a table's result, another organiser), and the command then meets what is stored: refused with why and
nothing stored, or asked first, or applied."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from rules import read_result
from rules.standings import Decision, MatchResult
from server import desk, queries
from server.db.models import Conflict, Fixture, ResultRow
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
from server.rulings import Rulings
from server.store import Store, result_row, teams_of

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
        raised = _at_once(lambda: one.run(correction), lambda: two.run(_walkover(two, 1, seen=seen, confirmed=True)))
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
        hockey.run(RecordDecision(who="dora", why="lots", role=DESK, decision=Decision(
            pool="A", method="lots", order=(home, away))))


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


def _at_once(*writes: Any) -> list[BaseException | None]:
    import threading

    start = threading.Barrier(len(writes))
    out: list[BaseException | None] = [None] * len(writes)

    def run(n: int) -> None:
        start.wait()
        try:
            writes[n]()
        except BaseException as err:  # the test reads what each write raised
            out[n] = err

    threads = [threading.Thread(target=run, args=(n,)) for n in range(len(writes))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return out

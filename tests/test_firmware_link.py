"""The table's link and outbox against a real Mosquitto and the real service: nothing lost, nothing doubled.

The table's side runs in-process: a real journal (firmware.session.MatchSession) fed through the
engine, the real Link with its paho thread, and this test standing in for the table's loop (it
drains the commands the link posts and hands them back, as firmware/loop.py does).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import func, select

from display.content import frame_of
from display.view import Link
from firmware.commands import ScheduleUpdate
from rules.court_schedule import CourtSchedule, Suspended
from rules.match import ClockStarted, Goal
from rules.ruleset import load_ruleset
from server import desk, queries
from server.db.models import EventRow, ResultRow
from server.desk_commands import RuleSanction
from server.web.service_backend import ServiceBackend
from tests.firmware_support import board
from tests.service_support import HOCKEY, Table, TableClient, played, running_service


def _counts(service: Any) -> tuple[int, int]:
    with service.store.session() as s:
        return (s.scalar(select(func.count()).select_from(EventRow)) or 0,
                s.scalar(select(func.count()).select_from(ResultRow)) or 0)


def test_a_match_played_offline_catches_up_when_the_broker_comes(mosquitto: Any, tmp_path: Path) -> None:
    broker = mosquitto(run=False)  # the venue's broker is not up yet
    table = Table(broker.url, tmp_path / "journal")
    table.load("1", "Rot-Weiss Köln", "Slavia Praha")
    table.play(2, 1)
    assert table.link.status() == Link(online=False, waiting=len(table.session.match.events) + 1)  # type: ignore[union-attr]
    broker.start()
    with running_service(f"sqlite:///{tmp_path / 's.db'}", broker.url) as service:
        table.pump(lambda: table.link.outbox.waiting() == 0 and table.link.online)
        assert table.link.status() == Link(online=True, waiting=0)
        assert _counts(service) == (len(table.session.match.events), 1)  # type: ignore[union-attr]
        (result,) = queries.results(service.store)
        assert (result.home_goals, result.away_goals, result.source) == (2, 1, "table")
    table.stop()


def test_a_reboot_and_a_broker_restart_lose_and_double_nothing(mosquitto: Any, tmp_path: Path) -> None:
    broker = mosquitto()
    journal = tmp_path / "journal"
    with running_service(f"sqlite:///{tmp_path / 's.db'}", broker.url) as service:
        table = Table(broker.url, journal)
        table.pump(lambda: table.link.online)
        table.load("1", "Rot-Weiss Köln", "Slavia Praha")
        table.apply(ClockStarted(at=0))
        table.apply(Goal(at=1000, team="home"))
        table.pump(lambda: table.link.outbox.waiting() == 0)
        broker.stop()  # mid-match
        table.pump(lambda: not table.link.online)
        table.apply(Goal(at=2000, team="away"))
        assert table.link.status() == Link(online=False, waiting=1)
        broker.start()
        table.pump(lambda: table.link.online and table.link.outbox.waiting() == 0)
        table.finish(3000)  # the rest of the match: a 1-1 draw
        table.stop()  # the power is cut before the result is acknowledged (maybe before it was sent)
        events = len(table.session.match.events)  # type: ignore[union-attr]
        rebooted = Table(broker.url, journal)  # the same journal folder after the reboot
        rebooted.pump(lambda: rebooted.link.online and rebooted.link.outbox.waiting() == 0)
        assert _counts(service) == (events, 1)
        assert queries.results(service.store)[0].home_goals == 1
        rebooted.stop()


def test_a_database_restored_from_an_older_backup_gets_back_everything_the_table_holds(
        mosquitto: Any, db_url: str, tmp_path: Path) -> None:
    """Issue 31: a result acknowledged before the backup was never sent again after a restore (the outbox said
    acked), and a half-played match's first events never came back. Restored mid-match with the table playing:
    the service tells the table what it holds when it starts, and the table sends again what is missing."""
    from server.backup import backup, restore

    broker = mosquitto()
    table = Table(broker.url, tmp_path / "journal")
    with running_service(db_url, broker.url) as service:
        table.pump(lambda: table.link.online)
        table.load("1", "Rot-Weiss Köln", "Slavia Praha")
        table.apply(ClockStarted(at=0))
        table.apply(Goal(at=1000, team="home"))
        table.pump(lambda: table.link.outbox.waiting() == 0)
        older = backup(db_url, tmp_path / "older.backup")  # one goal stored: the backup the venue restores
        table.apply(Goal(at=2000, team="away"))
        table.finish(3000)
        table.pump(lambda: table.link.outbox.waiting() == 0)
        held = _counts(service)
        assert held == (len(table.session.match.events), 1)  # type: ignore[union-attr]
        table.load("3", "Three Rock Rovers", "Rot-Weiss Köln")  # the next match under way as the server fails
        table.apply(ClockStarted(at=0))
        table.pump(lambda: table.link.outbox.waiting() == 0)
    restore(db_url, older)  # the service is stopped; the table plays on
    table.apply(Goal(at=5000, team="home"))
    with running_service(db_url, broker.url) as service:
        assert _counts(service) == (2, 0)  # what the backup held
        # The table does not reconnect: the service reads its retained presence at start and says what it holds.
        table.pump(lambda: _counts(service) == (held[0] + 2, 1) and table.link.outbox.waiting() == 0)
        (result,) = queries.results(service.store)
        assert (result.home_goals, result.away_goals, result.source) == (1, 1, "table")
        with service.store.session() as s:
            seqs = [(m, q) for m, q in s.execute(select(EventRow.match_id, EventRow.seq).order_by(EventRow.id))]
        assert sorted(seqs) == sorted(set(seqs)) and len(seqs) == held[0] + 2  # every event once
    table.stop()


def test_the_courts_schedule_reaches_the_table_and_follows_a_moved_match(mosquitto: Any, tmp_path: Path) -> None:
    broker = mosquitto()
    with running_service(f"sqlite:///{tmp_path / 's.db'}", broker.url) as service:
        table = Table(broker.url, tmp_path / "j2", court="hall-2", name="Hall 2")
        table.pump(lambda: bool(table.schedules))
        assert "1" not in {m.match for m in table.schedules[-1]}
        service.submit(lambda: desk.move_match(service.store, "1", court="hall-2", who="ann", why="floor wet"))
        table.pump(lambda: "1" in {m.match for m in table.schedules[-1]})
        moved = next(m for m in table.schedules[-1] if m.match == "1")
        assert (moved.home, moved.away, moved.kind) == ("Rot-Weiss Köln", "Slavia Praha", "round_robin")
        assert table.court_names[-1] == "Hall 2"
        table.stop()



def test_a_schedule_addressed_to_another_court_is_not_taken(mosquitto: Any, tmp_path: Path) -> None:
    """Hall 1's schedule reaching Hall 2's table would leave it no match of its own (a friendly instead).

    The demo's embedded broker once delivered other courts' schedules to a table; here the table's
    client is subscribed to Hall 1's schedule as well, so the broker hands it Hall 1's retained one.
    """
    from rules import protocol as p

    broker = mosquitto()
    with running_service(f"sqlite:///{tmp_path / 's.db'}", broker.url) as service:
        table = Table(broker.url, tmp_path / "j3", court="hall-2", name="Hall 2")
        table.pump(lambda: bool(table.schedules))
        table.link.client.subscribe(p.court_topic("indoor-hockey", "hall-1", "schedule"), qos=1)
        seen = len(table.schedules)
        service.submit(lambda: desk.move_match(service.store, "1", court="hall-2", who="ann", why="floor wet"))
        table.pump(lambda: any("1" in {m.match for m in s} for s in table.schedules[seen:]))
        assert set(table.court_names) == {"Hall 2"}
        table.stop()


def test_who_may_not_play_reaches_the_table_and_shows_when_next_loads_the_match(mosquitto: Any,
                                                                                 tmp_path: Path) -> None:
    # Indoor hockey: Slavia Praha's #9 is sent off in match 1 (Hall 1); the organiser rules he misses one
    # match: Slavia's next, match 6 on Hall 2, where they play at home.
    broker = mosquitto()
    with running_service(f"sqlite:///{tmp_path / 's.db'}", broker.url) as service:
        hall_1 = TableClient(broker.url, service.plan.id, "hall-1")
        events, result = played(load_ruleset("indoor-hockey"), 2, 0, cards=[("away", "red", "9")])
        hall_1.play("1", events, result)
        hall_1.wait_for("ack", lambda m: m.payload["of"] == "result")
        ServiceBackend(service).submit(RuleSanction(who="anna", why="committee", number=1, team="Slavia Praha",
                                                    player="9", matches=1))
        table = Table(broker.url, tmp_path / "j4", court="hall-2", name="Hall 2")
        table.pump(lambda: any(m.suspended for s in table.schedules for m in s))
        pushed = next(s for s in table.schedules if any(m.suspended for m in s))
        table.stop()
        hall_1.close()
    assert [(m.match, m.suspended) for m in pushed if m.suspended] == [
        ("6", (Suspended(side="home", player="9", kind="red", label="Red card", given_in=1, matches_left=1),))]
    with board(tmp_path / "hall-2", tournament=str(HOCKEY), court="2") as b:
        b.loop.queue.put(ScheduleUpdate(schedule=CourtSchedule(court_name="Hall 2", matches=pushed)))
        for _ in ("2", "4"):  # leave Hall 2's first two matches (long hold of MODE): NEXT is match 6
            b.at(b.loop.clock.seconds() + 1)
            b.down("mode")
            b.at(b.loop.clock.seconds() + 4)
            b.up("mode")
        view = b.loop.view()
        assert (view.match, view.home.name) == ("6", "Slavia Praha")
        # The headless screen's line when the match was loaded; the scoreboard's frame under the team.
        assert "[Hall 2 6] not eligible: Slavia Praha #9 (Red card, match 1)" in b.screen.lines
        shown = frame_of(view)
        assert (shown.not_eligible_label, shown.home_not_eligible, shown.away_not_eligible) == (
            "Not eligible", ("#9 (Red card, match 1)",), ())
        b.press("clock_start")  # once the match runs the list gives way to time-outs and penalties
        b.at(b.loop.clock.seconds() + 2)
        assert frame_of(b.loop.view()).home_not_eligible == ()

"""Which match: the court's schedule from a tournament file, pushed updates, a friendly without either."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from firmware.schedule import (
    SCHEDULE_FILE,
    PlayingOrder,
    believable,
    court_plan,
    friendly,
    keep_schedule,
    kept_schedule,
    read_kept_match,
)
from rules.court_schedule import CourtMatch, CourtSchedule, Suspended, court_match_payload
from rules.errors import ProtocolError, TournamentError
from tests.firmware_support import board

HOCKEY = str(Path(__file__).parent.parent / "rules" / "examples" / "indoor-hockey.toml")


def test_the_courts_matches_in_order_by_name_or_number() -> None:
    by_number, rules = court_plan(HOCKEY, "2")
    by_name, _ = court_plan(HOCKEY, "Hall 2")
    assert rules.default == "indoor-hockey" and by_number.matches == by_name.matches
    first = by_number.matches[0]
    assert (first.home, first.away, first.stage, first.round, first.kind) == (
        "Amsterdam H&BC", "Three Rock Rovers", "A", "pool", "round_robin")
    knockouts = [m for m in by_number.matches if m.stage in ("SF1", "SF2", "P34", "F")]
    assert knockouts and all(m.kind == "knockout" for m in knockouts)
    assert all(m.kind == "round_robin" for m in by_number.matches if m.stage in ("A", "B", "C"))
    assert by_number.court == by_name.court == "Hall 2"


def test_an_unknown_court_is_refused_with_the_courts_there_are() -> None:
    with pytest.raises(TournamentError, match=r"no court 'Hall 9' \(courts: Hall 1, Hall 2"):
        court_plan(HOCKEY, "Hall 9")


def _match(number: int, home: str, away: str, start: datetime | None = None, **more: Any) -> CourtMatch:
    return CourtMatch(match=str(number), number=number, stage="A", round="pool", home=home, away=away, start=start,
                      **more)


def test_next_nearest_and_a_pushed_schedule() -> None:
    a = _match(1, "A", "B", datetime(2026, 5, 16, 9, 0))
    b = _match(2, "C", "D", datetime(2026, 5, 16, 10, 0))
    s = PlayingOrder("1", [a, b])
    assert s.next_match(set()) == a and s.next_match({"1"}) == b and s.next_match({"1", "2"}) is None
    assert s.nearest(datetime(2026, 5, 16, 9, 50), set()) == b
    # A wall clock years off (a Pi without a real-time clock or network time): the playing order, not the clock.
    assert s.nearest(datetime(2036, 5, 16, 9, 50), set()) == a and s.nearest(datetime(1970, 1, 1), set()) == a
    assert s.nearest(datetime(2026, 5, 16, 21, 59), set()) == b  # within 12 h of the day: believed
    s.replace([b])  # the service's schedule for this court: match 1 moved to another court
    assert s.matches == (b,) and s.next_match(set()) == b
    assert PlayingOrder("1").next_match({"friendly-1"}) == CourtMatch(
        match="friendly-2", number=0, stage="friendly", round="", home="Home", away="Away", start=None)


def test_who_may_not_play_survives_the_journal_and_an_older_journal_is_read_as_it_meant() -> None:
    # The loaded match is kept in its journal's meta as the schedule's payload has it: a restart shows the same.
    m = _match(7, "Örebro SK P14", "Hammarby IF P14", datetime(2026, 5, 16, 9, 50), class_name="P14",
               suspended=(Suspended(side="home", player="7", kind="red", label="Rött kort", given_in=2),))
    assert read_kept_match(court_match_payload(m)) == m
    assert read_kept_match(court_match_payload(friendly(3))) == friendly(3)  # no time, no round
    # What a table before this one kept (its own record, firmware's Scheduled): read as it meant, so a match
    # journaled before the update and cut by a power cut after it comes back whole.
    older = {"match_id": "7", "home": "Örebro SK P14", "away": "Hammarby IF P14", "stage": "A", "round": "pool",
             "kind": "round_robin", "start": "2026-05-16T09:50", "court": "Plan 1", "continues": None,
             "class_name": "P14", "suspended": [{"side": "home", "player": "7", "label": "Rött kort", "given_in": 2}]}
    assert read_kept_match(older) == replace(m, suspended=(replace(m.suspended[0], kind=""),))
    assert read_kept_match({k: v for k, v in older.items() if k != "suspended"}).suspended == ()
    with pytest.raises(ProtocolError, match=r"meta.scheduled: not a match a table kept"):
        read_kept_match({**older, "home": None, "away": None} | {"start": "at ten"}, "meta.scheduled")
    with pytest.raises(ProtocolError, match=r"meta.scheduled.number"):
        read_kept_match({**court_match_payload(m), "number": "7"}, "meta.scheduled")


def test_the_service_s_schedule_is_kept_beside_the_journal_and_an_older_one_read(tmp_path: Path) -> None:
    schedule = CourtSchedule(court_name="Plan 1", matches=(_match(7, "A", "B", datetime(2026, 5, 16, 9, 50)),))
    keep_schedule(tmp_path, schedule)
    assert kept_schedule(tmp_path) == schedule
    (tmp_path / SCHEDULE_FILE).write_text('[{"match_id": "7", "home": "A", "away": "B", "stage": "A", '
                                          '"round": "pool", "start": "2026-05-16T09:50", "court": "Plan 1"}]')
    assert kept_schedule(tmp_path) == replace(schedule, court_name="")
    (tmp_path / SCHEDULE_FILE).write_text('{"court_name": "Plan 1", "matches": [{"match": 7}]}')
    assert kept_schedule(tmp_path) is None  # unreadable: the tournament file's stands until the service sends


def test_a_table_with_a_tournament_plays_its_courts_matches(tmp_path: Path) -> None:
    with board(tmp_path, tournament=HOCKEY, court="2") as b:
        s = b.loop.session
        assert (s.scheduled.home, s.scheduled.away) == ("Amsterdam H&BC", "Three Rock Rovers")
        assert s.header.match_id == "2" and s.header.court == "Hall 2" and s.header.ruleset == "indoor-hockey"
        b.press("clock_start")
        b.at(5.0)
        b.down("mode")  # long hold: leave this match for the next one
        b.at(9.0)
        b.up("mode")
        assert b.loop.session.scheduled.match == "4"
        assert b.loop.session.header.home == "HC Bloemendaal"


def test_a_restart_between_matches_offers_the_match_nearest_now(tmp_path: Path) -> None:
    with board(tmp_path, tournament=HOCKEY, court="1") as b:
        b.press("clock_start")
        for t in (10.0, 20.0):  # end each half at once (hold NEXT), skipping the interval between
            b.at(t)
            b.down("next")
            b.at(t + 1.5)
            b.up("next")
            b.at(t + 2.0)
            b.press("next" if t == 10.0 else "horn")
            b.at(t + 3.0)
            b.press("clock_start")
        assert b.state.phase == "finished"
        first = b.loop.session.scheduled
    with board(tmp_path, tournament=HOCKEY, court="1") as b:
        assert b.loop.session.scheduled == first and b.state.phase == "finished"
        schedule, _ = court_plan(HOCKEY, "1")
        now = datetime.now()
        nearest = min((m for m in schedule.matches if m.match != first.match),
                      key=lambda m: abs((m.start - now).total_seconds()) if m.start else 0.0)
        if not believable(now, schedule.matches):  # today is not the example's day: the playing order
            nearest = schedule.next_match({first.match}) or nearest
        between = b.loop.view().between
        assert between is not None and between.next_match is not None
        assert (between.next_match.home, between.next_match.start) == (nearest.home, nearest.start)
        b.at(b.loop.clock.seconds() + 1)
        b.press("next")
        assert b.loop.session.scheduled == nearest


CUP = str(Path(__file__).parent.parent / "rules" / "examples" / "youth-cup.toml")


def test_a_cup_court_names_each_match_s_class_and_each_class_its_rules() -> None:
    order, rules = court_plan(CUP, "7v7 Plan 1")
    assert {m.class_name for m in order.matches} == {"P10", "F10"}
    p10 = next(m for m in order.matches if m.class_name == "P10")
    f10 = next(m for m in order.matches if m.class_name == "F10")
    assert rules.of(p10)[0].name == "youth-football-7v7" and rules.of(f10)[0].name == "youth-football"
    assert Path(rules.ref(p10)).is_absolute()  # a file: its whole path, so a restarted table finds it anywhere
    assert rules.of(p10)[0] is rules.of(p10)[0]  # loaded once
    assert rules.of(friendly()) == rules.of(p10)  # no class: the table's own default

"""Which match: the court's schedule from a tournament file, pushed updates, a friendly without either."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from firmware.schedule import PlayingOrder, Scheduled, believable, court_plan
from rules.court_schedule import Suspended
from rules.errors import TournamentError
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
    assert all(m.court == "Hall 2" for m in by_number.matches)


def test_an_unknown_court_is_refused_with_the_courts_there_are() -> None:
    with pytest.raises(TournamentError, match=r"no court 'Hall 9' \(courts: Hall 1, Hall 2"):
        court_plan(HOCKEY, "Hall 9")


def test_next_nearest_and_a_pushed_schedule() -> None:
    a = Scheduled(match_id="1", home="A", away="B", court="1", start=datetime(2026, 5, 16, 9, 0))
    b = Scheduled(match_id="2", home="C", away="D", court="1", start=datetime(2026, 5, 16, 10, 0))
    s = PlayingOrder("1", [a, b])
    assert s.next_match(set()) == a and s.next_match({"1"}) == b and s.next_match({"1", "2"}) is None
    assert s.nearest(datetime(2026, 5, 16, 9, 50), set()) == b
    # A wall clock years off (a Pi without a real-time clock or network time): the playing order, not the clock.
    assert s.nearest(datetime(2036, 5, 16, 9, 50), set()) == a and s.nearest(datetime(1970, 1, 1), set()) == a
    assert s.nearest(datetime(2026, 5, 16, 21, 59), set()) == b  # within 12 h of the day: believed
    moved = Scheduled(match_id="3", home="E", away="F", court="2")
    s.replace([b, moved])
    assert s.matches == (b,)
    assert PlayingOrder("1").next_match({"friendly-1"}) == Scheduled(
        match_id="friendly-2", home="Home", away="Away", court="1")


def test_who_may_not_play_survives_the_journal_and_an_older_journal_has_nobody() -> None:
    # The loaded match is kept in its journal's meta (Scheduled.to_dict): a restart shows the same list.
    m = Scheduled(match_id="7", home="Örebro SK P14", away="Hammarby IF P14", court="Plan 1",
                  start=datetime(2026, 5, 16, 9, 50),
                  suspended=(Suspended(side="home", player="7", label="Rött kort", given_in=2),))
    assert Scheduled.from_dict(m.to_dict()) == m
    older = {k: v for k, v in m.to_dict().items() if k != "suspended"}
    assert Scheduled.from_dict(older).suspended == ()


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
        assert b.loop.session.scheduled.match_id == "4"
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
        nearest = min((m for m in schedule.matches if m.match_id != first.match_id),
                      key=lambda m: abs((m.start - now).total_seconds()) if m.start else 0.0)
        if not believable(now, schedule.matches):  # today is not the example's day: the playing order
            nearest = schedule.next_match({first.match_id}) or nearest
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
    assert rules.of(Scheduled(match_id="friendly-1", home="Home", away="Away")) == rules.of(p10)  # no class: default

"""server/web/schedule_parts.py: which part of the schedule a page shows, from a club day to a cup on 110 pitches."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from server.web.schedule_parts import (
    WHOLE_SCHEDULE,
    class_part,
    day_parts,
    default_part,
    known_part,
    matches_of,
    parts,
)


@dataclass(frozen=True)
class Played:
    court: str
    start: datetime
    class_name: str = ""


def _day(first: datetime, pitches: int, slots: int) -> list[Played]:
    """Every pitch busy from ``first``, a match every 25 minutes."""
    return [Played(f"Pitch {p}", first + timedelta(minutes=25 * s))
            for s in range(slots) for p in range(1, pitches + 1)]


def test_a_club_day_is_one_page_and_each_of_its_days_and_courts_a_part() -> None:
    matches = _day(datetime(2026, 5, 16, 8), 3, 10) + _day(datetime(2026, 5, 17, 8), 3, 4)
    assert parts(matches, ["Pitch 1", "Pitch 2", "Pitch 3"], day_parts(matches)) == [
        "", "day=2026-05-16", "day=2026-05-17", "court=Pitch 1", "court=Pitch 2", "court=Pitch 3"]
    assert default_part(matches, matches, day_parts(matches)) == ""
    assert len(matches_of(matches, "day=2026-05-17")) == 12 and len(matches_of(matches, "court=Pitch 2")) == 14


def test_a_crowded_day_is_an_hour_at_a_time_and_the_schedule_opens_where_play_is() -> None:
    big = _day(datetime(2026, 7, 13, 9), 110, 20)  # 2,200 matches on one day
    calm = _day(datetime(2026, 7, 14, 9), 10, 6)
    matches = big + calm
    days = day_parts(matches)
    assert days["2026-07-14"] == ["day=2026-07-14"]
    hours = days["2026-07-13"]
    assert hours[0] == "day=2026-07-13T09" and hours[-1] == "day=2026-07-13T16" and len(hours) == 8
    assert "" not in parts(matches, [], days)
    assert sum(len(matches_of(matches, h)) for h in hours) == len(big)
    assert all(len(matches_of(matches, h)) <= 3 * 110 for h in hours)  # about 100 KB of HTML at most
    assert len(matches_of(matches, "day=2026-07-14")) == 60 <= WHOLE_SCHEDULE
    waiting = [m for m in matches if m.start >= datetime(2026, 7, 13, 12, 30)]
    assert default_part(matches, waiting, days) == "day=2026-07-13T12"
    assert default_part(matches, [], days) == "day=2026-07-14"  # all played: the last day


def test_a_class_is_one_page_while_it_fits_else_a_day_of_it_and_its_parts_are_checked() -> None:
    small = [Played(f"Plan {n % 2}", datetime(2026, 6, 13, 8) + timedelta(minutes=40 * n), "P10") for n in range(20)]
    big = [Played(f"Plan {n % 5}", datetime(2026, 6, 13 + n // 100, 8) + timedelta(minutes=n % 100), "P13")
           for n in range(WHOLE_SCHEDULE + 50)]
    matches = small + big
    assert class_part(matches, "P10") == "class=P10" and len(matches_of(matches, "class=P10")) == 20
    assert class_part(matches, "P13") == "class=P13;day=2026-06-13"  # too long for a page: its first day
    assert len(matches_of(matches, "class=P13;day=2026-06-14")) == 100
    assert matches_of(matches, "class=P13;court=Plan 1") == [m for m in big if m.court == "Plan 1"]
    assert class_part(matches, "P13", court="Plan 1") == "class=P13;court=Plan 1"
    days, courts = ["2026-06-13", "2026-06-14"], ["Plan 0", "Plan 1"]
    assert known_part("class=P13;day=2026-06-14", [], ["P10", "P13"], days, courts)
    assert not known_part("class=P99", [], ["P10", "P13"], days, courts)
    assert not known_part("class=P13;day=2027-01-01", [], ["P10", "P13"], days, courts)
    assert not known_part("class=P13;team=x", [], ["P10", "P13"], days, courts)
    assert not known_part("day=2026-06-14", [], ["P10", "P13"], days, courts)  # not a class part, not listed

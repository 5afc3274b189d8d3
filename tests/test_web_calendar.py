"""A team's calendar feed over the real service (Mosquitto, SQLite, tables playing on the engine), read back by
the icalendar package: one event per match the team is known to play, the knock-out match appearing once the
team fills its slot, a move by the organiser changing the event's time (same UID, a higher SEQUENCE), a score
once played; every line within RFC 5545's 75 octets."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, timedelta
from typing import Any
from urllib.parse import quote

import httpx
import icalendar
import pytest

from server.desk_commands import MoveMatch
from server.web.calendar import _fold
from tests.web_day import Day, served_day, wait_until

TEAM = "Rot-Weiss Köln"  # pool A's first: 1A, so it plays SF2 ("1A" v "2B"), then the final


@pytest.fixture(scope="module")
def day(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Day]:
    with served_day(tmp_path_factory.mktemp("calendar")) as served:
        yield served


def _feed(day: Day, team: str = TEAM) -> tuple[httpx.Response, dict[str, Any]]:
    """The feed as a phone fetches it, and its events by UID (each checked for what a calendar needs)."""
    answer = httpx.get(f"{day.server.url}/team/{quote(team, safe='')}/calendar.ics")
    assert answer.status_code == 200 and answer.headers["content-type"] == "text/calendar; charset=utf-8"
    assert all(len(line.encode()) <= 75 for line in answer.content.decode().split("\r\n"))
    calendar = icalendar.Calendar.from_ical(answer.content)
    assert calendar["VERSION"] == "2.0" and calendar["PRODID"]
    events = {}
    for e in calendar.walk("VEVENT"):
        assert e.decoded("DTSTART") < e.decoded("DTEND") and e.decoded("DTSTAMP").tzinfo is not None
        events[str(e["UID"])] = e
    assert len(events) == len(calendar.walk("VEVENT"))  # no UID twice
    return answer, events


def _start(row: Any) -> Any:
    return row.start.astimezone(UTC)  # the service's local time, as the feed writes it (UTC)


def test_the_feed_follows_the_slots_moves_and_results(day: Day) -> None:
    view = day.view()
    pool_matches = [m for m in view.matches if TEAM in (m.home, m.away)]
    sf2 = next(m for m in view.matches if m.stage == "SF2")
    assert not sf2.home_known  # "1A" before pool A is played
    _, before = _feed(day)
    assert sorted(str(e["SUMMARY"]) for e in before.values()) == sorted(f"{m.home} – {m.away}" for m in pool_matches)
    assert {e.decoded("DTSTART") for e in before.values()} == {_start(m) for m in pool_matches}
    assert {int(e["SEQUENCE"]) for e in before.values()} == {0}

    # Pools A and B played: Köln is 1A and its semi-final joins its calendar; the pool matches keep their UIDs.
    day.play(until=lambda m: not m.is_pool)
    sf2 = next(m for m in day.view().matches if m.stage == "SF2")
    assert sf2.home == TEAM
    _, filled = _feed(day)
    assert set(before) < set(filled)
    (uid,) = set(filled) - set(before)
    semi = filled[uid]
    assert str(semi["SUMMARY"]) == f"SF2: {TEAM} – {sf2.away}" and str(semi["LOCATION"]) == sf2.court
    assert semi.decoded("DTSTART") == _start(sf2) and int(semi["SEQUENCE"]) == 2  # both slots filled
    for old, event in before.items():  # the played pool matches: same event, its score now
        assert filled[old].decoded("DTSTART") == event.decoded("DTSTART")
        assert "–" in str(filled[old]["SUMMARY"]) and str(filled[old]["SUMMARY"]) != str(event["SUMMARY"])

    # The organiser moves the semi-final: the same event, later and elsewhere, one change more.
    elsewhere = next(c for c in day.view().courts if c != sf2.court)
    later = sf2.start + timedelta(minutes=40)
    day.backend.submit(MoveMatch(who="anna", why="the hall is late", number=sf2.number, court=elsewhere,
                                 start=later))
    wait_until(lambda: next(m for m in day.view().matches if m.stage == "SF2").moved)
    _, moved = _feed(day)
    assert set(moved) == set(filled)
    assert moved[uid].decoded("DTSTART") == later.astimezone(UTC) and str(moved[uid]["LOCATION"]) == elsewhere
    assert moved[uid].decoded("DTEND") - moved[uid].decoded("DTSTART") == sf2.end - sf2.start
    assert int(moved[uid]["SEQUENCE"]) == 3

    # Played through its table: the score is in the event; the final joins the calendar.
    day.play(until=lambda m: m.stage == "P34")
    played = next(m for m in day.view().matches if m.stage == "SF2")
    _, after = _feed(day)
    assert str(after[uid]["SUMMARY"]) == f"SF2: {TEAM} {played.score} {played.away}"
    assert any(str(e["SUMMARY"]).startswith("F: ") for e in after.values())


def test_a_team_the_tournament_does_not_have_has_no_calendar(day: Day) -> None:
    assert httpx.get(f"{day.server.url}/team/{quote('Nobody FC')}/calendar.ics").status_code == 404


def test_a_team_page_offers_the_feed_to_subscribe_to(day: Day) -> None:
    page = httpx.get(f"{day.server.url}/team/{quote(TEAM, safe='')}").text
    host = day.server.url.removeprefix("http://")
    assert f'href="webcal://{host}/team/{quote(TEAM, safe="")}/calendar.ics"' in page


def test_long_lines_fold_between_characters_never_inside_one() -> None:
    line = "SUMMARY:" + "Ö" * 100
    folded = _fold(line)
    assert all(len(part.encode()) <= 75 for part in folded)
    assert folded[0] + "".join(part[1:] for part in folded[1:]) == line and all(p.startswith(" ") for p in folded[1:])

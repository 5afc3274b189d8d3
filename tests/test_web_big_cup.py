"""A big cup's site (issue 32): a generated cup of 104 teams in 26 pools on 8 pitches over three days, 157
matches. The header lists no pool by name (one link to their list), the schedule is a day or a pitch at a time,
every page has a team search, and the API's match list is filtered and paged."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from server.web import create_app
from server.web.schedule_parts import WHOLE_SCHEDULE
from server.web.view import View
from tests.web_day import big_cup_day


@pytest.fixture(scope="module")
def cup() -> Iterator[tuple[TestClient, View]]:
    with big_cup_day() as day, TestClient(create_app(day.backend, lang="en", secure_cookies=False)) as client:
        yield client, day.view()


def _header(html: str) -> str:
    found = re.search(r'<header class="top">(.*?)</header>', html, re.S)
    assert found is not None
    return found.group(1)


def test_the_header_links_the_pools_list_and_searches_teams_on_every_page(cup: tuple[TestClient, View]) -> None:
    client, view = cup
    assert len(view.pools) == 26
    for path in ("/", "/schedule", "/pools", "/pool/Z", "/ranking", f"/team/{view.teams[0]}"):
        header = _header(client.get(path).text)
        assert '<a href="/pools">Pools</a>' in header and "/pool/" not in header, path
        assert 'action="/teams"' in header and 'name="q"' in header, path
    pools = client.get("/pools").text
    assert all(f'href="/pool/{p}"' in pools for p in view.pools) and "0/6 played" in pools


def test_the_schedule_is_a_day_or_a_pitch_at_a_time(cup: tuple[TestClient, View]) -> None:
    client, view = cup
    assert len(view.matches) > WHOLE_SCHEDULE
    days = sorted({m.start.date().isoformat() for m in view.matches})
    assert len(days) == 3
    first = client.get("/schedule").text  # unasked: the first day with a match to play
    assert first.count('<tr') == len([m for m in view.matches if m.start.date().isoformat() == days[0]]) + \
        first.count("<thead")
    assert f'data-region="schedule/day={days[0]}"' in first and 'href="/schedule?day=' in first
    assert 'href="/schedule"' not in re.sub(r'<header class="top">.*?</header>', "", first, flags=re.S)
    second = client.get(f"/schedule?day={days[1]}").text
    assert 'aria-current="page">' in second and f"schedule/day={days[1]}" in second
    pitch = client.get("/schedule", params={"court": "Pitch 3"}).text
    on_pitch = [m for m in view.matches if m.court == "Pitch 3"]
    assert 0 < len(on_pitch) < len(view.matches) and '<option selected>Pitch 3</option>' in pitch
    for m in on_pitch:
        assert f"{m.home}" in pitch
    assert client.get("/schedule?day=2031-01-01").status_code == 404
    assert client.get("/schedule?court=Nowhere").status_code == 404
    assert len(first.encode()) < 150_000


def test_the_teams_page_shows_what_the_search_found(cup: tuple[TestClient, View]) -> None:
    client, view = cup
    found = client.get("/teams", params={"q": "team 010"}).text
    shown = re.findall(r'<li><a href="/team/[^"]+">([^<]+)</a>', found)  # the others are hidden until searched
    assert shown == [t for t in view.teams if "Team 010" in t] and len(shown) == 5


def test_the_api_lists_matches_filtered_and_a_page_at_a_time(cup: tuple[TestClient, View]) -> None:
    client, view = cup
    day = view.matches[0].start.date().isoformat()
    body = client.get("/api/v1/matches", params={"day": day}).json()
    assert body["total"] == len([m for m in view.matches if m.start.date().isoformat() == day])
    assert {m["start"][:10] for m in body["matches"]} == {day} and body["next"] is None
    pages, url = [], "/api/v1/matches?limit=50"
    while url:
        page = client.get(url).json()
        pages.append(page)
        url = page["next"]
    assert [len(p["matches"]) for p in pages] == [50, 50, 50, 7] and pages[0]["total"] == 157
    assert [m["number"] for p in pages for m in p["matches"]] == [m.number for m in view.matches]
    team = view.teams[5]
    mine = client.get("/api/v1/matches", params={"team": team}).json()["matches"]
    assert mine and all(team in (m["home"], m["away"]) for m in mine)
    assert client.get("/api/v1/matches", params={"pool": "B"}).json()["total"] == 6
    assert client.get("/api/v1/matches?limit=ten").status_code == 400

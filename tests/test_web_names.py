"""Any name a tournament file allows works in every route, over the real service (uvicorn, SQLite, Mosquitto).

Regression test for issue 21: a team "SG Nord/Süd" or a court "Court 2/3" got 404 on its team, court and
overlay pages and their API routes, though the site linked to them. The names here carry "/ ? # % +",
spaces and non-Latin letters; every link a page shows to one of them is followed.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest

from server.plan import load_plan
from server.web.serve import start_web
from tests.ports import free_port
from tests.service_support import HOCKEY, running_service

TEAMS = {
    "Rot-Weiss Köln": "SG Nord/Süd",
    "Amsterdam H&BC": "100% + Mehr",
    "Three Rock Rovers": "Wer? Wir! #1",
    "Slavia Praha": "Славия Прага",
    "Club an der Alster": "東京 FC",
    "HC Bloemendaal": "a/b/c",
}
COURTS = {"Hall 1": "Court 2/3", "Hall 2": "Halle #1?"}


def odd_names(tmp: Path) -> Path:
    text = HOCKEY.read_text(encoding="utf-8")
    for old, new in {**TEAMS, **COURTS}.items():
        text = text.replace(f'"{old}"', f'"{new}"')
    path = tmp / "odd-names.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from tests.conftest import PLAIN_CONF, Broker

    tmp = tmp_path_factory.mktemp("names")
    broker = Broker(PLAIN_CONF, tmp)
    broker.start()
    db = f"sqlite:///{tmp / 'courtside.db'}"
    port = free_port()
    try:
        with running_service(db, broker.url, plan=load_plan(odd_names(tmp))) as service:
            web = start_web(service, f"127.0.0.1:{port}", db, secure_cookies=False)
            try:
                yield f"http://127.0.0.1:{port}"
            finally:
                web.stop()
    finally:
        broker.stop()


def _get(url: str) -> httpx.Response:
    return httpx.get(url, timeout=10)


@pytest.mark.parametrize("team", list(TEAMS.values()))
def test_a_teams_page_and_its_api_route(site: str, team: str) -> None:
    page = _get(f"{site}/team/{quote(team, safe='')}")
    assert page.status_code == 200, page.text
    assert f"<h1>{html.escape(team)}" in page.text or html.escape(team) in page.text
    api = _get(f"{site}/api/v1/teams/{quote(team, safe='')}")
    assert api.status_code == 200 and api.json()["team"] == team
    assert _get(f"{site}/team/{quote(team + 'x', safe='')}").status_code == 404


@pytest.mark.parametrize("court", list(COURTS.values()))
def test_a_courts_pages_and_its_api_route(site: str, court: str) -> None:
    for path in (f"/court/{quote(court, safe='')}", f"/court/{quote(court, safe='')}/overlay"):
        page = _get(site + path)
        assert page.status_code == 200, (path, page.text)
        assert html.escape(court) in page.text
    api = _get(f"{site}/api/v1/courts/{quote(court, safe='')}")
    assert api.status_code == 200 and api.json()["court"] == court


def test_a_courts_live_region_streams_under_its_name(site: str) -> None:
    court = "Court 2/3"
    with httpx.stream("GET", f"{site}/live", params={"r": f"court/{court}"}, timeout=10) as stream:
        assert stream.status_code == 200
        for line in stream.iter_lines():
            if line.startswith("data:"):
                assert f'"id": "court/{court}"' in line
                break


def test_every_link_the_pages_show_to_a_name_is_served(site: str) -> None:
    links: set[str] = set()
    for path in ("/", "/teams", "/pool/A", "/pool/B", "/bracket", "/ranking"):
        page = _get(site + path)
        assert page.status_code == 200, path
        links |= {html.unescape(h) for h in re.findall(r'href="(/(?:team|court|pool)/[^"]+)"', page.text)}
    odd = {link for link in links if "%" in link}
    assert len(odd) >= len(COURTS)  # the odd names are linked at all (encoded), or this test proves nothing
    for link in sorted(links):
        assert _get(site + link).status_code == 200, link


def test_a_name_that_is_not_there_is_404_not_an_error(site: str) -> None:
    for path in ("/team/SG%20Nord", "/team/SG%20Nord%2FS%C3%BCd%2F", "/court/Court%202", "/api/v1/teams/%25",
                 "/court/Court%202%2F3/overlay/x"):
        assert _get(site + path).status_code == 404, path

"""Every desk route and API write, taken from the app's own route table, refuses a visitor without a
login and a form without its CSRF token; a logged-in organiser with the token gets through."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime
from typing import Any

import pytest
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.testclient import TestClient

from standings.web import create_app
from standings.web.sample import sample_backend
from tests.web_support import PASSWORD, Clock, all_routes, concrete_path, csrf_of, desk_client, guarded_routes

APP_BACKEND = sample_backend(Clock(datetime(2026, 5, 16, 13, 35)))
APP = create_app(APP_BACKEND, secure_cookies=False)
APP.state.site.accounts.add("anna", PASSWORD)


GUARDED = guarded_routes(APP)


@pytest.fixture
def visitor() -> Iterator[TestClient]:
    with TestClient(APP, base_url="http://127.0.0.1") as client:
        yield client


@pytest.fixture
def organiser() -> Iterator[tuple[TestClient, str]]:
    with TestClient(APP, base_url="http://127.0.0.1") as client:
        page = client.get("/desk/login")
        csrf = re.search(r'name="csrf" value="([^"]+)"', page.text)
        assert csrf is not None
        done = client.post("/desk/login", data={"csrf": csrf.group(1), "name": "anna", "password": PASSWORD},
                           follow_redirects=False)
        assert done.status_code == 303
        desk = client.get("/desk")
        token = re.search(r'name="csrf" value="([^"]+)"', desk.text)
        assert token is not None
        yield client, token.group(1)


def test_the_route_table_has_the_desk_in_it() -> None:
    paths = {p for _, p in GUARDED}
    assert {"/desk", "/desk/match/{number:int}/result", "/api/v1/desk/matches/{number:int}/result"} <= paths
    assert all(method in ("GET", "POST") for method, _ in GUARDED)


def test_the_route_walk_finds_a_route_mounted_under_the_desk() -> None:
    async def nothing(request: Any) -> None: ...

    mounted = Mount("/desk/extra", routes=[Route("/sheet", nothing, methods=["POST"])])
    assert list(all_routes([mounted])) == [("POST", "/desk/extra/sheet")]
    with pytest.raises(AssertionError, match="do not know how to check"):
        list(all_routes([WebSocketRoute("/desk/ws", nothing)]))


@pytest.mark.parametrize(("method", "path"), GUARDED)
def test_a_visitor_without_a_login_is_refused(visitor: TestClient, method: str, path: str) -> None:
    before = APP_BACKEND.data().version
    response = visitor.request(method, concrete_path(path), data={"why": "x"}, follow_redirects=False)
    if method == "GET":
        assert response.status_code == 303
        assert response.headers["location"].startswith("/desk/login")
    else:
        assert response.status_code == 403
    assert APP_BACKEND.data().version == before


@pytest.mark.parametrize(("method", "path"), [(m, p) for m, p in GUARDED if m == "POST"])
def test_a_form_without_its_csrf_token_is_refused(organiser: tuple[TestClient, str], method: str, path: str) -> None:
    client, _ = organiser
    before = APP_BACKEND.data().version
    for bad in ({}, {"csrf": "forged"}):
        response = client.post(concrete_path(path), data={"why": "x", **bad},
                               headers={"x-csrf-token": bad.get("csrf", "")}, follow_redirects=False)
        assert response.status_code == 403, response.text
    assert APP_BACKEND.data().version == before


def test_the_login_form_itself_needs_its_token(visitor: TestClient) -> None:
    response = visitor.post("/desk/login", data={"name": "anna", "password": PASSWORD}, follow_redirects=False)
    assert response.status_code == 403


def test_the_organiser_with_the_token_gets_through(organiser: tuple[TestClient, str]) -> None:
    client, token = organiser
    row = next(m for m in APP_BACKEND.data().schedule.matches if m.number == 5)
    response = client.post("/desk/match/5/result", data={"csrf": token, "home_goals": "2", "away_goals": "0",
                                                         "outcome": "regular", "why": "scoresheet"},
                           follow_redirects=False)
    assert response.status_code == 303
    assert APP_BACKEND.data().results[5].result.home_goals == 2
    api = client.post("/api/v1/desk/matches/5/result", json={"home_goals": 3, "away_goals": 0, "why": "api"},
                      headers={"x-csrf-token": token})
    assert api.status_code == 200, api.text
    assert APP_BACKEND.data().results[5].result.home_goals == 3
    assert APP_BACKEND.data().audit[-1].who == "anna"
    assert row.stage in APP_BACKEND.data().audit[-1].what or "match 5" in APP_BACKEND.data().audit[-1].what


def test_login_backs_off_per_address_and_account(capsys: pytest.CaptureFixture[str]) -> None:
    app = create_app(APP_BACKEND, secure_cookies=False)  # its own limiter: this test makes its client wait
    app.state.site.accounts.add("mallory", PASSWORD)
    visitor = TestClient(app, base_url="http://127.0.0.1")
    csrf = csrf_of(visitor.get("/desk/login").text)
    codes = []
    for _ in range(5):
        r = visitor.post("/desk/login", data={"csrf": csrf, "name": "mallory", "password": "guess guess"},
                         follow_redirects=False)
        codes.append(r.status_code)
    assert codes == [401] * 3 + [429, 429]
    assert 55 < int(r.headers["retry-after"]) <= 61
    # The right password does not get through while this address waits for this name either ...
    waiting = visitor.post("/desk/login", data={"csrf": csrf, "name": "mallory", "password": PASSWORD},
                           follow_redirects=False)
    assert waiting.status_code == 429
    # ... but from another address (mallory's own phone) it does: a stranger cannot lock her out.
    phone = TestClient(app, base_url="http://127.0.0.1", client=("10.1.2.3", 50000))
    done = phone.post("/desk/login", data={"csrf": csrf_of(phone.get("/desk/login").text), "name": "mallory",
                                           "password": PASSWORD}, follow_redirects=False)
    assert done.status_code == 303
    refused = [line for line in capsys.readouterr().err.splitlines() if "event=desk_login_refused" in line]
    assert len(refused) == 6
    assert [line.split("reason=")[1].split()[0] for line in refused] == ["wrong"] * 3 + ["backoff"] * 3
    assert all("account=mallory" in line and "address=testclient" in line for line in refused)


def test_the_session_cookie_is_http_only_and_strict() -> None:
    app = create_app(APP_BACKEND)  # the default: secure cookies
    with TestClient(app, base_url="https://127.0.0.1") as client:
        cookie = client.get("/desk/login").headers["set-cookie"].lower()
    assert "httponly" in cookie and "secure" in cookie and "samesite=strict" in cookie


def test_a_login_starts_a_new_session(visitor: TestClient) -> None:
    visitor.get("/desk/login")
    before = visitor.cookies.get("courtside_session")
    page = visitor.get("/desk/login")
    csrf = re.search(r'name="csrf" value="([^"]+)"', page.text)
    assert csrf is not None
    visitor.post("/desk/login", data={"csrf": csrf.group(1), "name": "anna", "password": PASSWORD},
                 follow_redirects=False)
    assert visitor.cookies.get("courtside_session") not in (None, before)



def test_the_desks_live_region_is_not_streamed_to_a_visitor(visitor: TestClient) -> None:
    assert visitor.get("/live?r=deskcourts").status_code == 400


def test_a_login_without_a_session_says_why(visitor: TestClient) -> None:
    response = visitor.post("/desk/login", data={"csrf": "x", "name": "anna", "password": PASSWORD},
                            follow_redirects=False)
    assert response.status_code == 403
    assert "sent no session" in response.text and "HTTPS" in response.text


def _swedish_desk(played: int) -> tuple[str, str]:
    """The sample cup's desk and pool C page in its own language (its file says language = "sv")."""
    app = create_app(sample_backend(Clock(datetime(2026, 5, 16, 13, 35)), played=played), secure_cookies=False)
    app.state.site.accounts.add("anna", PASSWORD)
    with desk_client(app) as (client, _):
        return client.get("/desk").text, client.get("/pool/C").text


def test_the_desk_words_its_ties_and_courts_in_the_tournaments_language() -> None:
    # The desk says what the tie needs in Swedish, from the same phrases as the pool page, not the rules'
    # English text; once pool C is complete, its last two matches leaving GAIS and Djurgården level.
    desk, pool = _swedish_desk(played=18)
    need = "lottning (ange ordningen som ett beslut med metoden &#39;lots&#39;)"
    assert '<html lang="sv">' in desk
    assert f"Djurgården P14, GAIS P14 — {need}" in desk
    # The pool page says what the tie needs to parents, without the instruction to the organiser.
    assert "kräver lottning" in pool and "ange ordningen" not in pool
    assert "a drawing of lots" not in desk
    # At midday the pool has two matches to play: nothing to decide yet. The courts' last messages: what
    # the table sent, worded by the page.
    desk, _ = _swedish_desk(played=12)
    assert "Djurgården P14, GAIS P14 —" not in desk and 'action="/desk/decision"' not in desk
    assert "13:35 liveläge, match 13" in desk and "13:28 resultat, match 12" in desk and "live state" not in desk


def test_the_api_settles_an_abandoned_match_in_the_seeds_order(organiser: tuple[TestClient, str]) -> None:
    client, token = organiser
    url, headers = "/api/v1/desk/matches/13/abandoned", {"x-csrf-token": token}
    refused = client.post(url, json={"settle": "tie", "home_goals": 2, "away_goals": 1, "why": "x"}, headers=headers)
    assert refused.status_code == 409 and "a tie is level" in refused.json()["error"]
    done = client.post(url, json={"settle": "tie", "home_goals": 1, "away_goals": 1,
                                  "why": "no time left to resume or replay"}, headers=headers)
    assert done.status_code == 200, done.text
    recorded = APP_BACKEND.data().results[13]
    assert (recorded.result.home_goals, recorded.result.away_goals) == (1, 1)
    assert recorded.note == "abandoned: game determined a tie"

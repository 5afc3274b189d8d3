"""Every desk route and API write, taken from the app's own route table, refuses a visitor without a
login and a form without its CSRF token; a logged-in organiser with the token gets through."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.testclient import TestClient

from server.web import create_app
from server.web.service_backend import ServiceBackend
from tests.web_day import SampleDay, sample_day
from tests.web_support import PASSWORD, all_routes, concrete_path, csrf_of, desk_client, guarded_routes


@pytest.fixture(scope="module")
def day() -> Iterator[SampleDay]:
    with sample_day() as d:
        yield d


@pytest.fixture(scope="module")
def app(day: SampleDay) -> Any:
    made = create_app(day.backend, secure_cookies=False)
    made.state.site.accounts.add("anna", PASSWORD)
    return made


@pytest.fixture
def backend(day: SampleDay) -> ServiceBackend:
    return day.backend


@pytest.fixture
def visitor(app: Any) -> Iterator[TestClient]:
    with TestClient(app, base_url="http://127.0.0.1") as client:
        yield client


@pytest.fixture
def organiser(app: Any) -> Iterator[tuple[TestClient, str]]:
    with TestClient(app, base_url="http://127.0.0.1") as client:
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


def test_the_route_table_has_the_desk_in_it(app: Any) -> None:
    guarded = guarded_routes(app)
    paths = {p for _, p in guarded}
    assert {"/desk", "/desk/match/{number:int}/result", "/api/v1/desk/matches/{number:int}/result"} <= paths
    assert all(method in ("GET", "POST") for method, _ in guarded)


def test_the_route_walk_finds_a_route_mounted_under_the_desk() -> None:
    async def nothing(request: Any) -> None: ...

    mounted = Mount("/desk/extra", routes=[Route("/sheet", nothing, methods=["POST"])])
    assert list(all_routes([mounted])) == [("POST", "/desk/extra/sheet")]
    with pytest.raises(AssertionError, match="do not know how to check"):
        list(all_routes([WebSocketRoute("/desk/ws", nothing)]))


def test_a_visitor_without_a_login_is_refused(app: Any, visitor: TestClient, backend: ServiceBackend) -> None:
    before = backend.data().version
    for method, path in guarded_routes(app):  # the app's own route table: a new route is checked too
        response = visitor.request(method, concrete_path(path), data={"why": "x"}, follow_redirects=False)
        if method == "GET":
            assert response.status_code == 303, (method, path)
            assert response.headers["location"].startswith("/desk/login"), (method, path)
        else:
            assert response.status_code == 403, (method, path)
    assert backend.data().version == before


def test_a_form_without_its_csrf_token_is_refused(app: Any, organiser: tuple[TestClient, str],
                                                  backend: ServiceBackend) -> None:
    client, _ = organiser
    before = backend.data().version
    for path in [p for m, p in guarded_routes(app) if m == "POST"]:
        for bad in ({}, {"csrf": "forged"}):
            response = client.post(concrete_path(path), data={"why": "x", **bad},
                                   headers={"x-csrf-token": bad.get("csrf", "")}, follow_redirects=False)
            assert response.status_code == 403, (path, response.text)
    assert backend.data().version == before


def test_the_login_form_itself_needs_its_token(visitor: TestClient) -> None:
    response = visitor.post("/desk/login", data={"name": "anna", "password": PASSWORD}, follow_redirects=False)
    assert response.status_code == 403


def test_the_organiser_with_the_token_gets_through(organiser: tuple[TestClient, str],
                                                   backend: ServiceBackend) -> None:
    client, token = organiser
    row = next(m for m in backend.data().schedule.matches if m.number == 5)
    fields = {"csrf": token, "home_goals": "2", "away_goals": "0", "outcome": "regular", "why": "scoresheet"}
    asked = client.post("/desk/match/5/result", data=fields, follow_redirects=False)
    # Match 5 has its table's 2-2: the desk says what the new result replaces and asks first.
    assert asked.status_code == 409 and "it replaces match 5&#39;s result 2–2 from its table" in asked.text
    response = client.post("/desk/match/5/result", data={**fields, "confirm": "1"}, follow_redirects=False)
    assert response.status_code == 303
    assert backend.data().results[5].result.home_goals == 2
    api = client.post("/api/v1/desk/matches/5/result", json={"home_goals": 3, "away_goals": 0, "why": "api",
                                                             "confirm": True}, headers={"x-csrf-token": token})
    assert api.status_code == 200, api.text
    assert backend.data().results[5].result.home_goals == 3
    assert backend.data().audit[-1].who == "anna"
    assert row.stage in backend.data().audit[-1].what or "match 5" in backend.data().audit[-1].what


def test_login_backs_off_per_address_and_account(backend: ServiceBackend,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    app = create_app(backend, secure_cookies=False)  # its own limiter: this test makes its client wait
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


def test_the_session_cookie_is_http_only_and_strict(backend: ServiceBackend) -> None:
    app = create_app(backend)  # the default: secure cookies
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


def _swedish_desk(day: SampleDay) -> tuple[str, str]:
    """The sample cup's desk and pool C page in its own language (its file says language = "sv")."""
    app = create_app(day.backend, secure_cookies=False)
    app.state.site.accounts.add("anna", PASSWORD)
    with desk_client(app) as (client, _):
        return client.get("/desk").text, client.get("/pool/C").text


def test_the_desk_words_its_ties_and_courts_in_the_tournaments_language(day: SampleDay) -> None:
    # The desk says what the tie needs in Swedish, from the same phrases as the pool page, not the rules'
    # English text; once pool C is complete, its last two matches leaving GAIS and Djurgården level.
    with sample_day(played=18) as complete:
        desk, pool = _swedish_desk(complete)
    need = "lottning (ange ordningen som ett beslut med metoden &#39;lots&#39;)"
    assert '<html lang="sv">' in desk
    assert f"Djurgården P14, GAIS P14 — {need}" in desk
    # The pool page says what the tie needs to parents, without the instruction to the organiser.
    assert "kräver lottning" in pool and "ange ordningen" not in pool
    assert "a drawing of lots" not in desk
    # At midday the pool has two matches to play: nothing to decide yet. The courts' last messages: what
    # the table sent, worded by the page.
    desk, _ = _swedish_desk(day)
    assert "Djurgården P14, GAIS P14 —" not in desk and 'action="/desk/decision"' not in desk
    heard = {court: f"{p.last_seen:%H:%M}" for court, p in day.data().presence.items() if p.last_seen}
    live, last = day.view().by_number[13], day.view().by_number[12]
    assert f"{heard[live.court]} liveläge, match 13" in desk and f"{heard[last.court]} resultat, match 12" in desk
    assert "live state" not in desk


def test_the_api_settles_an_abandoned_match_in_the_seeds_order(organiser: tuple[TestClient, str],
                                                               backend: ServiceBackend) -> None:
    client, token = organiser
    url, headers = "/api/v1/desk/matches/13/abandoned", {"x-csrf-token": token}
    refused = client.post(url, json={"settle": "tie", "home_goals": 2, "away_goals": 1, "why": "x"}, headers=headers)
    assert refused.status_code == 409 and "a tie is level" in refused.json()["error"]
    done = client.post(url, json={"settle": "tie", "home_goals": 1, "away_goals": 1,
                                  "why": "no time left to resume or replay"}, headers=headers)
    assert done.status_code == 200, done.text
    recorded = backend.data().results[13]
    assert (recorded.result.home_goals, recorded.result.away_goals) == (1, 1)
    assert recorded.note == "abandoned: game determined a tie"

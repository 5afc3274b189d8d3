"""Every public page answers with its content in the HTML itself (a page opened late, or with no
script, shows what a live one shows), unknown names are 404, and the live stream starts with the
page's current regions."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from starlette.testclient import TestClient

from server.web import create_app
from server.web.fanout import Fanout
from server.web.service_backend import ServiceBackend
from server.web.view import View
from tests.web_day import LIVE_CLOCK_MS, RED, RULES, sample_day
from tests.web_support import LiveServer


@pytest.fixture(scope="module")
def backend() -> Iterator[ServiceBackend]:
    with sample_day() as day:
        yield day.backend


@pytest.fixture(scope="module")
def client(backend: ServiceBackend) -> Iterator[TestClient]:
    with TestClient(create_app(backend, lang="en", secure_cookies=False)) as c:
        yield c


def test_pages_carry_their_content(client: TestClient, backend: ServiceBackend) -> None:
    view = View(backend.data())
    live = next(m for m in view.matches if m.live)
    expected = {
        "/": f"{live.home}</span><b>2–1</b>",
        "/pool/C": 'class="standings"',
        "/pool/C/print": "level with ",  # two teams level with two matches to play: no decision asked yet
        "/bracket": "QF1",
        "/ranking": "winner F",
        "/teams": quote(live.home),
        f"/team/{quote(live.home)}": 'class="matches"',
        f"/court/{quote(live.court)}": "data-clock data-ms=",
        f"/court/{quote(live.court)}/overlay": 'class="bug"',
    }
    for path, text in expected.items():
        page = client.get(path)
        assert page.status_code == 200, path
        assert text in page.text, path
        assert "&lt;table" not in page.text and "&lt;p" not in page.text, path
        assert "script-src 'self'" in page.headers["content-security-policy"]
    # The clock as the table published it (14:25 left), run on by the moments since it came.
    clock = re.search(r'data-clock data-ms="(\d+)"', client.get(f"/court/{quote(live.court)}").text)
    assert clock is not None and LIVE_CLOCK_MS - 60_000 < int(clock.group(1)) <= LIVE_CLOCK_MS
    # Sent off in the team's match 7 (seed 003): the team's page says the player misses the live match,
    # the card named as the ruleset names it.
    team = client.get(f"/team/{quote(live.home)}").text
    red = RULES.penalties.kinds["red"].label
    assert f"Player #{RED} is suspended for this match ({red}, match 7)" in team


@pytest.mark.parametrize("path", ["/pool/Z", "/team/Nobody", "/court/Centre%20Court", "/court/Nowhere/overlay"])
def test_unknown_names(client: TestClient, path: str) -> None:
    assert client.get(path).status_code == 404


def test_the_stream_refuses_regions_it_does_not_know(client: TestClient) -> None:
    assert client.get("/live").status_code == 400
    assert client.get("/live?r=pool/Z").status_code == 400


def test_the_stream_starts_with_the_current_regions(backend: ServiceBackend) -> None:
    server = LiveServer(create_app(backend, lang="en", secure_cookies=False)).start()
    try:
        with httpx.stream("GET", f"{server.url}/live?r=pool/C&r=ranking", timeout=10) as response:
            assert response.headers["content-type"].startswith("text/event-stream")
            seen: list[str] = []
            for line in response.iter_lines():
                if line.startswith("data: {"):
                    seen.append(line)
                if len(seen) == 2:
                    break
    finally:
        server.stop()
    assert '"id": "pool/C"' in seen[0] and "standings" in seen[0]
    assert '"id": "ranking"' in seen[1]


def test_the_streams_answer_passes_the_apps_layers_and_its_updates_go_to_the_servers_own_send(
        backend: ServiceBackend, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past its start, an answer's body goes through the app's layers unchanged: the fan-out writes a page's
    updates to uvicorn's own ``send`` (server.web.app), and the answer still has the layers' headers."""
    given: list[Any] = []
    open_page = Fanout.open

    def opened(self: Fanout, regions: list[str], send: Any, *rest: Any) -> Any:
        given.append(send)
        return open_page(self, regions, send, *rest)

    monkeypatch.setattr(Fanout, "open", opened)
    server = LiveServer(create_app(backend, lang="en", secure_cookies=False)).start()
    try:
        with httpx.stream("GET", f"{server.url}/live?r=pool/C", timeout=10) as response:
            assert response.headers["x-frame-options"] == "DENY"
            assert any(line.startswith("data: {") for line in response.iter_lines())
    finally:
        server.stop()
    (send,) = given
    assert type(send.__self__).__name__ == "RequestResponseCycle"  # uvicorn's, not a layer's closure


def test_a_pool_region_is_rendered_again_only_when_what_it_shows_changed(backend: ServiceBackend) -> None:
    from dataclasses import replace

    site = create_app(backend).state.site
    data = backend.data()
    first = View(replace(data, version=data.version + 1))
    html = site.region(first, "pool/A")
    live_only = View(replace(data, version=data.version + 2))  # a table's new live state: the same rows
    assert site.region(live_only, "pool/A") is html
    played = first.stage_matches("A")[0]
    assert played.recorded is not None
    results = {n: r for n, r in data.results.items() if n != played.number}  # as before its result
    earlier = View(replace(data, version=data.version + 3, results=results))
    again = site.region(earlier, "pool/A")
    assert again is not html and again != html


def test_a_court_s_live_state_renders_its_card_on_the_home_page_alone(backend: ServiceBackend) -> None:
    from dataclasses import replace

    site = create_app(backend).state.site
    data = backend.data()
    first = View(replace(data, version=data.version + 1))
    courts = site.region(first, "courts")
    cards = {c: site.region(first, f"courtcard/{c}") for c in first.courts}
    assert all(card in courts for card in cards.values())  # the home page's courts are their cards
    court = next(c for c in first.courts if c in data.live)
    board = data.live[court]
    ticked = replace(data, version=data.version + 2,
                     live={**data.live, court: replace(board, clock_ms=board.clock_ms + 1000)})
    second = View(ticked)
    after = {c: site.region(second, f"courtcard/{c}") for c in second.courts}
    assert [c for c in second.courts if after[c] is not cards[c]] == [court]  # the other cards were kept
    assert after[court] in site.region(second, "courts") and after[court] != cards[court]

"""For the web tests: the app served by a real uvicorn on a free port, and Debian's Chromium."""

from __future__ import annotations

import asyncio
import contextlib
import re
import threading
import time
from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import Any

import uvicorn
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from tests.ports import free_port

PASSWORD = "a long desk password"


class LiveServer:
    """uvicorn in a thread of its own; ``stop()`` drops every open connection, ``start()`` serves again."""

    def __init__(self, app: Any, port: int | None = None) -> None:
        self.app, self.port = app, port or free_port()
        self.server: uvicorn.Server | None = None
        self.thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> LiveServer:
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning", lifespan="off",
                                timeout_graceful_shutdown=1)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=lambda: asyncio.run(self.server.serve()), daemon=True)  # type: ignore[union-attr]
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        if self.server is not None and self.thread is not None:
            self.server.should_exit = True
            self.server.force_exit = True
            self.thread.join(timeout=10)
            self.server = self.thread = None


class Clock:
    """The tournament's 'now', moved by the test (protest windows, delays)."""

    def __init__(self, at: datetime) -> None:
        self.at = at

    def __call__(self) -> datetime:
        return self.at


OPEN = {"/desk/login"}  # the one desk page a visitor must reach (its POST is checked on its own)


def all_routes(routes: Iterable[BaseRoute], prefix: str = "") -> Iterator[tuple[str, str]]:
    """(method, path) of every route an app serves, mounted routers included: a desk route added under a
    Mount, or a kind of route the tests do not know, cannot slip past the desk's checks."""
    for route in routes:
        if isinstance(route, Route):
            for method in sorted(route.methods or ()):
                if method != "HEAD":  # starlette adds it to every GET
                    yield method, prefix + route.path
        elif isinstance(route, Mount) and isinstance(route.app, StaticFiles):
            assert prefix + route.path == "/static", f"files served at {prefix + route.path}"
        elif isinstance(route, Mount):
            yield from all_routes(route.routes, prefix + route.path)
        else:
            raise AssertionError(f"a route the tests do not know how to check: {route!r}")


def guarded_routes(app: Any) -> list[tuple[str, str]]:
    """Every desk route and every write anywhere (the API's included), from the app's own route table."""
    return [(method, path) for method, path in all_routes(app.routes)
            if (path.startswith(("/desk", "/api/v1/desk")) or method != "GET") and path not in OPEN]


def concrete_path(path: str) -> str:
    """A route's path with its parameters filled in (match 1, conflict c1)."""
    return re.sub(r"\{(\w+)(:\w+)?\}", lambda m: "1" if m.group(2) == ":int" else "c1", path)


def csrf_of(html: str) -> str:
    """The CSRF token a desk page's forms carry."""
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found is not None, "the page has no form with a CSRF token"
    return found.group(1)


@contextlib.contextmanager
def desk_client(app: Any, name: str = "anna") -> Iterator[tuple[Any, str]]:
    """A TestClient logged in to ``app``'s desk as ``name`` (who must have the account, PASSWORD), and the
    session's CSRF token."""
    from starlette.testclient import TestClient

    with TestClient(app, base_url="http://127.0.0.1") as client:
        done = client.post("/desk/login", data={"csrf": csrf_of(client.get("/desk/login").text), "name": name,
                                                "password": PASSWORD}, follow_redirects=False)
        assert done.status_code == 303, done.text
        yield client, csrf_of(client.get("/desk").text)


# A POST from the page itself, as a script on it (or a forged form) would send it: the browser adds the
# session cookie; the answer's status, or 0 for a redirect.
POST = """async ([url, body, token]) => (await fetch(url, {method: "POST", redirect: "manual", body: body,
    headers: token === null ? {} : {"x-csrf-token": token}})).status"""


def desk_page(chromium: Any, server: LiveServer, path: str = "/desk", viewport: dict[str, int] | None = None) -> Any:
    """A new browser page (of ``viewport``'s size if given) where anna (PASSWORD) has logged in through the desk's
    form and landed on ``path``."""
    from playwright.sync_api import expect

    page = (chromium.new_context(viewport=viewport) if viewport else chromium.new_context()).new_page()
    page.goto(f"{server.url}/desk/login" + ("" if path == "/desk" else f"?next={path}"))
    page.fill("#name", "anna")
    page.fill("#password", PASSWORD)
    page.click("button[type=submit]")
    expect(page).to_have_url(f"{server.url}{path}")
    return page


def browser_refusals(chromium: Any, server: LiveServer) -> None:
    """In a real browser, every desk route and API write of ``server``'s app (its own route table: a new route
    is checked too) refuses a visitor, and refuses anna logged in when the form's token is missing or forged.
    Only the answers are checked here; the caller checks that nothing changed."""
    from playwright.sync_api import expect

    guarded = guarded_routes(server.app)
    assert any(path.startswith("/api/v1/desk") for _, path in guarded)
    visitor = chromium.new_context().new_page()
    visitor.goto(f"{server.url}/")
    for method, path in guarded:
        url = server.url + concrete_path(path)
        if method == "GET":
            visitor.goto(url)
            expect(visitor).to_have_url(f"{server.url}/desk/login?next={concrete_path(path)}")
        else:
            assert visitor.evaluate(POST, [url, "why=x", None]) == 403, (method, path)
    visitor.context.close()
    desk = desk_page(chromium, server)
    for method, path in guarded:
        if method != "POST":
            continue
        url = server.url + concrete_path(path)
        for body, token in (("why=x", None), ("csrf=forged&why=x", "forged")):
            assert desk.evaluate(POST, [url, body, token]) == 403, (path, body)
    desk.context.close()


def cookie_of(response: Any, name: str) -> str:
    """The value ``response`` (httpx) sets for cookie ``name`` (the desk's cookies are Secure: sent here by hand)."""
    for header in response.headers.get_list("set-cookie"):
        key, _, rest = header.partition("=")
        if key == name:
            return str(rest.split(";", 1)[0])
    raise AssertionError(f"no cookie {name} in {response.headers.get_list('set-cookie')}")

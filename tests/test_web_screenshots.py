"""Every page the app serves is photographed at phone and desktop width (docs/screens/web-*.png):
the list of pages is checked against the app's own route table, so a new page cannot be left out."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from standings.web import create_app
from standings.web.sample import sample_backend
from standings.web.screenshots import DESK, LOGIN, PAGES, WIDTHS
from tests.web_support import all_routes

SCREENS = Path(__file__).resolve().parents[1] / "docs" / "screens"
NOT_PAGES = {"/live", "/team/{team:name}/calendar.ics"}  # the pages' live stream; a team's calendar feed


def test_every_page_route_has_its_screenshots() -> None:
    backend = sample_backend(lambda: datetime(2026, 5, 16, 13, 35))
    try:
        app = create_app(backend, secure_cookies=False)
        served = {path for method, path in all_routes(app.routes)
                  if method == "GET" and not path.startswith("/api/") and path not in NOT_PAGES}
    finally:
        backend.close()
    assert served == {*PAGES.values(), LOGIN, *DESK.values()}
    names = [*PAGES, "desk-login", *DESK]
    missing = [f"web-{name}-{width}.png" for name in names for width in WIDTHS
               if not (SCREENS / f"web-{name}-{width}.png").is_file()]
    assert missing == [], "run: .venv/bin/python -m standings.web.screenshots"

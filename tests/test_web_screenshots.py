"""Every page the app serves is photographed at phone and desktop width (docs/screens/web-*.png):
the list of pages is checked against the app's own route table, so a new page cannot be left out."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from server.web import create_app
from tests.web_day import sample_day
from tests.web_support import all_routes

SCREENS = Path(__file__).resolve().parents[1] / "docs" / "screens"
# The pages' live stream; a team's calendar feed; a match's report, a PDF (read back: tests/test_web_match_page.py).
NOT_PAGES = {"/live", "/team/{team:name}/calendar.ics", "/match/{number:int}/report.pdf"}


def _tool(name: str = "make_web_day") -> object:
    spec = importlib.util.spec_from_file_location(name, SCREENS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_page_route_has_its_screenshots() -> None:
    tool: object = _tool()
    pages, desk, login, widths = (getattr(tool, n) for n in ("PAGES", "DESK", "LOGIN", "WIDTHS"))
    with sample_day(played=0) as day:
        app = create_app(day.backend, secure_cookies=False)
        served = {path for method, path in all_routes(app.routes)
                  if method == "GET" and not path.startswith("/api/") and path not in NOT_PAGES}
    cup: object = _tool("make_youth_cup")  # the pages only a cup of classes has
    cup_routes, cup_widths = (getattr(cup, n) for n in ("ROUTES", "WIDTHS"))
    match: object = _tool("make_match_page")  # a match's page, played by a real table
    match_routes, match_widths = (getattr(match, n) for n in ("ROUTES", "WIDTHS"))
    assert served == {*pages.values(), login, *desk.values(), *cup_routes.values(), *match_routes.values()}
    names = [*pages, "desk-login", *desk]
    missing = [f"web-{name}-{width}.png" for name in names for width in widths
               if not (SCREENS / f"web-{name}-{width}.png").is_file()]
    assert missing == [], "run: .venv/bin/python docs/screens/make_web_day.py"
    shots = [*match_routes, "match-live"]
    missing = [f"web-{name}-{width}.png" for name in shots for width in match_widths
               if not (SCREENS / f"web-{name}-{width}.png").is_file()]
    assert missing == [], "run: .venv/bin/python docs/screens/make_match_page.py"
    missing = [f"web-youth-cup-{name}-{width}.png" for name in cup_routes for width in cup_widths
               if not (SCREENS / f"web-youth-cup-{name}-{width}.png").is_file()]
    assert missing == [], "run: .venv/bin/python docs/screens/make_youth_cup.py"

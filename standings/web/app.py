"""The Starlette app: public pages, the live stream, the JSON API, the desk, static files."""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles

from standings.web import api, desk, pages
from standings.web.accounts import Accounts
from standings.web.port import Backend
from standings.web.site import HERE, Site


def create_app(
    backend: Backend, *, accounts_url: str = "sqlite://", lang: str | None = None, secure_cookies: bool = True
) -> Starlette:
    """``accounts_url``: the database holding the desk accounts (the service's own ``--db``).
    ``secure_cookies``: False only for plain-HTTP tests; behind TLS (a reverse proxy) keep it.
    ``lang``: the pages' language; None takes the tournament file's (``language``, English by default)."""
    site = Site(backend, Accounts.at(accounts_url), lang=lang, secure_cookies=secure_cookies)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return PlainTextResponse(f"{exc.status_code}: {exc.detail}\n", status_code=exc.status_code)

    app = Starlette(
        routes=[
            *pages.routes(site),
            *desk.routes(site),
            *api.routes(site),
            Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
        ],
        exception_handlers={HTTPException: http_error},
    )
    app.state.site = site
    return app


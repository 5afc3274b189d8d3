"""The Starlette app: public pages, the live stream, the JSON API, the desk, static files.

Two layers wrap every answer: :class:`server.web.names.EncodedSlashes` (any name in a route) and
:class:`Framing`: no page may be framed by another site (clickjacking the desk's buttons), except the
stream overlay, which OBS and vMix show as a browser source. Once a live stream's answer has started, its
writes go to the server's own ``send`` (:data:`server.web.fanout.SERVER_SEND`): every layer only looks at an
answer's start.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from server.web import api, desk, pages
from server.web.accounts import Accounts
from server.web.fanout import SERVER_SEND
from server.web.names import EncodedSlashes
from server.web.site import HERE, Site

if TYPE_CHECKING:
    from server.web.service_backend import ServiceBackend


def create_app(
    backend: ServiceBackend, *, accounts_url: str = "sqlite://", lang: str | None = None, secure_cookies: bool = True
) -> Starlette:
    """``accounts_url``: the database holding the desk accounts (the service's own ``--db``).
    ``secure_cookies``: False only for plain-HTTP tests; behind TLS (a reverse proxy) keep it.
    ``lang``: the pages' language; None takes the tournament file's (``language``, English by default)."""
    site = Site(backend, Accounts.at(accounts_url), lang=lang, secure_cookies=secure_cookies)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return PlainTextResponse(f"{exc.status_code}: {exc.detail}\n", status_code=exc.status_code)

    app = _Pages(
        routes=[
            *pages.routes(site),
            *desk.routes(site),
            *api.routes(site),
            Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
        ],
        exception_handlers={HTTPException: http_error},
        middleware=[Middleware(EncodedSlashes), Middleware(Framing)],
    )
    app.state.site = site
    return app



OVERLAY = re.compile(r"/court/[^/]+/overlay")


class _Pages(Starlette):
    """Starlette's app, keeping the server's ``send`` in the scope. Past an answer's start the layers (Starlette's
    error handling and exception handlers, :class:`Framing`) pass a body on unchanged, and a cup's instance writes
    thousands of live updates a second: through them, each write cost four coroutines instead of one."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        scope[SERVER_SEND] = send
        await super().__call__(scope, receive, send)


class Framing:
    """X-Frame-Options DENY on every answer but the overlay's, and ``frame-ancestors 'none'`` where an
    answer has no Content-Security-Policy of its own (a page's own, from ``Site.page``, says it already)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or OVERLAY.fullmatch(scope["path"]):
            await self.app(scope, receive, send)
            return

        async def framed(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers.append((b"x-frame-options", b"DENY"))
                if not any(k.lower() == b"content-security-policy" for k, _ in headers):
                    headers.append((b"content-security-policy", b"frame-ancestors 'none'"))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, framed)

"""The tournament's web pages, live stream, JSON API and the organiser's desk.

``create_app(backend, accounts_url=...)`` builds the Starlette app the service serves
on its ``--http`` address; ``backend`` is the service's view of the tournament
(:class:`server.web.service_backend.ServiceBackend`). Importing this package costs nothing: Starlette,
Jinja2 and SQLAlchemy load when an app is made (``courtside --help`` stays quick).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from starlette.applications import Starlette

    from server.web.service_backend import ServiceBackend


def create_app(
    backend: ServiceBackend, *, accounts_url: str = "sqlite://", lang: str | None = None, secure_cookies: bool = True
) -> Starlette:
    """``accounts_url``: the database holding the desk accounts (the service's own ``--db``).
    ``secure_cookies``: False only for plain-HTTP tests; behind TLS (a reverse proxy) keep it."""
    from server.web.app import create_app as make

    return make(backend, accounts_url=accounts_url, lang=lang, secure_cookies=secure_cookies)


__all__ = ["create_app"]

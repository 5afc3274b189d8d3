"""The organiser's desk: log in, see the courts, correct, decide, settle, move; every write logged.

Every route here but the login page needs a logged-in session, and every POST the
session's CSRF token (``guarded``). A change goes to the backend's loop as a command
(``Backend.submit``); the web thread never changes the tournament itself.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import quote

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from rules.errors import CourtsideError
from standings.web import forms
from standings.web.inputs import DeskCommand
from standings.web.sessions import Session, csrf_ok
from standings.web.site import Site

Handler = Callable[[Request, Session, dict[str, Any]], Awaitable[Response]]


def form_fields(form: FormData) -> dict[str, Any]:
    fields: dict[str, Any] = {k: form.get(k) for k in form}
    fields["order"] = form.getlist("order")
    return fields


def guarded(site: Site, handler: Handler) -> Callable[[Request], Awaitable[Response]]:
    """Refuse a visitor without a login (a page sends them to it) and a POST without the CSRF token."""

    async def endpoint(request: Request) -> Response:
        session = site.session(request)
        if session is None or session.account is None:
            if request.method == "GET":
                return RedirectResponse(f"/desk/login?next={quote(request.url.path)}", status_code=303)
            raise HTTPException(403, "log in at /desk/login first")
        fields: dict[str, Any] = {}
        if request.method == "POST":
            fields = form_fields(await request.form())
            if not csrf_ok(session, fields.get("csrf")):
                raise HTTPException(403, "the form's CSRF token is missing or stale; reload the page")
        return await handler(request, session, fields)

    endpoint.guarded = True  # type: ignore[attr-defined]
    return endpoint


def routes(site: Site) -> list[Route]:
    async def login_page(request: Request) -> Response:
        session = site.session(request) or site.sessions.start(None)
        response = site.page(request, "desk/login.html", csrf=session.csrf, next=_next(request), error=None)
        site.set_cookie(response, session)
        return response

    async def login(request: Request) -> Response:
        session = site.session(request)
        form = await request.form()
        if session is None:
            # The browser sent no session: the cookie was dropped (a Secure cookie over plain HTTP from
            # another machine) or has expired. Say so, with a fresh form, rather than a bare 403.
            fresh = site.sessions.start(None)
            page = site.page(request, "desk/login.html", status=403, csrf=fresh.csrf, next=_next(request),
                             error="This browser sent no session. Reload this page and log in again; if it "
                                   "happens again, open the desk over HTTPS (or on the server itself, "
                                   "localhost): the session cookie is only kept on a secure connection.")
            site.set_cookie(page, fresh)
            return page
        if not csrf_ok(session, str(form.get("csrf") or "")):
            raise HTTPException(403, "the login form's CSRF token is missing or stale; reload the page")
        name, password = str(form.get("name") or ""), str(form.get("password") or "")
        client = request.client.host if request.client else "?"
        keys = (f"ip:{client}", f"name:{name}")
        wait = site.limit.wait(*keys)
        if wait > 0:
            response = site.page(
                request, "desk/login.html", status=429, csrf=session.csrf, next=_next(request),
                error=f"Too many failed logins; try again in {int(wait) + 1} s.",
            )
            response.headers["Retry-After"] = str(int(wait) + 1)
            return response
        ok = await run_in_threadpool(site.accounts.check, name, password)
        if not ok:
            site.limit.failed(*keys)
            return site.page(
                request, "desk/login.html", status=401, csrf=session.csrf, next=_next(request),
                error="Wrong name or password.",
            )
        site.limit.succeeded(*keys)
        site.sessions.end(session.token)
        fresh = site.sessions.start(name)
        done = RedirectResponse(_next(request, form.get("next")), status_code=303)
        site.set_cookie(done, fresh)
        return done

    async def logout(request: Request, session: Session, fields: dict[str, Any]) -> Response:
        site.sessions.end(session.token)
        return RedirectResponse("/", status_code=303)

    async def overview(request: Request, session: Session, fields: dict[str, Any]) -> Response:
        return site.page(request, "desk/overview.html", csrf=session.csrf, error=None, regions=["deskcourts"])

    async def match(request: Request, session: Session, fields: dict[str, Any]) -> Response:
        n = _number(request)
        row = site.view().by_number.get(n)
        if row is None:
            raise HTTPException(404, f"there is no match {n}")
        return site.page(request, "desk/match.html", csrf=session.csrf, row=row, error=None,
                         order=forms.ABANDONED_ORDER, done=request.query_params.get("done"))

    def writer(build: Callable[[Request, Session, dict[str, Any]], DeskCommand], back: str) -> Handler:
        async def handler(request: Request, session: Session, fields: dict[str, Any]) -> Response:
            try:
                command = build(request, session, fields)
                await run_in_threadpool(site.backend.submit, command)
            except CourtsideError as err:
                return _refused(site, request, session, str(err))
            target = back.format(**request.path_params)
            return RedirectResponse(f"{target}?done={quote(command.why[:80])}", status_code=303)

        return handler

    def result(request: Request, s: Session, f: dict[str, Any]) -> DeskCommand:
        return forms.result_command(site.view(), _who(s), _number(request), f)

    def walkover(request: Request, s: Session, f: dict[str, Any]) -> DeskCommand:
        return forms.walkover_command(site.view(), _who(s), _number(request), f)

    def abandoned(request: Request, s: Session, f: dict[str, Any]) -> DeskCommand:
        return forms.abandoned_command(site.view(), _who(s), _number(request), f)

    def move(request: Request, s: Session, f: dict[str, Any]) -> DeskCommand:
        return forms.move_command(site.view(), _who(s), _number(request), f)

    def decision(request: Request, s: Session, f: dict[str, Any]) -> DeskCommand:
        return forms.decision_command(site.view(), _who(s), f)

    def conflict(request: Request, s: Session, f: dict[str, Any]) -> DeskCommand:
        return forms.conflict_command(site.view(), _who(s), request.path_params["conflict"], f)

    def sanction(request: Request, s: Session, f: dict[str, Any]) -> DeskCommand:
        return forms.sanction_command(_who(s), f)

    def g(h: Handler) -> Callable[[Request], Awaitable[Response]]:
        return guarded(site, h)

    m = "/desk/match/{number:int}"
    back = "/desk/match/{number}"
    return [
        Route("/desk/login", login_page, methods=["GET"], name="desk_login_page"),
        Route("/desk/login", login, methods=["POST"], name="desk_login"),
        Route("/desk/logout", g(logout), methods=["POST"], name="desk_logout"),
        Route("/desk", g(overview), methods=["GET"], name="desk"),
        Route(m, g(match), methods=["GET"], name="desk_match"),
        Route(m + "/result", g(writer(result, back)), methods=["POST"], name="desk_result"),
        Route(m + "/walkover", g(writer(walkover, back)), methods=["POST"], name="desk_walkover"),
        Route(m + "/abandoned", g(writer(abandoned, back)), methods=["POST"], name="desk_abandoned"),
        Route(m + "/move", g(writer(move, back)), methods=["POST"], name="desk_move"),
        Route("/desk/decision", g(writer(decision, "/desk")), methods=["POST"], name="desk_decision"),
        Route("/desk/conflict/{conflict}", g(writer(conflict, "/desk")), methods=["POST"], name="desk_conflict"),
        Route("/desk/sanction", g(writer(sanction, "/desk")), methods=["POST"], name="desk_sanction"),
    ]


def _refused(site: Site, request: Request, session: Session, message: str) -> Response:
    if "number" in request.path_params:
        row = site.view().by_number.get(_number(request))
        if row is not None:
            return site.page(request, "desk/match.html", status=409, csrf=session.csrf, row=row, error=message,
                             order=forms.ABANDONED_ORDER, done=None)
    return site.page(request, "desk/overview.html", status=409, csrf=session.csrf, error=message,
                     regions=["deskcourts"])


def _number(request: Request) -> int:
    return int(request.path_params["number"])


def _who(session: Session) -> str:
    return session.account or "?"


def _next(request: Request, sent: object = None) -> str:
    target = str(sent or request.query_params.get("next") or "/desk")
    # Only a path on this site: an open redirect would make the login page a phishing tool.
    return target if target.startswith("/") and not target.startswith("//") else "/desk"

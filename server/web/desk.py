"""The organiser's desk: log in, see the courts, correct, decide, settle, move; every write logged.

Every route here but the login page needs a logged-in session, and every POST the
session's CSRF token (``guarded``). A change goes to the backend's loop as a command
(``ServiceBackend.submit``); the web thread never changes the tournament itself.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any
from urllib.parse import parse_qsl, quote

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from rules import CourtsideError
from server.desk import ABANDONED_ORDER
from server.desk_commands import ChangeSheet, DeskCommand, NeedsConfirmation, NotYourRole
from server.logs import log
from server.web import forms
from server.web.sessions import FORM_COOKIE, FORM_LIFETIME, Busy, Session, csrf_ok
from server.web.site import Site

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
        # No session yet: the form's CSRF pair lives in a cookie and the page, not in the server.
        return _login_form(site, request)

    async def login(request: Request) -> Response:
        form = await _small_form(request)
        if form is None:
            raise HTTPException(413, "a login form is a few hundred bytes")
        sent_cookie = request.cookies.get(FORM_COOKIE)
        if not sent_cookie:
            # The browser sent no cookie: dropped (a Secure cookie over plain HTTP from another machine)
            # or expired. Say so, with a fresh form, rather than a bare 403.
            return _login_form(site, request, status=403, error=(
                "This browser sent no session. Reload this page and log in again; if it happens again, open "
                "the desk over HTTPS (or on the server itself, localhost): the session cookie is only kept on "
                "a secure connection."))
        if not site.limit.forms.check(sent_cookie, form.get("csrf")):
            raise HTTPException(403, "the login form's CSRF token is missing or stale; reload the page")
        name, password = form.get("name", ""), form.get("password", "")
        address = request.client.host if request.client else "?"
        key = f"{address}\x00{name}"
        backoff = site.limit.backoff
        wait = backoff.attempt(key)  # counted now, before the check: logins sent together cannot all pass
        if wait > 0:
            _refused_login(name, address, "backoff", backoff.failures(key), wait)
            response = _login_form(site, request, status=429, error=_wait_text(wait))
            response.headers["Retry-After"] = str(int(wait) + 1)
            return response
        try:
            async with site.limit.gate:
                ok = await run_in_threadpool(site.accounts.check, name, password)
        except Busy:
            backoff.refund(key)  # never checked
            _refused_login(name, address, "busy", backoff.failures(key), 2)
            response = _login_form(site, request, status=503, error="The server is busy; try again in a moment.")
            response.headers["Retry-After"] = "2"
            return response
        if not ok:
            _refused_login(name, address, "wrong", backoff.failures(key), backoff.wait(key))
            return _login_form(site, request, status=401, error="Wrong name or password.")
        backoff.succeeded(key)
        log("desk_login", account=name, address=address)
        fresh = site.sessions.start(name)
        done = RedirectResponse(_next(request, form.get("next")), status_code=303)
        site.set_cookie(done, fresh)
        done.delete_cookie(FORM_COOKIE, path="/desk/login")
        return done

    async def logout(request: Request, session: Session, fields: dict[str, Any]) -> Response:
        site.sessions.end(session.token)
        return RedirectResponse("/", status_code=303)

    async def overview(request: Request, session: Session, fields: dict[str, Any]) -> Response:
        v, q = site.view(), request.query_params
        klass = q.get("class", "")
        if klass and v.class_named(klass) is None:
            raise HTTPException(404, f"there is no class {klass!r}")
        # A big cup's desk, like its schedule, lists a part of the matches at a time: a class's, a day's, a court's.
        part = v.asked_part(q.get("day", ""), q.get("court", ""), klass)
        if not v.known_schedule_part(part):
            raise HTTPException(404, f"the schedule has no {part.replace('=', ' ').replace(';', ', ')}")
        return site.page(request, "desk/overview.html", csrf=session.csrf, error=None, regions=["deskcourts"],
                         klass=klass, part=part)

    async def match(request: Request, session: Session, fields: dict[str, Any]) -> Response:
        n = _number(request)
        row = site.view().by_number.get(n)
        if row is None:
            raise HTTPException(404, f"there is no match {n}")
        return site.page(request, "desk/match.html", csrf=session.csrf, row=row, error=None,
                         order=ABANDONED_ORDER, done=request.query_params.get("done"),
                         log=site.backend.match_log(n, row.teams()))

    def writer(build: Callable[[Request, Session, dict[str, Any]], DeskCommand], back: str) -> Handler:
        async def handler(request: Request, session: Session, fields: dict[str, Any]) -> Response:
            try:
                command = replace(build(request, session, fields), role=session.role)
                await run_in_threadpool(site.backend.submit, command)
            except NeedsConfirmation as err:
                return _refused(site, request, session, "", confirm=err.lines, posted=fields)
            except NotYourRole as err:
                return _refused(site, request, session, str(err), status=403)
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
        return forms.decision_command(_who(s), f)

    def conflict(request: Request, s: Session, f: dict[str, Any]) -> DeskCommand:
        return forms.conflict_command(_who(s), request.path_params["conflict"], f)

    def sanction(request: Request, s: Session, f: dict[str, Any]) -> DeskCommand:
        return forms.sanction_command(_who(s), f)

    def sheet_page(request: Request, session: Session, team: str, *, text: str | None = None,
                   error: str | None = None, status: int = 200) -> Response:
        """A team's sheet as CSV to change (its current one unless the refused text is shown again)."""
        if team and team not in site.view().teams:
            raise HTTPException(404, f"there is no team {team}")
        current = site.view().data.sheets.get(team)
        shown = text if text is not None else current.csv_text() if current is not None else "number,name,role\n"
        return site.page(request, "desk/sheet.html", status=status, csrf=session.csrf, team=team, text=shown,
                         error=error, done=request.query_params.get("done"))

    async def sheet(request: Request, session: Session, fields: dict[str, Any]) -> Response:
        return sheet_page(request, session, request.query_params.get("team", ""))

    async def sheet_write(request: Request, session: Session, fields: dict[str, Any]) -> Response:
        team, text = str(fields.get("team", "")), str(fields.get("text", ""))
        try:
            command = ChangeSheet(who=_who(session), why=forms.why(fields), role=session.role,
                                  team=forms.text(fields, "team"), text=text)
            await run_in_threadpool(site.backend.submit, command)
        except NotYourRole as err:
            return sheet_page(request, session, team, text=text, error=str(err), status=403)
        except CourtsideError as err:  # the line and the reason; the text stays to be mended
            return sheet_page(request, session, team, text=text, error=str(err), status=409)
        return RedirectResponse(f"/desk/sheet?team={quote(team)}&done={quote(command.why[:80])}", status_code=303)

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
        Route("/desk/sheet", g(sheet), methods=["GET"], name="desk_sheet"),
        Route("/desk/sheet", g(sheet_write), methods=["POST"], name="desk_sheet_write"),
    ]


def _refused(site: Site, request: Request, session: Session, message: str, *, confirm: list[str] | None = None,
             posted: dict[str, Any] | None = None, status: int = 409) -> Response:
    """The page again with why nothing was stored; with ``confirm``, what the change would do downstream and
    a form that sends ``posted`` again, confirmed."""
    if "number" in request.path_params:
        row = site.view().by_number.get(_number(request))
        if row is not None:
            again = {k: v for k, v in (posted or {}).items() if k not in ("csrf", "confirm")}
            return site.page(request, "desk/match.html", status=status, csrf=session.csrf, row=row, error=message,
                             order=ABANDONED_ORDER, done=None, confirm=confirm, posted=again,
                             action=request.url.path, log=site.backend.match_log(row.number, row.teams()))
    return site.page(request, "desk/overview.html", status=status, csrf=session.csrf, error=message,
                     regions=["deskcourts"], klass="", part=site.view().schedule_default)


PLAIN_HTTP = ("This desk runs over plain HTTP (the server's --trusted-lan option): anyone on this network can "
              "read the password and the session. Use it only on a network the organisers alone can join.")
MAX_LOGIN_FORM = 8192  # bytes; the form is read whole before anything else, so it is capped


async def _small_form(request: Request) -> dict[str, str] | None:
    """The login form's fields, or None when the body is larger than a login form can be."""
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_LOGIN_FORM:
            return None
    return {k: v for k, v in parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True)}


def _login_form(site: Site, request: Request, status: int = 200, error: str | None = None) -> Response:
    forms = site.limit.forms
    cookie: str | None = request.cookies.get(FORM_COOKIE)
    token = forms.token(cookie)
    if token is None:
        cookie, token = forms.issue()
    else:
        cookie = None  # the browser's cookie stays
    page = site.page(request, "desk/login.html", status=status, csrf=token, next=_next(request), error=error,
                     notice=None if site.secure_cookies else PLAIN_HTTP)
    if cookie is not None:
        page.set_cookie(FORM_COOKIE, cookie, max_age=int(FORM_LIFETIME), httponly=True, secure=site.secure_cookies,
                        samesite="strict", path="/desk/login")
    return page


def _refused_login(name: str, address: str, reason: str, failures: int, wait: float) -> None:
    """The audit trail of refused logins: journald, beside the service's other lines."""
    log("desk_login_refused", account=name[:64], address=address, reason=reason, failures=failures,
        wait_s=int(wait + 0.999))


def _wait_text(wait: float) -> str:
    return f"Too many failed logins from here for this account; try again in {int(wait) + 1} s."


def _number(request: Request) -> int:
    return int(request.path_params["number"])


def _who(session: Session) -> str:
    return session.account or "?"


def _next(request: Request, sent: object = None) -> str:
    target = str(sent or request.query_params.get("next") or "/desk")
    # Only a path on this site: an open redirect would make the login page a phishing tool.
    return target if target.startswith("/") and not target.startswith("//") else "/desk"

"""What every handler shares: the backend, the view of the current snapshot, templates, sessions."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Collection
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup, escape
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse

from rules import format_clock, period_name
from server.store import as_utc
from server.web.accounts import Accounts
from server.web.desk_lists import decision_methods, desk_lists
from server.web.livestate import CourtLive, court_live
from server.web.sessions import COOKIE, LoginGuard, Session, Sessions, shared_key
from server.web.view import View
from server.web.words import day_text, decided_by, needs_in, reason_in, round_text, team_text, translations

if TYPE_CHECKING:
    from server.web.service_backend import ServiceBackend

HERE = Path(__file__).parent


# A region nested in another (the home page's classes and court cards) is a marker in the other's own part: the
# private-use characters are never in a tournament's names or the templates.
NEST_OPEN, NEST_CLOSE = "\ue000", "\ue001"
NESTED = re.compile(f"{NEST_OPEN}([^{NEST_CLOSE}]*){NEST_CLOSE}")

HEADER_POOLS = 8
"""Pools the header links one by one; with more (a youth cup has hundreds), one link to their list (/pools)."""

# The regions whose own part (Site._made_of) is made of the rows, results, progress and sheets and the matches'
# locks alone, and those that also show a court's live state and presence (Site.may_differ).
_OF_RESULTS_AND_TIME = frozenset({"pool", "courtmatches", "classes", "courts"})
_OF_COURT_STATE = frozenset({"court", "courtcard"})


def _every_region(_name: str) -> bool:
    return True


def _differ(a: object, b: object) -> bool:
    """``a != b``, without comparing a court's state field by field when it is the one kept (most of them)."""
    return a is not b and a != b


class Site:
    def __init__(self, backend: ServiceBackend, accounts: Accounts, *, lang: str | None, secure_cookies: bool) -> None:
        self.backend = backend
        self.accounts = accounts
        self.sessions = Sessions(accounts.engine)  # in the database: every instance knows every session
        self.limit = LoginGuard(shared_key(accounts.engine, "login_form"))
        self.secure_cookies = secure_cookies
        self.lang = lang or backend.data().cup.language  # the tournament file's unless told
        self._view: View | None = None
        self.env = Environment(
            loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(["html"]), auto_reload=False,
            extensions=["jinja2.ext.i18n"],
        )
        words = translations(self.lang)
        self.env.install_gettext_translations(words, newstyle=True)  # type: ignore[attr-defined]
        self.env.filters["q"] = lambda s: quote(str(s), safe="")
        self.env.filters["hm"] = lambda d: d.strftime("%H:%M") if isinstance(d, datetime) else ""
        self.env.filters["day"] = lambda d: day_text(words, d) if isinstance(d, datetime) else ""
        self.env.filters["word"] = lambda s: words.gettext(s) if s else ""  # a ruleset's or table's word, if known
        self.env.filters["slot"] = lambda name: team_text(words, str(name))
        self.env.filters["epoch_ms"] = lambda d: int(d.timestamp() * 1000) if isinstance(d, datetime) else 0
        self.env.globals["round_name"] = lambda r: round_text(words, r)
        self.env.globals["header_pools"] = HEADER_POOLS
        self.gettext = words.gettext
        self.env.globals["clock_of"] = lambda view, court: live_of(view, court, words.gettext)
        # A place's reason and a tie's need in the page's language, from the standings' phrases.
        self.env.globals["reason_of"] = lambda table, row, complete: reason_in(words, table, row, complete=complete)
        self.env.globals["needs_of"] = lambda tie: needs_in(words, tie)
        self.env.globals["decided_by"] = lambda tie: decided_by(words, tie)
        self.env.globals["timeline_of"] = backend.timeline
        self.env.globals["desk_lists"] = desk_lists
        self.env.globals["decision_methods"] = decision_methods
        self.env.globals["penalty_label"] = lambda view, stage, kind: view.data.ruleset_of(stage).penalty(kind).label
        self.env.filters["venue_hms"] = lambda d: as_utc(d).astimezone().strftime("%H:%M:%S") \
            if isinstance(d, datetime) else ""
        self.env.filters["mmss"] = lambda ms: format_clock(int(ms), tenths=False, down=False)
        self.env.globals["period_of"] = lambda view, line, stage: period_name(
            line, view.data.ruleset_of(stage), words.gettext)
        self._regions: dict[tuple[int, str], str] = {}
        self._own: dict[tuple[int, str], str] = {}  # each region's own part (Site.own), per version
        self._kept: dict[str, tuple[tuple[object, ...], str]] = {}  # a pool's or court's region and what it shows

    def snapshot(self) -> None:
        """The newest snapshot built, on any thread (its database reads, off the web loop); view() then takes it."""
        self.backend.data()

    def view(self) -> View:
        data = self.backend.data()
        if self._view is None or self._view.data.version != data.version:
            self._view = View(data)
            self._regions.clear()
            self._own.clear()
        return self._view

    # Rendering ---------------------------------------------------------------------------
    def region(self, view: View, name: str) -> str:
        """One live part of a page (shared by the page and the SSE stream), rendered once per version, and a pool's
        or a court's only when what it shows changed. The regions nested in it are in it, each in its own
        ``data-region`` element."""
        key = (view.data.version, name)
        html = self._regions.get(key)
        if html is None:
            shell = self.own(view, name)
            html = NESTED.sub(lambda m: self._nest(view, m[1]), shell) if NEST_OPEN in shell else shell
            self._regions[key] = html
        return html

    def own(self, view: View, name: str) -> str:
        """A region's own part: its HTML with each region nested in it a marker (:data:`NESTED`). A page's stream
        writes a region again when its own part changed, and a nested one on its own: the home page of a cup of
        110 courts was 70 kB, written whole to every home page for any court's live state."""
        key = (view.data.version, name)
        html = self._own.get(key)
        if html is None:
            kind, _, arg = name.partition("/")
            made_of = self._made_of(view, kind, arg)
            kept = self._kept.get(name) if made_of is not None else None
            if kept is not None and kept[0] == made_of:
                html = kept[1]
            else:
                template = self.env.get_template(f"regions/{kind}.html")
                html = template.render(v=view, arg=arg, data=view.data, clock=live_of(
                    view, arg, self.gettext) if kind in ("court", "overlay") else None,
                    region=lambda part: Markup(f"{NEST_OPEN}{part}{NEST_CLOSE}"))
                if made_of is not None:
                    self._kept[name] = (made_of, html)
            self._own[key] = html
        return html

    def nested(self, view: View, name: str) -> list[str]:
        """The regions nested in ``name`` now (the home page's: its classes and each court's card)."""
        return NESTED.findall(self.own(view, name))

    def _nest(self, view: View, name: str) -> str:
        return f'<div data-region="{escape(name)}">{self.region(view, name)}</div>'

    def _made_of(self, view: View, kind: str, arg: str) -> tuple[object, ...] | None:
        """What a pool's or a court's region shows, compared with what it showed last (rows by identity: the view
        keeps a row while its match is unchanged). A court's table sends its live state every second, and a cup's
        hundreds of open pool and court pages were rendered again for each, though none of them changed."""
        now = view.data.now
        if kind == "pool":
            carried = view.carried(arg)
            state = view.progress.pools.get(arg) if view.progress is not None else None
            return (tuple(view.stage_matches(arg)), tuple(carried), state, view.locked_in("stage", arg),
                    tuple(m.locked(now) for m in carried))
        sheets = view.data.sheets  # the desk may change a team's sheet: the regions naming its players follow
        if kind == "match" and arg.isdigit() and int(arg) in view.by_number:
            row = view.by_number[int(arg)]
            live = (view.data.live.get(row.court), view.data.live_at.get(row.court)) if row.live else ()
            return (row, self.backend.timeline(row.number), *live, row.locked(now), sheets.get(row.home),
                    sheets.get(row.away))
        if kind == "classes":  # each class's matches played and its champion: they move with the results alone
            return (view.data.results, view.progress)
        if kind == "courts":  # the heading and its nested regions, or once every match is played the ranking
            return (view.finished, *((view.data.results, view.progress) if view.finished else ()))
        if kind == "courtcard":  # the home page's card of a court: its match now and next, its board, its link
            playing, following = view.now_and_next(arg)
            presence = view.data.presence.get(arg)
            return (playing, following, view.data.live.get(arg), view.data.live_at.get(arg),
                    presence.online if presence is not None else None)
        if kind == "courtmatches":
            return (tuple(view.on_court(arg)), view.locked_in("court", arg))
        if kind == "court":  # the board names the players of the match being played
            playing, _ = view.now_and_next(arg)
            named = (sheets.get(playing.home), sheets.get(playing.away)) if playing is not None else ()
            return (tuple(view.on_court(arg)), view.data.live.get(arg), view.data.live_at.get(arg),
                    view.locked_in("court", arg), *named)
        return None

    def may_differ(self, before: View, after: View) -> Callable[[str], bool]:
        """Whether a region's own part may differ in ``after`` from ``before``, by what :meth:`_made_of` compares.
        After live states alone (:meth:`View.live_alone_since`), a pool, a court's list of matches, the classes
        and the courts' heading are as they were, and a court's board and card only if its state or presence
        changed: the fan-out then looks at a few regions of the hundreds its pages show."""
        if not after.live_alone_since(before):
            return _every_region
        was, now = before.data, after.data
        courts = {court for court in now.live.keys() | was.live.keys() | now.presence.keys() | was.presence.keys()
                  if _differ(now.live.get(court), was.live.get(court))
                  or _differ(now.live_at.get(court), was.live_at.get(court))
                  or _differ(now.presence.get(court), was.presence.get(court))}

        def may(name: str) -> bool:
            kind, _, arg = name.partition("/")
            if kind in _OF_COURT_STATE:
                return arg in courts
            return kind not in _OF_RESULTS_AND_TIME
        return may

    def page(self, request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
        view = context.pop("view", None) or self.view()
        session = self.session(request)
        html = self.env.get_template(template).render(
            v=view,
            data=view.data,
            region=lambda name: Markup(self.region(view, name)),  # rendered by our own autoescaping template
            session=session,
            server_now=int(time.time() * 1000),
            lang=self.lang,
            **context,
        )
        response = HTMLResponse(html, status_code=status)
        response.headers["Content-Security-Policy"] = (
            "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors "
            + ("*" if template == "overlay.html" else "'none'")  # only the overlay is framed (OBS, vMix)
        )
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "same-origin"
        return response

    # Sessions ----------------------------------------------------------------------------
    def session(self, request: Request) -> Session | None:
        return self.sessions.get(request.cookies.get(COOKIE))

    def set_cookie(self, response: Any, session: Session) -> None:
        response.set_cookie(
            COOKIE,
            session.token,
            max_age=int(self.sessions.lifetime),
            httponly=True,
            secure=self.secure_cookies,
            samesite="strict",
            path="/",
        )


def live_of(view: View, court: str, gettext: Callable[[str], str]) -> CourtLive | None:
    """The court's live board as its region draws it, carried to the snapshot's instant."""
    board = view.data.live.get(court)
    if board is None:
        return None
    now = view.data.now
    at = view.data.live_at.get(court, now)
    if at.tzinfo is not None and now.tzinfo is None:
        at = at.astimezone().replace(tzinfo=None)  # the snapshot's instants are the venue's local time
    # As the table last said it: the page's script runs the clock on from there, and the region stays the same
    # HTML until the court's next state (rendered once per state, not once per snapshot of any court's).
    return court_live(board, at, at, gettext)


def named(request: Request, kind: str, known: Collection[str]) -> str:
    """The pool, court or team the address names (its path parameter ``kind``), or a 404 saying it does not
    exist: the pages and the API answer the same."""
    name: str = request.path_params[kind]
    if name not in known:
        raise HTTPException(404, f"there is no {kind} {name}")
    return name

"""The public pages and their live stream (server-sent events)."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from urllib.parse import quote

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from server.report_pdf import ReportMatch
from server.web.calendar import team_calendar
from server.web.fanout import SERVER_SEND, Fanout, body
from server.web.limits import StreamSlots
from server.web.scorers import discipline, fair_play, scorers
from server.web.site import Site, named

MAX_REGIONS = 8
TEAMS_LISTED = 300  # teams the teams page lists with no search (filtered as you type)


def routes(site: Site) -> list[Route]:
    async def tournament(request: Request) -> Response:
        return site.page(request, "tournament.html", regions=["courts"])

    async def pool(request: Request) -> Response:
        name = named(request, "pool", site.view().pools)
        printable = request.url.path.endswith("/print")
        return site.page(request, "pool_print.html" if printable else "pool.html", pool=name, regions=[f"pool/{name}"])

    async def pools(request: Request) -> Response:
        return site.page(request, "pools.html", regions=[])

    def class_asked(request: Request) -> str:
        """The class a bracket or ranking address asks for (``?class=P13``); a cup's first class unasked."""
        v = site.view()
        names = [c.name for c in v.classes]
        asked = request.query_params.get("class", names[0] if names else "")
        if asked not in (names or [""]):
            raise HTTPException(404, f"there is no class {asked}")
        return asked

    async def bracket(request: Request) -> Response:
        name = class_asked(request)
        return site.page(request, "bracket.html", regions=[f"bracket/{name}" if name else "bracket"], klass=name)

    async def ranking(request: Request) -> Response:
        name = class_asked(request)
        return site.page(request, "ranking.html", regions=[f"ranking/{name}" if name else "ranking"], klass=name)

    async def court(request: Request) -> Response:
        name = named(request, "court", site.view().courts)
        overlay = request.url.path.endswith("/overlay")
        kind = "overlay" if overlay else "court"
        regions = [f"overlay/{name}"] if overlay else [f"court/{name}", f"courtmatches/{name}"]
        return site.page(request, f"{kind}.html", court=name, regions=regions)

    async def match(request: Request) -> Response:
        number = request.path_params["number"]
        if number not in site.view().by_number:
            raise HTTPException(404, f"there is no match {number}")
        return site.page(request, "match.html", number=number, regions=[f"match/{number}"])

    async def report(request: Request) -> Response:
        """The match's report as a PDF (server.report_pdf): what a federation files, from the stored events."""
        v = site.view()
        m = v.by_number.get(request.path_params["number"])
        if m is None or not m.published:  # an unpublished class's report would tell its score
            raise HTTPException(404, f"there is no report of match {request.path_params['number']}")
        made = await run_in_threadpool(site.backend.report, m.number, ReportMatch(
            home=m.home, away=m.away, number=str(m.number), tournament=v.data.name, class_name=m.class_name,
            stage=m.stage, round=m.round, kind="round_robin" if m.is_pool else "knockout", court=m.court,
            start=m.start.strftime("%Y-%m-%d %H:%M"),
            sheets=(v.data.sheets.get(m.home), v.data.sheets.get(m.away)) if v.data.player_names(m.stage) else (
                None, None)))
        if made is None:
            raise HTTPException(404, f"match {m.number} has no events yet")
        return Response(made, media_type="application/pdf", headers={
            "Content-Disposition": f'inline; filename="match-{m.number}-report.pdf"'})

    async def scorers_page(request: Request) -> Response:
        v = site.view()
        name = class_asked(request)
        found = v.class_named(name)
        shown = found is None or found.published
        timeline = site.backend.timeline
        return site.page(request, "scorers.html", regions=[], klass=name, published=shown,
                         scorers=scorers(v, name, timeline) if shown else [],
                         given=discipline(v, name, timeline) if shown else [],
                         fair_play=fair_play(v, name) if shown else [])

    async def team(request: Request) -> Response:
        name = named(request, "team", site.view().teams)
        feed = f"/team/{quote(name, safe='')}/calendar.ics"
        return site.page(request, "team.html", team=name, regions=[f"team/{name}"], calendar=feed,
                         subscribe=f"webcal://{request.url.netloc}{feed}")

    async def teams(request: Request) -> Response:
        query = request.query_params.get("q", "")[:100]
        teams = site.view().teams
        found = [t for t in teams if _folded(query) in _folded(t)]
        # A cup's 2,000 teams are not one page: past TEAMS_LISTED, only those the search found.
        listed = teams if len(teams) <= TEAMS_LISTED else found if query else []
        return site.page(request, "teams.html", regions=[], query=query, found=found, listed=listed)

    async def schedule(request: Request) -> Response:
        v = site.view()
        q = request.query_params
        klass = q.get("class", "")
        part = v.asked_part(q.get("day", ""), q.get("court", ""), klass)
        if not v.known_schedule_part(part):
            raise HTTPException(404, f"the schedule has no {part.replace('=', ' ').replace(';', ', ')}")
        return site.page(request, "schedule.html", regions=[f"schedule/{part}" if part else "schedule"], part=part,
                         klass=klass)

    async def klass(request: Request) -> Response:
        name = named(request, "name", [c.name for c in site.view().classes])
        return site.page(request, "class.html", klass=name, regions=[f"class/{name}"])

    async def calendar(request: Request) -> Response:
        v = site.view()
        name = named(request, "team", v.teams)
        return Response(team_calendar(v, name), media_type="text/calendar; charset=utf-8",
                        headers={"Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"})

    streams = StreamSlots()
    fanout = Fanout(site, site.backend.changes)

    async def live(request: Request) -> ASGIApp:
        wanted = request.query_params.getlist("r")[:MAX_REGIONS]
        session = site.session(request)
        known = _known_regions(site, wanted, desk=session is not None and session.account is not None)
        if not known:
            raise HTTPException(400, "name the page's regions: /live?r=pool/A")
        address = request.client.host if request.client else "?"
        if not streams.take(address):  # each open page holds a connection: a few per client, so many in all
            raise HTTPException(429, "too many live pages are open from this address (or in all); close some")
        return _stream(site, fanout, _with_nested(site, known), request.headers.get("last-event-id", ""),
                       lambda: streams.give_back(address))

    return [
        Route("/", tournament, name="tournament"),
        Route("/pool/{pool:name}", pool, name="pool"),
        Route("/pool/{pool:name}/print", pool, name="pool_print"),
        Route("/pools", pools, name="pools"),
        Route("/class/{name:name}", klass, name="class"),
        Route("/bracket", bracket, name="bracket"),
        Route("/ranking", ranking, name="ranking"),
        Route("/schedule", schedule, name="schedule"),
        Route("/teams", teams, name="teams"),
        Route("/team/{team:name}/calendar.ics", calendar, name="calendar"),
        Route("/team/{team:name}", team, name="team"),
        Route("/match/{number:int}", match, name="match"),
        Route("/match/{number:int}/report.pdf", report, name="match_report"),
        Route("/scorers", scorers_page, name="scorers"),
        Route("/court/{court:name}", court, name="court"),
        Route("/court/{court:name}/overlay", court, name="overlay"),
        Route("/live", live, name="live"),
    ]


def _known_regions(site: Site, wanted: list[str], *, desk: bool) -> list[str]:
    v = site.view()
    names = {"courts", "bracket", "ranking", "schedule"} | ({"deskcourts"} if desk else set())
    names |= {f"pool/{p}" for p in v.pools}
    names |= {f"{kind}/{c}" for c in v.courts for kind in ("court", "courtmatches", "overlay")}
    names |= {f"team/{t}" for t in v.teams}
    names |= {f"match/{n}" for n in v.by_number}
    names |= {f"schedule/{p}" for p in v.schedule_parts if p}
    classes = [c.name for c in v.classes]
    names |= {f"{kind}/{c}" for c in classes for kind in ("class", "bracket", "ranking")}
    return [w for w in dict.fromkeys(wanted)
            if w in names or (w.startswith("schedule/class=") and v.known_schedule_part(w[len("schedule/"):]))]


def _with_nested(site: Site, regions: list[str]) -> list[str]:
    """The page's regions and those nested in them (the home page's court cards), each written on its own."""
    view = site.view()
    return list(dict.fromkeys(n for name in regions for n in (name, *site.nested(view, name))))


def _folded(text: str) -> str:
    """A name as a search compares it: "koln" finds "Köln", "ÖREBRO" finds "Örebro"."""
    plain = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in plain if not unicodedata.combining(ch))


def _resumed(regions: list[str], last_event_id: str) -> dict[str, str]:
    """What a reconnecting page holds (name -> digest), from the event id it sends back; {} if none."""
    held = last_event_id.strip().split(".")
    if len(held) != len(regions):
        return {}  # another page's id, or none: every region is sent
    return {name: d for name, d in zip(regions, held, strict=True) if d != "-"}


STREAM_HEADERS = [(b"content-type", b"text/event-stream; charset=utf-8"), (b"cache-control", b"no-store"),
                  (b"x-accel-buffering", b"no")]


def _stream(site: Site, fanout: Fanout, regions: list[str], last_event_id: str, done: Callable[[], None]) -> ASGIApp:
    """The page's live stream: every region the phone does not hold yet (a page opened late, or back after a
    dropped connection, on this instance or another, catches up at once), then each region again whenever
    its HTML changes, written by the fan-out (server.web.fanout). ``done`` gives the stream's place back."""

    async def respond(scope: Scope, receive: Receive, send: Send) -> None:
        page = None
        try:
            await send({"type": "http.response.start", "status": 200, "headers": STREAM_HEADERS})
            await send(body(b"retry: 1000\n\n"))
            written = scope.get(SERVER_SEND, send)  # the answer has started: past the layers that only look at that
            # No await between the snapshot's read and the page's opening: no change can fall between them.
            page = fanout.open(regions, written, site.view(), _resumed(regions, last_event_id))
            await page.catch_up()
            while (await receive())["type"] != "http.disconnect":
                pass  # the request has no body: the next message is the phone going away
        finally:
            if page is not None:
                fanout.close(page)
            done()

    return respond

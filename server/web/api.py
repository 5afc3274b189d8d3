"""The versioned JSON API (/api/v1, described in docs/openapi.yaml) and the CSV exports."""

from __future__ import annotations

import csv
import hashlib
import io
import json
from collections.abc import Awaitable, Callable
from dataclasses import asdict, replace
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from rules import CourtsideError, MatchTimeline
from server.desk_commands import DeskCommand, NeedsConfirmation, NotYourRole
from server.web import forms
from server.web.match_rows import MatchRow
from server.web.sessions import Session, csrf_ok
from server.web.site import Site, named
from server.web.view import View

V1 = "/api/v1"


def match_json(v: View, m: MatchRow) -> dict[str, Any]:
    """A match as the API gives it; a class that keeps its results off the pages gives only that it was played."""
    r = m.recorded if m.published else None
    return {
        "number": m.number,
        **({"class": m.class_name, "published": m.published} if m.class_name else {}),
        "stage": m.stage,
        "round": m.round,
        "court": m.court,
        "start": m.start.isoformat(timespec="minutes"),
        "end": m.end.isoformat(timespec="minutes"),
        "home": m.home,
        "away": m.away,
        "teams_known": m.home_known and m.away_known,
        "live": m.live,
        "moved": m.moved,
        "result": None if r is None else {**asdict(r.result), "recorded_at": r.recorded_at.isoformat(), "by": r.by,
                                          "note": r.note},
        "played": m.recorded is not None,
        "provisional_until": None if m.locked_at is None or r is None else m.locked_at.isoformat(timespec="seconds"),
        "locked": m.locked(v.data.now),
        "suspended": [{"team": s.team, "player": s.player, "for": s.label} for s in v.suspended(m.number)],
        "seen": m.version,
        "to_be_played_again": m.set_aside is not None,
    }


def pool_json(v: View, pool: str) -> dict[str, Any]:
    table = v.table(pool) if v.published(pool) else None
    played, expected = v.pool_played(pool)
    return {
        "pool": pool,
        "teams": v.pool_teams(pool),
        "played": played,
        "expected": expected,
        "table": [] if table is None else [asdict(row) for row in table.rows],
        "unresolved": [] if table is None else [{"teams": list(u.teams), "needs": u.needs} for u in table.unresolved],
        "matches": [match_json(v, m) for m in v.stage_matches(pool)],
    }


def court_json(v: View, court: str) -> dict[str, Any]:
    now, following = v.now_and_next(court)
    presence = v.data.presence.get(court)
    return {
        "court": court,
        "now": None if now is None else match_json(v, now),
        "next": None if following is None else match_json(v, following),
        "live": None if court not in v.data.live or (now is not None and not now.published)
        else asdict(v.data.live[court]),
        "online": None if presence is None else presence.online,
    }


EVENT_COLUMNS = ("number", "class", "stage", "seq", "period", "period_kind", "played", "kind", "team", "player",
                 "penalty", "length_s", "scored", "home_goals", "away_goals", "home_shootout", "away_shootout")


def event_rows(v: View, row: MatchRow, timeline: MatchTimeline | None) -> list[dict[str, Any]]:
    """What counts of a match's log (rules.match.timeline), a line a row, its teams by name; none for a class that
    keeps its results off the pages (its events tell the score)."""
    if timeline is None or not row.published:
        return []
    out = []
    for line in timeline.lines:
        out.append({
            "number": row.number, "class": row.class_name, "stage": row.stage, "seq": line.seq, "period": line.period,
            "period_kind": line.period_kind, "played": line.played_text, "kind": line.kind,
            "team": row.home if line.team == "home" else row.away if line.team == "away" else None,
            "player": line.player, "penalty": line.penalty,
            "length_s": None if line.length_ms is None else line.length_ms // 1000, "scored": line.scored,
            "home_goals": line.home_goals, "away_goals": line.away_goals, "home_shootout": line.home_shootout,
            "away_shootout": line.away_shootout,
        })
    return out


def routes(site: Site) -> list[Route]:
    def read(build: Callable[[View, Request], Any]) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            v = site.view()
            body = build(v, request)
            return cached(request, {"version": v.data.version, **body})

        return endpoint

    def pool(v: View, request: Request) -> dict[str, Any]:
        name = named(request, "pool", v.pools)
        return pool_json(v, name)

    def matches(v: View, request: Request) -> dict[str, Any]:
        """The schedule in playing order, filtered (day, court, pool, team, class) and a page at a time: a cup's 4,000
        matches are a megabyte in one answer."""
        q = request.query_params
        chosen = list(v.matches)
        for key, keep in (("day", lambda m, x: m.start.date().isoformat() == x), ("court", lambda m, x: m.court == x),
                          ("pool", lambda m, x: m.stage == x), ("team", lambda m, x: x in (m.home, m.away)),
                          ("class", lambda m, x: m.class_name == x)):
            if key in q:
                chosen = [m for m in chosen if keep(m, q[key])]
        limit, offset = _count(q.get("limit"), MATCHES_PAGE, "limit"), _count(q.get("offset"), 0, "offset")
        limit = min(max(limit, 1), MATCHES_PAGE)
        page = chosen[offset:offset + limit]
        following = None
        if offset + limit < len(chosen):
            following = str(request.url.include_query_params(offset=offset + limit, limit=limit))
        return {"total": len(chosen), "offset": offset, "next": following,
                "matches": [match_json(v, m) for m in page]}

    def match(v: View, request: Request) -> dict[str, Any]:
        row = v.by_number.get(int(request.path_params["number"]))
        if row is None:
            raise HTTPException(404, "there is no such match")
        return {"match": match_json(v, row)}

    def match_events(v: View, request: Request) -> dict[str, Any]:
        row = v.by_number.get(int(request.path_params["number"]))
        if row is None:
            raise HTTPException(404, "there is no such match")
        timeline = site.backend.timeline(row.number)
        counted = row.recorded if row.published else None  # how it was decided: the result that counts
        return {"match": row.number, "published": row.published,
                "outcome": None if counted is None else counted.result.outcome,
                "events": event_rows(v, row, timeline)}

    async def events_csv(request: Request) -> Response:
        """One match's events (``/matches/N/events.csv``) or every match's, in playing order (``/events.csv``)."""
        v = site.view()
        if "number" in request.path_params:
            one = v.by_number.get(int(request.path_params["number"]))
            if one is None:
                raise HTTPException(404, "there is no such match")
            rows = [one]
        else:
            rows = [m for m in v.matches if m.published and (m.recorded is not None or m.live)]
        out = io.StringIO()
        w = csv.writer(out)
        w.writerow(EVENT_COLUMNS)
        for m in rows:
            for event in event_rows(v, m, site.backend.timeline(m.number)):
                w.writerow([_cell(x) for x in event.values()])
        return _csv(out.getvalue(), "events.csv")

    def court(v: View, request: Request) -> dict[str, Any]:
        name = named(request, "court", v.courts)
        return court_json(v, name)

    def team(v: View, request: Request) -> dict[str, Any]:
        name = named(request, "team", v.teams)
        return {"team": name, "matches": [match_json(v, m) for m in v.team_matches(name)]}

    def tournament(v: View, request: Request) -> dict[str, Any]:
        data = v.data
        classes = [{"name": c.name, "ruleset": data.rulesets[c.name].name, "published": c.published,
                    "pools": [p.name for p in c.tournament.pools]} for c in data.cup.classes] \
            if data.cup.has_classes else []
        return {"name": data.name, "ruleset": data.ruleset_names, "courts": v.courts, "pools": v.pools,
                "teams": v.teams, **({"classes": classes} if classes else {}), "error": v.error}

    def ranking(v: View, request: Request) -> dict[str, Any]:
        """A class's final ranking (``?class=P13``; a cup's first class unasked); none for an unpublished class."""
        names = [c.name for c in v.classes] or [""]
        name = request.query_params.get("class", names[0])
        if name not in names:
            raise HTTPException(404, f"there is no class {name}")
        found = v.class_named(name)
        shown = v.final_ranking(name) if found is None or found.published else []
        return {**({"class": name} if name else {}),
                "ranking": [{"place": n, "team": team, "needs": needs} for n, team, needs in shown]}

    async def results_csv(request: Request) -> Response:
        v = site.view()
        out = io.StringIO()
        w = csv.writer(out)
        w.writerow(["number", "pool", "home", "away", "home_goals", "away_goals", "outcome", "winner",
                    "home_shootout", "away_shootout", "court", "start", "recorded_by", "locked"])
        for m in v.matches:
            if m.recorded is None or not m.published:  # a class may keep its results off the pages
                continue
            r = m.recorded.result
            w.writerow([m.number, *map(spreadsheet_text, (r.pool, r.home, r.away)), r.home_goals, r.away_goals,
                        r.outcome, spreadsheet_text(r.winner or ""), _blank(r.home_shootout),
                        _blank(r.away_shootout), spreadsheet_text(m.court), m.start.isoformat(timespec="minutes"),
                        spreadsheet_text(m.recorded.by), "yes" if m.locked(v.data.now) else "no"])
        return _csv(out.getvalue(), "results.csv")

    async def standings_csv(request: Request) -> Response:
        v = site.view()
        out = io.StringIO()
        w = csv.writer(out)
        w.writerow(["pool", "rank", "team", "played", "won", "drawn", "lost", "goals_for", "goals_against",
                    "goal_difference", "points", "reason"])
        for pool in v.pools:
            table = v.table(pool) if v.published(pool) else None
            for row in table.rows if table is not None else ():
                w.writerow([spreadsheet_text(pool), row.rank, spreadsheet_text(row.team), row.played, row.won,
                            row.drawn, row.lost, row.goals_for, row.goals_against, row.goal_difference, row.points,
                            spreadsheet_text(row.reason)])
        return _csv(out.getvalue(), "standings.csv")

    def write(build: Callable[[View, str, Request, dict[str, Any]], DeskCommand]) -> Callable[[Request],
                                                                                          Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            session = site.session(request)
            if session is None or session.account is None:
                return JSONResponse({"error": "log in at /desk/login first"}, status_code=403)
            if not csrf_ok(session, request.headers.get("x-csrf-token")):
                return JSONResponse({"error": "the X-CSRF-Token header is missing or stale"}, status_code=403)
            try:
                fields = json.loads(await request.body() or b"{}")
                if not isinstance(fields, dict):
                    raise ValueError("the body must be a JSON object")
            except ValueError as err:
                return JSONResponse({"error": f"body: {err}"}, status_code=400)
            try:
                command = replace(build(site.view(), _who(session), request, fields), role=session.role)
                await run_in_threadpool(site.backend.submit, command)
            except NeedsConfirmation as err:
                return JSONResponse({"error": str(err), "consequences": err.lines, "confirm": "send again with "
                                     '"confirm": true to store it'}, status_code=409)
            except NotYourRole as err:
                return JSONResponse({"error": str(err)}, status_code=403)
            except CourtsideError as err:
                return JSONResponse({"error": str(err)}, status_code=409)
            return JSONResponse({"ok": True, "version": site.backend.data().version})

        endpoint.guarded = True  # type: ignore[attr-defined]
        return endpoint

    def n(request: Request) -> int:
        return int(request.path_params["number"])

    w_result = write(lambda v, who, r, f: forms.result_command(v, who, n(r), f))
    w_walkover = write(lambda v, who, r, f: forms.walkover_command(v, who, n(r), f))
    w_abandoned = write(lambda v, who, r, f: forms.abandoned_command(v, who, n(r), f))
    w_move = write(lambda v, who, r, f: forms.move_command(v, who, n(r), f))
    w_decision = write(lambda v, who, r, f: forms.decision_command(who, f))
    w_conflict = write(lambda v, who, r, f: forms.conflict_command(who, r.path_params["conflict"], f))
    w_sanction = write(lambda v, who, r, f: forms.sanction_command(who, f))

    desk = f"{V1}/desk"
    return [
        Route(f"{V1}/tournament", read(tournament), name="api_tournament"),
        Route(f"{V1}/pools/{{pool:name}}", read(pool), name="api_pool"),
        Route(f"{V1}/matches", read(matches), name="api_matches"),
        Route(f"{V1}/matches/{{number:int}}", read(match), name="api_match"),
        Route(f"{V1}/matches/{{number:int}}/events", read(match_events), name="api_match_events"),
        Route(f"{V1}/matches/{{number:int}}/events.csv", events_csv, name="api_match_events_csv"),
        Route(f"{V1}/events.csv", events_csv, name="api_events_csv"),
        Route(f"{V1}/courts", read(lambda v, r: {"courts": [court_json(v, c) for c in v.courts]}), name="api_courts"),
        Route(f"{V1}/courts/{{court:name}}", read(court), name="api_court"),
        Route(f"{V1}/teams/{{team:name}}", read(team), name="api_team"),
        Route(f"{V1}/ranking", read(ranking), name="api_ranking"),
        Route(f"{V1}/results.csv", results_csv, name="api_results_csv"),
        Route(f"{V1}/standings.csv", standings_csv, name="api_standings_csv"),
        Route(f"{desk}/matches/{{number:int}}/result", w_result, methods=["POST"], name="api_desk_result"),
        Route(f"{desk}/matches/{{number:int}}/walkover", w_walkover, methods=["POST"], name="api_desk_walkover"),
        Route(f"{desk}/matches/{{number:int}}/abandoned", w_abandoned, methods=["POST"], name="api_desk_abandoned"),
        Route(f"{desk}/matches/{{number:int}}/move", w_move, methods=["POST"], name="api_desk_move"),
        Route(f"{desk}/decisions", w_decision, methods=["POST"], name="api_desk_decision"),
        Route(f"{desk}/conflicts/{{conflict}}", w_conflict, methods=["POST"], name="api_desk_conflict"),
        Route(f"{desk}/sanctions", w_sanction, methods=["POST"], name="api_desk_sanction"),
    ]


MATCHES_PAGE = 200  # matches in one answer of /matches at most (and by default); `next` names the following page


def _count(text: str | None, default: int, name: str) -> int:
    if text is None:
        return default
    if not text.isdigit():
        raise HTTPException(400, f"{name}: a whole number is required, not {text[:20]!r}")
    return int(text)


LIVE_MAX_AGE = 1  # seconds a front (Caddy) or a phone may reuse a read: live states change every few seconds


def cached(request: Request, body: dict[str, Any]) -> Response:
    """A read the same for every viewer, which a front may keep for LIVE_MAX_AGE and then check again.

    Its weak ETag is the body's digest without ``version`` (each instance counts its own snapshots), so
    the same state served by any instance answers a revalidation with 304 and no body."""
    text = json.dumps({k: body[k] for k in body if k != "version"}, sort_keys=True, default=str)
    tag = f'W/"{hashlib.blake2b(text.encode(), digest_size=10).hexdigest()}"'
    headers = {"Cache-Control": f"public, max-age={LIVE_MAX_AGE}", "ETag": tag}
    if tag in {t.strip() for t in request.headers.get("if-none-match", "").split(",")}:
        return Response(status_code=304, headers=headers)
    return JSONResponse(body, headers=headers)


def _who(session: Session) -> str:
    return session.account or "?"


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")  # what makes a spreadsheet run a cell rather than show it


def spreadsheet_text(text: str) -> str:
    """A text cell a spreadsheet shows and never runs: one beginning like a formula gets an apostrophe first
    (a team named "=HYPERLINK(...)" opened in Excel or LibreOffice). Numbers are written as they are."""
    return f"'{text}" if text.startswith(FORMULA_START) else text


def _cell(value: object) -> str:
    """An event's cell: text as a spreadsheet takes it safely, yes/no, a number, or blank."""
    if isinstance(value, str):
        return spreadsheet_text(value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    return "" if value is None else str(value)


def _blank(value: int | None) -> str:
    return "" if value is None else str(value)


def _csv(text: str, name: str) -> Response:
    return Response(text, media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})

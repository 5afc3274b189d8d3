"""The organiser's desk over the real service (server.web.service_backend over a SQLite store, a real
Mosquitto, tables speaking the protocol): a walk-over or forfeit, a decision by lots or penalty competition
for a tie the standings list as unresolved, a conflicting result settled, a match moved to another court and
time, each table's presence, last message and delay; each change logged and sent on to the courts like a
result. The same forms were only proven on the in-memory backend before."""

from __future__ import annotations

import contextlib
import html
import re
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from rules import protocol as p
from rules.live import live_payload
from rules.match import ClockStarted, Match
from rules.standings import MatchResult
from server import queries
from server.desk_commands import CorrectResult
from server.plan import load_plan
from server.service import Service
from server.web import create_app, service_backend
from server.web.service_backend import ServiceBackend
from server.web.view import View
from tests.service_support import TableClient, played, running_service
from tests.web_support import PASSWORD, desk_client

EXAMPLES = Path(__file__).resolve().parent.parent / "rules" / "examples"


@dataclass
class Desk:
    service: Service
    backend: ServiceBackend
    client: Any  # starlette's TestClient, logged in as anna
    csrf: str
    broker: str

    def view(self) -> View:
        return View(self.backend.data())

    def table(self, court: str) -> TableClient:
        return TableClient(self.broker, self.service.plan.id, court)

    def post(self, path: str, **fields: Any) -> Any:
        return self.client.post(path, data={"csrf": self.csrf, **fields}, follow_redirects=False)


@contextlib.contextmanager
def served_desk(mosquitto: Any, tmp_path: Path, example: str | Path) -> Iterator[Desk]:
    """``example``: a shipped example's name, or a tournament file."""
    broker = mosquitto()
    db = f"sqlite:///{tmp_path / 'courtside.db'}"
    path = example if isinstance(example, Path) else EXAMPLES / f"{example}.toml"
    with running_service(db, broker.url, plan=load_plan(path)) as service:
        backend = ServiceBackend(service)
        app = create_app(backend, accounts_url=db, lang="en", secure_cookies=False)
        app.state.site.accounts.add("anna", PASSWORD)
        with desk_client(app) as (client, csrf):
            yield Desk(service, backend, client, csrf, broker.url)


def court_id(desk: Desk, name: str) -> str:
    return next(cid for cid, court in desk.service.plan.courts.items() if court == name)


def row_of(table: Any, team: str) -> dict[str, Any]:
    return next(r for r in table.payload["rows"] if r["team"] == team)


@pytest.mark.parametrize(("example", "kind", "score", "api"), [
    ("youth-football", "walkover", "0–3 w.o.", False),  # seed 003: "Walk-over (WO) ger tre poäng samt 3-0"
    ("ice-hockey", "forfeit", "0–5 forf.", True),  # seed 004: a forfeit "officially loses ... 0-5"
])
def test_a_walkover_or_forfeit_counts_as_the_ruleset_scores_it(mosquitto: Any, tmp_path: Path, example: str,
                                                               kind: str, score: str, api: bool) -> None:
    with served_desk(mosquitto, tmp_path, example) as desk:
        m = desk.view().by_number[1]
        table = desk.table(court_id(desk, m.court))
        try:
            fields = {"kind": kind, "winner": m.away, "why": "the home team did not come"}
            if api:  # the API's twin of the form: JSON, the session's token in its header
                done = desk.client.post("/api/v1/desk/matches/1/walkover", json=fields,
                                        headers={"x-csrf-token": desk.csrf})
            else:
                done = desk.post("/desk/match/1/walkover", **fields)
            assert done.status_code == (200 if api else 303), done.text
            # The courts get the pool's new table, as after a result from a table.
            published = table.wait_for("table", lambda t: t.payload["pool"] == m.stage
                                       and row_of(t, m.away)["points"] > 0)
        finally:
            table.close()
        win, lose = desk.service.plan.rulesets[""].points.walkover_score if kind == "walkover" else \
            desk.service.plan.rulesets[""].points.forfeit_score
        assert (row_of(published, m.away)["goals_for"], row_of(published, m.away)["goals_against"]) == (win, lose)
        (stored,) = queries.results(desk.service.store)
        assert (stored.outcome, stored.winner, stored.source) == (kind, m.away, "organiser")
        (change,) = queries.change_log(desk.service.store)
        assert (change.who, change.why, change.match_id) == ("anna", "the home team did not come", "1")
        at = change.at if change.at.tzinfo else change.at.replace(tzinfo=UTC)
        assert abs(datetime.now(UTC) - at) < timedelta(minutes=1)
        # The desk's change log says who, when, what and why.
        audit = html.unescape(desk.client.get("/desk").text)
        audit = audit[audit.index('class="audit"'):]
        (entry,) = re.findall(r"<tr><td>(\d\d:\d\d)</td><td>anna</td><td>([^<]*)</td><td>([^<]*)</td></tr>", audit)
        assert entry[0] == f"{at.astimezone():%H:%M}" and "match 1" in entry[1] and kind in entry[1]
        assert entry[2] == "the home team did not come"
        # The API says it as the pages do: who entered it (the account, not just "organiser") and as what.
        result = desk.client.get("/api/v1/matches/1").json()["match"]["result"]
        assert (result["outcome"], result["by"], result["note"]) == (kind, "anna", kind)
        # What a parent reads is the score the rules award, not the 0-0 the form stores for "not entered".
        assert score in desk.client.get(f"/pool/{m.stage}").text
        assert score in desk.client.get(f"/team/{m.away}").text


def _unresolved_pool(desk: Desk, example: str) -> str:
    """A complete pool whose results leave a tie only lots (youth football, seed 003) or a penalty competition
    (indoor hockey, seed 000) can break, entered at the desk: youth pool C as the sample day has it, then both
    GAIS and Djurgården lose 1-0; hockey pool A all 1-1."""
    view = desk.view()
    if example == "youth-football":
        pool, scores = "C", {5: (2, 2), 6: (2, 2), 11: (0, 2), 12: (1, 1), 17: (1, 0), 18: (1, 0)}
    else:
        pool = "A"
        scores = {m.number: (1, 1) for m in view.matches if m.stage == "A"}
    for number, (home, away) in scores.items():
        m = view.by_number[number]
        result = MatchResult(pool=pool, home=m.home, away=m.away, home_goals=home, away_goals=away)
        desk.backend.submit(CorrectResult(who="anna", why="score sheet", number=number, result=result))
    return pool


@pytest.mark.parametrize(("example", "method", "needs", "api"), [
    ("youth-football", "lots", "a drawing of lots", False),
    ("indoor-hockey", "penalty_competition", "penalty", True),
])
def test_a_tie_the_standings_leave_unresolved_is_decided_at_the_desk(mosquitto: Any, tmp_path: Path, example: str,
                                                                     method: str, needs: str, api: bool) -> None:
    with served_desk(mosquitto, tmp_path, example) as desk:
        pool = _unresolved_pool(desk, example)
        (tie,) = desk.view().unresolved()
        assert tie.pool == pool and needs in tie.needs
        page = html.unescape(desk.client.get("/desk").text)
        assert "Ties waiting for a decision" in page and f"Pool {pool}: {', '.join(tie.teams)}" in page
        order = list(reversed(tie.teams))

        def decide(pool: str, why: str, order: list[str] = order) -> Any:
            """The desk's form, or the same through the API (JSON, the token in its header)."""
            if api:
                return desk.client.post("/api/v1/desk/decisions", headers={"x-csrf-token": desk.csrf},
                                        json={"pool": pool, "method": method, "order": order, "why": why})
            return desk.post("/desk/decision", pool=pool, method=method, order=order, why=why)

        # A decision the standings do not need yet is refused, and says why: the other pools have all their
        # teams level before a match is played, and their matches may still break it.
        other = next(p for p in desk.view().pools if p != pool)
        refused = decide(other, "x", order=list(desk.view().pool_teams(other)))
        assert refused.status_code == 409
        assert "a tie is decided once its last match is played" in html.unescape(refused.text)
        assert f"Pool {other}:" not in html.unescape(desk.client.get("/desk").text)
        table = desk.table(next(iter(desk.service.plan.courts)))
        try:
            done = decide(pool, "drawn at the desk")
            assert done.status_code == (200 if api else 303), done.text
            published = table.wait_for("table", lambda t: t.payload["pool"] == pool and not t.payload["unresolved"])
        finally:
            table.close()
        ranked = [r["team"] for r in published.payload["rows"] if r["team"] in order]
        assert ranked == order
        assert desk.view().unresolved() == []
        assert "Ties waiting for a decision" not in desk.client.get("/desk").text
        read = desk.client.get(f"/api/v1/pools/{pool}").json()
        assert read["unresolved"] == [] and [r["team"] for r in read["table"] if r["team"] in order] == order
        change = queries.change_log(desk.service.store)[0]
        assert (change.action, change.who, change.why, change.after) == (
            "decision", "anna", "drawn at the desk", {"method": method, "order": order})


def test_a_conflicting_result_is_settled_by_keeping_the_received_one(mosquitto: Any, tmp_path: Path) -> None:
    with served_desk(mosquitto, tmp_path, "youth-football") as desk:
        ruleset = desk.service.plan.rulesets[""]
        table = desk.table("plan-1")
        try:
            table.play_then_correct("1", ruleset)  # the service keeps 1-1 and holds 2-1
            (conflict,) = desk.view().data.conflicts
            page = html.unescape(desk.client.get("/desk").text)
            assert "Conflicting results" in page and f'action="/desk/conflict/{conflict.id}"' in page
            # Worded by the page (in the desk's language), not the service's English reason for its log.
            assert "the table sent a result that differs from the stored one" in page
            assert conflict.reason not in page and "Stored: " in page and "1–1" in page and "2–1" in page
            m = desk.view().by_number[1]
            done = desk.post(f"/desk/conflict/{conflict.id}", keep="held", why="the referee's card says 2-1")
            assert done.status_code == 303, done.text
            table.wait_for("table", lambda t: t.payload["pool"] == m.stage and row_of(t, m.home)["goals_for"] == 2)
        finally:
            table.close()
        (stored,) = queries.results(desk.service.store)
        assert (stored.home_goals, stored.away_goals, stored.source) == (2, 1, "organiser")
        assert queries.open_conflicts(desk.service.store) == []
        assert desk.view().data.conflicts == () and "Conflicting results" not in desk.client.get("/desk").text
        assert "2–1" in desk.client.get(f"/pool/{m.stage}").text
        assert any(c.who == "anna" and "the referee's card says 2-1" in c.why
                   for c in queries.change_log(desk.service.store))


def _in_schedule(message: p.Message, match: str) -> dict[str, Any] | None:
    return next((x for x in message.payload["matches"] if x["match"] == match), None)


def test_a_match_moved_to_another_court_and_time_reaches_that_courts_table_and_pages(
        mosquitto: Any, tmp_path: Path) -> None:
    with served_desk(mosquitto, tmp_path, "indoor-hockey") as desk:
        hall_1, hall_2 = desk.table("hall-1"), desk.table("hall-2")
        try:
            done = desk.post("/desk/match/1/move", court="Hall 2", start="2026-01-16T20:30", why="Hall 1's floor")
            assert done.status_code == 303, done.text
            there = hall_2.wait_for("schedule", lambda s: _in_schedule(s, "1") is not None)
            gone = hall_1.wait_for("schedule", lambda s: _in_schedule(s, "1") is None)
        finally:
            hall_1.close()
            hall_2.close()
        moved = _in_schedule(there, "1")
        assert moved is not None and moved["start"] == "2026-01-16T20:30"
        assert [x["match"] for x in gone.payload["matches"]][:2] == ["3", "5"]
        api = desk.client.get("/api/v1/matches/1").json()["match"]
        assert (api["court"], api["start"], api["moved"]) == ("Hall 2", "2026-01-16T20:30", True)
        court = desk.client.get("/court/Hall 2").text
        (row,) = [r for r in re.findall(r"<tr>(.*?)</tr>", court, re.S) if "<b>20:30</b>" in r]
        assert "Rot-Weiss Köln" in row and "Slavia Praha" in row and '<span class="badge">moved</span>' in row
        assert "<b>17:00</b><br><small>Hall 1" not in desk.client.get("/court/Hall 1").text
        (change,) = queries.change_log(desk.service.store)
        assert (change.action, change.who, change.why) == ("move", "anna", "Hall 1's floor")
        assert (change.before or {}).get("court") == "hall-1" and (change.after or {}).get("court") == "hall-2"


def desk_courts(page: str) -> dict[str, list[str]]:
    """The desk's courts table as text: court -> [table, delay, playing, last message]."""
    body = page[page.index('class="desk-courts"'):]
    body = body[:body.index("</table>")]
    rows: dict[str, list[str]] = {}
    for row in re.findall(r"<tr><th scope=\"row\">(.*?)</tr>", body, re.S):
        cells = [" ".join(html.unescape(re.sub(r"<[^>]+>", " ", c)).split())
                 for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", "<th>" + row, re.S)]
        rows[cells[0]] = cells[1:]
    return rows


def _today(tmp_path: Path, minutes_ago: int) -> Path:
    """The indoor-hockey example, its first matches started ``minutes_ago`` on the wall clock and the rest
    one after another (no day_start/day_end: nothing waits for a morning), so delays are against now."""
    start = (datetime.now() - timedelta(minutes=minutes_ago)).strftime("%Y-%m-%dT%H:%M")
    text = (EXAMPLES / "indoor-hockey.toml").read_text(encoding="utf-8")
    text = re.sub(r'(?m)^start = "[^"]+"', f'start = "{start}"', text)
    text = re.sub(r"(?m)^day_(start|end) = .*$", "", text)
    path = tmp_path / "today.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_desk_shows_each_tables_presence_last_message_and_delay(mosquitto: Any, tmp_path: Path) -> None:
    # Both halls' first matches were due to start 25 minutes ago: Hall 1 has not begun (25 minutes late),
    # Hall 2 is playing it (on time until the match's scheduled end).
    with served_desk(mosquitto, tmp_path, _today(tmp_path, 25)) as desk:
        rows = desk_courts(desk.client.get("/desk").text)
        assert rows["Hall 1"][0] == rows["Hall 2"][0] == "never seen"
        assert rows["Hall 1"][1] in ("25 min", "26 min") and rows["Hall 1"][2].startswith("#1 Rot-Weiss Köln")
        hall_2 = desk.table("hall-2")
        try:
            hall_2.send_raw("presence", p.encode(p.presence_message(id=uuid.uuid4().hex, court="hall-2",
                                                                    online=True)))
            hall_2.send_raw("live", _match_2_live(desk))
            rows = _wait_for_row(desk, "Hall 2", lambda r: "live state" in r[3])
            assert rows["Hall 2"][:3] == ["online", "0 min", "#2 Amsterdam H&BC – Three Rock Rovers"
                                          f" ({desk.view().by_number[2].start:%H:%M})"]
            assert re.fullmatch(r"\d\d:\d\d live state, match 2", rows["Hall 2"][3])
            assert rows["Hall 1"][0] == "never seen"
            # The table's will (or its own goodbye) says it went away: the desk says offline.
            hall_2.send_raw("presence", p.encode(p.presence_message(id=uuid.uuid4().hex, court="hall-2",
                                                                    online=False)))
            _wait_for_row(desk, "Hall 2", lambda r: r[0] == "offline")
        finally:
            hall_2.close()


def test_the_desk_hears_of_a_tables_first_live_state_from_the_instance_that_stored_it(
        mosquitto: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Every instance's watch (server.watch) tells its pages of each live state, but on a connection of its own:
    # its copy can come before the instance that stores the state has committed the court's row the desk reads
    # ("live state, match 2"), or not at all. Without the watch, the desk must still say so, and at once: not
    # when the snapshot's clock next moves on (TICK, here never).
    monkeypatch.setattr(service_backend, "TICK", 3600.0)
    with served_desk(mosquitto, tmp_path, _today(tmp_path, 25)) as desk:
        assert desk.service.watch is not None
        desk.service.watch.stop()
        hall_2 = desk.table("hall-2")
        try:
            hall_2.send_raw("presence", p.encode(p.presence_message(id=uuid.uuid4().hex, court="hall-2",
                                                                    online=True)))
            _wait_for_row(desk, "Hall 2", lambda r: r[3].endswith("presence"))
            hall_2.send_raw("live", _match_2_live(desk))
            rows = _wait_for_row(desk, "Hall 2", lambda r: "live state" in r[3])
            assert re.fullmatch(r"\d\d:\d\d live state, match 2", rows["Hall 2"][3])
        finally:
            hall_2.close()


def _match_2_live(desk: Desk) -> bytes:
    """Hall 2's table playing match 2, 5 s in."""
    ruleset = desk.service.plan.rulesets[""]
    match = Match(ruleset, stage="round_robin", round="pool")
    match.apply(ClockStarted(at=0))
    return p.encode(p.build(id=uuid.uuid4().hex, type="live", court="hall-2", match="2",
                            payload=live_payload(match.state_at(5_000), ruleset, "2")))


def _wait_for_row(desk: Desk, court: str, ok: Any, timeout: float = 10.0) -> dict[str, list[str]]:
    import time

    deadline = time.monotonic() + timeout
    while True:
        rows = desk_courts(desk.client.get("/desk").text)
        if ok(rows[court]):
            return rows
        assert time.monotonic() < deadline, f"the desk still says {rows[court]}"
        time.sleep(0.05)


def test_a_desk_account_enters_first_results_walkovers_and_decisions_but_replaces_nothing(
        mosquitto: Any, tmp_path: Path) -> None:
    """Issue 31: every account could do everything. The desk role enters what a table official's office does;
    replacing a stored result or moving a match is refused with 403 and what the role may do, nothing stored."""
    with served_desk(mosquitto, tmp_path, "indoor-hockey") as desk:
        app = desk.client.app
        app.state.site.accounts.add("tomas", PASSWORD, role="desk")
        with desk_client(app, "tomas") as (client, csrf):
            def api(path: str, **fields: Any) -> Any:
                return client.post(f"/api/v1/desk/{path}", json=fields, headers={"x-csrf-token": csrf})

            assert api("matches/1/result", home_goals=2, away_goals=1, why="score sheet").status_code == 200
            m = desk.view().by_number[3]
            assert api("matches/3/walkover", kind="walkover", winner=m.home, why="no show").status_code == 200
            again = api("matches/1/result", home_goals=3, away_goals=1, why="recount")
            assert again.status_code == 403 and "organiser's" in again.json()["error"]
            move = api("matches/5/move", court="Hall 2", start="2026-01-16T20:30", why="floor")
            assert move.status_code == 403 and "moving a match" in move.json()["error"]
            form = client.post("/desk/match/1/result", data={"csrf": csrf, "home_goals": "0", "away_goals": "0",
                                                             "why": "recount"}, follow_redirects=False)
            assert form.status_code == 403 and "organiser" in html.unescape(form.text)
        stored = {r.match_id: (r.home_goals, r.away_goals) for r in queries.results(desk.service.store)}
        assert stored["1"] == (2, 1) and "5" not in stored
        assert [c.who for c in queries.change_log(desk.service.store)] == ["tomas", "tomas"]
        assert desk.view().by_number[5].court == "Hall 1"
        # The organiser may: the same correction from anna is stored (after confirming what it changes).
        done = desk.client.post("/api/v1/desk/matches/1/result", json={"home_goals": 3, "away_goals": 1,
                                "why": "recount", "confirm": True}, headers={"x-csrf-token": desk.csrf})
        assert done.status_code == 200, done.text


def test_a_walkover_over_a_table_s_result_says_what_it_replaces_and_a_stale_page_is_refused(
        mosquitto: Any, tmp_path: Path) -> None:
    """Issue 31: a walk-over silently replaced the table's 0-6 ("0-0 walkover (was 0-6)" in the log only), and a
    correction and a walk-over sent on one page at once were both "saved", the last one winning."""
    with served_desk(mosquitto, tmp_path, "youth-football") as desk:
        ruleset = desk.service.plan.rulesets[""]
        m = desk.view().by_number[1]
        seen = desk.client.get("/api/v1/matches/1").json()["match"]["seen"]
        form = html.unescape(desk.client.get("/desk/match/1").text)
        assert form.count(f'name="seen" value="{seen}"') == 4  # result, walk-over, abandoned, move
        table = desk.table(court_id(desk, m.court))
        try:
            events, result = played(ruleset, 0, 6)
            table.play("1", events, result)
            table.wait_for("ack", lambda x: x.payload["of"] == "result")
        finally:
            table.close()
        walkover = {"kind": "walkover", "winner": m.home, "why": "the away team fielded a suspended player"}
        api = "/api/v1/desk/matches/1/walkover"
        headers = {"x-csrf-token": desk.csrf}
        asked = desk.client.post(api, json=walkover, headers=headers)
        assert asked.status_code == 409 and asked.json()["consequences"][0] == (
            "it replaces match 1's result 0–6 from its table")
        # The page shown before the table's result: refused with what is there now, even when confirmed.
        stale = desk.client.post(api, json={**walkover, "seen": seen, "confirm": True}, headers=headers)
        assert stale.status_code == 409 and "now 0–6 from its table" in stale.json()["error"], stale.text
        assert [(r.home_goals, r.away_goals, r.source) for r in queries.results(desk.service.store)] == [
            (0, 6, "table")]
        fresh = desk.client.get("/api/v1/matches/1").json()["match"]["seen"]
        done = desk.client.post(api, json={**walkover, "seen": fresh, "confirm": True}, headers=headers)
        assert done.status_code == 200, done.text
        (stored,) = queries.results(desk.service.store)
        assert (stored.outcome, stored.source) == ("walkover", "organiser")

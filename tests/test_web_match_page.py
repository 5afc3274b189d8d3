"""A page for every match (issue 33), over the real path: a `courtside table` process playing the ice-hockey seed's
press script (a minor to away #91, a power-play goal by home #13, then a goal each) through Mosquitto to the
service on PostgreSQL, and Chromium at phone width reading the match's page live and after the final."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from server.plan import load_plan
from server.web import create_app
from server.web.service_backend import ServiceBackend
from server.web.view import View
from tests.service_support import running_service
from tests.web_support import LiveServer

ROOT = Path(__file__).resolve().parent.parent
ICE = ROOT / "rules" / "examples" / "ice-hockey.toml"
SCRIPT = ROOT / "firmware" / "scripts" / "ice-hockey.txt"  # match 1 on the Rink: Wolves AA v Bears AA


class Day:
    def __init__(self, backend: ServiceBackend, server: LiveServer, broker: str, tmp: Path) -> None:
        self.backend, self.server, self.broker, self.tmp = backend, server, broker, tmp

    def view(self) -> View:
        return View(self.backend.data())

    def table(self, speed: str) -> subprocess.Popen[bytes]:
        """The Rink's table, playing the seed's script (its journal in ``tmp``)."""
        return subprocess.Popen(
            [sys.executable, "-m", "courtside", "table", "--rules", "ice-hockey", "--court", "Rink", "--tournament",
             str(ICE), "--pins", "mock", "--headless", "--script", str(SCRIPT), "--journal", str(self.tmp / "j"),
             "--broker", self.broker, "--speed", speed], stdout=subprocess.DEVNULL,
            stderr=(self.tmp / "table.log").open("ab"), cwd=ROOT)


@pytest.fixture
def day(mosquitto: Any, tmp_path: Path) -> Iterator[Day]:
    from tests.conftest import _postgres_database

    broker = mosquitto()
    with _postgres_database() as url, running_service(url, broker.url, plan=load_plan(ICE)) as service:
        backend = ServiceBackend(service)
        server = LiveServer(create_app(backend, lang="en")).start()
        try:
            yield Day(backend, server, broker.url, tmp_path)
        finally:
            server.stop()


def test_a_match_page_shows_its_events_as_they_happen_then_how_it_ended(day: Day, chromium: Any) -> None:
    from playwright.sync_api import expect

    page = chromium.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(f"{day.server.url}/match/1")
    expect(page.locator("h1")).to_have_text("Match 1")
    expect(page.locator("[data-region='match/1']")).to_contain_text("The match has not started.")
    table = day.table("40")  # 1950 s of the script in about 50 s: the page is open all through it
    try:
        # The power-play goal reaches the open page while the match is played (the live stream, no reload).
        events = page.locator("ol.timeline li")
        expect(events.first).to_contain_text("Minor · Bears AA #91 Albin Karlsson (2:00)", timeout=60_000)
        expect(page.locator("li.goal.home")).to_contain_text("Goal · Wolves AA #13 Hugo Ekström 1–0", timeout=60_000)
        expect(page.locator(".mirror .label")).to_contain_text("LIVE")
        assert table.wait(120) == 0, (day.tmp / "table.log").read_text()[-2000:]
    finally:
        if table.poll() is None:
            table.kill()
    expect(page.locator(".mirror .label")).to_have_text("Full time", timeout=30_000)
    assert [x.strip() for x in page.locator("h3.period").all_inner_texts()] == ["Period 1", "Period 2"]
    # Each line with the time played in its period (the clock counts down on the board): 1:41, 2:10, then
    # 8:40 and 11:50 of the second period.
    lines = [" ".join(x.split()) for x in events.all_inner_texts()]
    assert lines == ["1:41 Minor · Bears AA #91 Albin Karlsson (2:00)", "2:10 Goal · Wolves AA #13 Hugo Ekström 1–0",
                     "8:40 Goal · Bears AA 1–1", "11:50 Goal · Wolves AA 2–1"]
    # Both teams' sheets: one written in the tournament file, one in a CSV of its own.
    sheets = [" ".join(x.split()) for x in page.locator(".sheets section").all_inner_texts()]
    assert sheets[0].startswith("Wolves AA 1 Oskar Nyberg 4 Elias Holm") and "Officials: Maria Lindqvist" in sheets[0]
    assert "91 Albin Karlsson" in sheets[1] and "Officials: Johan Persson" in sheets[1]
    expect(page.locator(".mirror .shootout")).to_contain_text("2–1 · Winner: Wolves AA")
    # The same events as open data: JSON for the match, CSV for the match and for the whole tournament.
    body = httpx.get(f"{day.server.url}/api/v1/matches/1/events", timeout=10).json()
    assert body["outcome"] == "regular"
    assert [(e["kind"], e["team"], e["player"], e["played"]) for e in body["events"]] == [
        ("penalty", "Bears AA", "91", "1:41"), ("goal", "Wolves AA", "13", "2:10"), ("goal", "Bears AA", None, "8:40"),
        ("goal", "Wolves AA", None, "11:50")]
    assert body["events"][0]["penalty"] == "minor" and body["events"][0]["length_s"] == 120
    whole = httpx.get(f"{day.server.url}/api/v1/events.csv", timeout=10).text.splitlines()
    assert whole[0].startswith("number,class,stage,seq,period") and len(whole) == 5
    assert whole == httpx.get(f"{day.server.url}/api/v1/matches/1/events.csv", timeout=10).text.splitlines()
    assert "1,,A," in whole[2] and ",goal,Wolves AA,13," in whole[2]  # the open data: numbers, as the table sent
    for missing in ("/api/v1/matches/999/events", "/api/v1/matches/999/events.csv", "/match/999/report.pdf"):
        answer = httpx.get(f"{day.server.url}{missing}", timeout=10)
        assert answer.status_code == 404, missing  # a match the schedule lacks: said so, not an empty list
    # The match report: the service's PDF from its stored events, and `courtside report` from the table's journal
    # alone give the same match and the same journal digest.
    served = httpx.get(f"{day.server.url}/match/1/report.pdf", timeout=30)
    assert served.headers["content-type"] == "application/pdf"
    text = _pdf_text(served.content)
    assert "Match report · Spring ice hockey cup (example)" in text and "Wolves AA 2-1 Bears AA" in text
    assert "Decided in regular time. Winner: Wolves AA." in text
    assert "Period 1 1:41 Bears AA Minor #91 Albin Karlsson (2:00) 0-0" in text
    assert "Period 2 11:50 Wolves AA Goal 2-1" in text and "Wolves AA: 1 Oskar Nyberg, 4 Elias Holm" in text
    assert "Referee: name" in text and "Table official: name" in text
    journal = day.tmp / "j" / "court-Rink-match-1.jsonl"
    made = subprocess.run([sys.executable, "-m", "courtside", "report", str(journal), "--out", str(day.tmp / "r.pdf")],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert made.returncode == 0, made.stderr
    own = _pdf_text((day.tmp / "r.pdf").read_bytes())
    digest = text[text.index("sha256 ") + 7:][:64]
    assert len(digest) == 64 and f"sha256 {digest}" in own and "Period 2 11:50 Wolves AA Goal 2-1" in own
    # The scorers and the cards: #13's goal (the others had no number), #91's minor in match 1.
    page.goto(f"{day.server.url}/scorers")
    assert [" ".join(r.split()) for r in page.locator("table.standings tbody tr").all_inner_texts()] == [
        "1 #13 Hugo Ekström Wolves AA 1"]
    assert [" ".join(r.split()) for r in page.locator("table.matches tbody tr").all_inner_texts()] == [
        "#1 #91 Albin Karlsson Bears AA Minor 1:41 –"]
    # A correction at the desk: the page shows the result that counts, and says what it replaced and why.
    from rules.standings import MatchResult
    from server.desk_commands import CorrectResult

    corrected = MatchResult(pool="A", home="Wolves AA", away="Bears AA", home_goals=3, away_goals=1)
    day.backend.submit(CorrectResult(who="anna", why="the referee's sheet", number=1, confirmed=True, result=corrected))
    page.goto(f"{day.server.url}/match/1")
    expect(page.locator(".note")).to_have_text(
        "Result entered at the desk · it replaces 2-1 · Why: the referee's sheet")
    expect(page.locator(".mirror .shootout")).to_contain_text("3–1 · Winner: Wolves AA")


def _pdf_text(data: bytes) -> str:
    """A PDF's text read back, its whitespace made single spaces."""
    import io

    from pypdf import PdfReader

    return " ".join(" ".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages).split())


def test_every_place_a_match_appears_links_its_page_and_an_unknown_one_is_not_found(day: Day) -> None:
    for path in ("/schedule", "/pool/A", "/court/Rink", "/team/Wolves%20AA"):
        assert 'href="/match/1"' in httpx.get(day.server.url + path, timeout=10).text, path
    assert httpx.get(day.server.url + "/match/999", timeout=10).status_code == 404
    page = httpx.get(day.server.url + "/match/1", timeout=10).text
    assert "Wolves AA" in page and "Bears AA" in page and "The match has not started." in page


def test_the_desk_reads_the_whole_log_the_public_page_what_counts(day: Day) -> None:
    """A goal pressed by mistake and undone: the match's page never lists it; the desk's log shows it struck
    through, with the undo that took it back, each with its seq and when it reached the service."""
    from rules import ClockStarted, Goal, Match, PenaltyAwarded, event_to_dict, load_ruleset
    from rules.match import Undo
    from tests.service_support import TableClient
    from tests.web_support import PASSWORD, desk_client

    match = Match(load_ruleset("ice-hockey"))
    # The undo takes the goal back and the clock with it: it ran on as if the goal was never pressed.
    for event in (ClockStarted(at=0), Goal(at=30_000, team="away", player="8"), Undo(at=35_000, target=2),
                  PenaltyAwarded(at=90_000, team="home", kind="minor", player="3")):
        match.apply(event)
    table = TableClient(day.broker, "ice-hockey", "rink")
    try:
        for e in match.events:
            table.send_event("1", event_to_dict(e))
        table.wait_for("ack", lambda a: a.payload["of"] == "event" and a.payload["through"] == 4)
    finally:
        table.close()
    public = httpx.get(f"{day.server.url}/match/1", timeout=10).text
    assert "#8" not in public and "Minor · Wolves AA #3 (2:00)" in " ".join(public.split())
    app = create_app(day.backend, secure_cookies=False, lang="en")
    app.state.site.accounts.add("anna", PASSWORD)
    with desk_client(app) as (client, _token):
        desk = client.get("/desk/match/1").text
    log = desk[desk.index('id="table-log"'):]
    rows = [" ".join(r.split()) for r in log.split("<tr")[2:]]
    assert len(rows) == 4
    assert rows[1].startswith('class="undone"><td class="num">2</td><td>0:30</td><td><del>goal Bears AA #8</del>')
    assert '<td class="num">3</td><td>0:35</td><td>undo seq 2</td>' in rows[2]
    assert "penalty_awarded Wolves AA #3 minor" in rows[3] and "undone" not in rows[3]


def test_the_desk_changes_a_team_sheet_checked_as_the_files_and_not_while_the_team_plays(day: Day) -> None:
    from rules import ClockStarted, event_to_dict
    from tests.service_support import TableClient
    from tests.web_support import PASSWORD, desk_client

    app = create_app(day.backend, secure_cookies=False, lang="en")
    app.state.site.accounts.add("anna", PASSWORD)
    before = " ".join(httpx.get(f"{day.server.url}/match/1", timeout=10).text.split())  # its region rendered once
    assert "<b>91</b> Albin Karlsson" in before
    with desk_client(app) as (client, token):
        form = client.get("/desk/sheet?team=Bears%20AA").text
        assert "91,Albin Karlsson,player" in form and ",Johan Persson,official" in form  # the file's CSV sheet
        doubled = "number,name\n91,Albin Karlsson\n17,Melvin Åberg\n91,Emil Nord\n"
        refused = client.post("/desk/sheet", data={"csrf": token, "team": "Bears AA", "text": doubled, "why": "x"})
        assert refused.status_code == 409
        assert "line 4: #91 is already on line 2: a number is worn once" in refused.text
        assert "91,Emil Nord" in refused.text  # the text stays in the form to be mended
        mended = "number,name,role\n91,Emil Nord,player\n17,Melvin Åberg,player\n,Johan Persson,official\n"
        done = client.post("/desk/sheet", data={"csrf": token, "team": "Bears AA", "text": mended,
                                                "why": "Albin is ill; Emil wears 91"}, follow_redirects=False)
        assert done.status_code == 303, done.text
        sheet = " ".join(httpx.get(f"{day.server.url}/match/1", timeout=10).text.split())
        assert "<b>91</b> Emil Nord" in sheet and "Albin Karlsson" not in sheet
        # Match 1 starts (its table's first event): Wolves AA's sheet waits until the match is over.
        table = TableClient(day.broker, "ice-hockey", "rink")
        try:
            table.send_event("1", event_to_dict(ClockStarted(at=0, seq=1)))
            table.wait_for("ack", lambda a: a.payload["of"] == "event" and a.payload["through"] == 1)
        finally:
            table.close()
        playing = client.post("/desk/sheet", data={"csrf": token, "team": "Wolves AA", "why": "late change",
                                                   "text": "number,name\n13,Hugo Ekström\n"})
        assert playing.status_code == 409 and "Wolves AA is playing match 1 now" in playing.text
    assert "Oskar Nyberg" in httpx.get(f"{day.server.url}/match/1", timeout=10).text  # its sheet as it was

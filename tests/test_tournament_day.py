"""A whole tournament day through the real system, as a venue lives it (issue 19), nothing stood in.

Mosquitto started by the test; ``courtside server`` as a process on SQLite and on PostgreSQL; one
``courtside table`` process per court playing the simulated officials' press scripts through the mock pins
(courtside.demo's autoplay); Chromium and plain HTTP for what parents and the organiser see. While the tables
play: a table's power is cut in the middle of a match and comes back, the broker is restarted, the service
is killed and started again. The organiser enters a walk-over before a match is played and, once the day is
over, upholds a protest that sends another team through: the desk first says what it changes, then every
match already played by teams who should not have been there is flagged and entered again. What each person
sees is checked against the seed's rules and the results as stored, never against the pages' own output.

CI plays indoor hockey (seed 000) on both databases; ``pytest -m slow tests/test_tournament_day.py`` plays
all five seeds.
"""

from __future__ import annotations

import csv
import html
import io
import json
import os
import re
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest

from courtside.demo.autoplay import Autoplay
from courtside.demo.officials import Plan
from courtside.demo.organiser import ACCOUNT, Organiser
from courtside.demo.parts import courtside_argv, wait_until
from courtside.demo.progress import results_csv_for_show
from courtside.demo.venue import SEED_TOURNAMENTS, DemoOptions, Venue
from rules import words_for
from rules.tournament import load_tournament_ruleset, read_tournament_file
from tests.conftest import CHROMIUM, CHROMIUM_ARGS

VENUE_HOST = "courtside.venue.test"  # the organiser's tablet reaches the server by name, not as localhost


@dataclass
class Day:
    """What happened and what was seen while the tables played."""

    venue: Venue
    organiser: Organiser
    cut: int | None = None  # the match whose table lost power mid-match
    broker_restarted: bool = False
    service_restarted: bool = False
    walkover: int | None = None
    court_pages: list[str] = field(default_factory=list)  # a court page's scoreboard while its match was live


def start_day(mosquitto: Any, db_url: str, tmp_path: Path, tournament: str) -> tuple[Day, Any]:
    broker = mosquitto()
    options = DemoOptions(tournament=tournament, broker=broker.url, headless=True, autoplay=True, speed=0,
                          db_url=db_url, keep=tmp_path / "kept", server_args=("--trusted-lan",))
    venue = Venue(options)
    venue.start()
    organiser = Organiser(venue.web, ACCOUNT, venue.desk_password, seed=1, decisions=venue.workdir / "decisions.csv")
    return Day(venue, organiser), broker


def walkover_before_play(day: Day) -> None:
    """A team does not come to its last first-round match: the organiser enters the walk-over at the desk."""
    matches = day.venue.api.matches()
    pool = [m for m in matches if m["teams_known"] and m["stage"] == matches[0]["stage"]]
    last = max(pool, key=lambda m: m["number"])
    done = day.organiser.post(f"/api/v1/desk/matches/{last['number']}/walkover",
                              {"kind": "walkover", "winner": last["home"], "why": "the away team did not come"})
    assert done.status_code == 200, done.text
    day.walkover = int(last["number"])


def faults(day: Day, broker: Any, play: Autoplay, matches: list[dict[str, Any]]) -> None:
    """Mid-day: a table's power cut in a match, the broker restarted, the service killed; each once."""
    played = sum(m["result"] is not None for m in matches)
    if day.cut is None and played >= 2:
        stored = {m["number"] for m in matches if m["result"] is not None}
        for court in play.courts.values():
            if court.table is not None and court.playing is not None and court.playing not in stored \
                    and court.table.cut_power():
                day.cut = court.playing
                break
    if not day.broker_restarted and played >= 6:
        broker.restart()
        day.broker_restarted = True
    if not day.service_restarted and played >= 9:
        assert day.venue.service is not None
        day.venue.service.cut_power()
        wait_until(day.venue.api.ready, 90, "the standings service came back", day.venue.service)
        day.service_restarted = True


LIVE_LOOKS = 4  # matches held live for a parent's look, each with a penalty running (courtside.demo.presses)
LIVE_DEADLINE_S = 120.0  # for a held match to show live on its court page: only a fault takes this long


def hold_for_a_look() -> Callable[[int, Plan], bool]:
    """The first matches whose officials give a penalty are held live at their table (a cue in the press
    script) until a parent's phone has read their court page: seen on every run, at any speed."""
    held: list[int] = []

    def hold(number: int, plan: Plan) -> bool:
        if len(held) >= LIVE_LOOKS:
            return False
        held.append(number)
        return True

    return hold


def court_page_live(day: Day, court: str) -> str | None:
    """The court page's scoreboard when it shows its match live with a penalty on the board, else None."""
    try:
        page = httpx.get(f"{day.venue.web}court/{quote(court)}", timeout=10).text
    except httpx.TransportError:
        return None  # the service is being restarted (a fault of the day)
    if '<section class="mirror"' not in page:
        return None
    mirror = page[page.index('<section class="mirror"'):]
    mirror = mirror[:mirror.index("</section>")]
    live = 'class="badge live"' in mirror.split("</p>", 1)[0]
    return mirror if live and '<span class="label">' in mirror else None


def look_at_courts(day: Day, play: Autoplay) -> None:
    """A parent's phone on the court page of each match held live: read once it shows the match live with
    its penalty (the table stands at the cue until then), then the table is let go on."""
    for court in play.courts.values():
        cue = play.cues.get(court.playing) if court.playing is not None else None
        if cue is None or cue.exists():
            continue
        deadline = time.monotonic() + LIVE_DEADLINE_S
        while (mirror := court_page_live(day, court.name)) is None:
            assert time.monotonic() < deadline, f"match {court.playing} never showed live on its court page"
            time.sleep(0.1)
        day.court_pages.append(mirror)
        cue.touch()


def play_the_day(day: Day, broker: Any) -> None:
    """The officials play every match through the tables; the faults and a parent's looks happen meanwhile."""
    play = Autoplay(day.venue, hold=hold_for_a_look())

    def between(matches: list[dict[str, Any]]) -> None:
        faults(day, broker, play, matches)
        look_at_courts(day, play)

    play.run(between)
    assert len(day.court_pages) == len(play.cues) == LIVE_LOOKS, "every match held live was looked at"


def uphold_a_protest(day: Day) -> list[str]:
    """After the day, a first-round result turned round (a protest upheld): the desk says what it changes first;
    confirmed, every match whose result no longer fits is entered again with its new teams. The consequences."""
    matches = day.venue.api.matches()
    first_pool = matches[0]["stage"]
    told: list[str] = []
    chosen = None
    for m in [x for x in matches if x["stage"] == first_pool and x["result"] and x["number"] != day.walkover]:
        r = m["result"]
        body = {"home_goals": r["away_goals"], "away_goals": r["home_goals"], "why": "protest upheld"}
        if r["home_goals"] == r["away_goals"]:
            body["home_goals"] += 3
        url = f"/api/v1/desk/matches/{m['number']}/result"
        asked = day.organiser.post(url, body)
        # Replacing a stored result is always asked first, saying what it replaces; nothing is stored yet.
        assert asked.status_code == 409 and "consequences" in asked.json(), asked.text
        lines = asked.json()["consequences"]
        assert lines[0].startswith(f"it replaces match {m['number']}'s result"), lines
        lines = lines[1:]
        if not lines:
            continue  # nothing downstream
        if any("no longer count" in line for line in lines) or chosen is None:
            chosen, told = (m, body), lines
        if any("no longer count" in line for line in lines):
            break
    assert chosen is not None, "no first-round result changes anything downstream"
    m, body = chosen
    assert day.venue.api.matches()[m["number"] - 1]["result"] == m["result"]  # asking stored nothing
    done = day.organiser.post(f"/api/v1/desk/matches/{m['number']}/result", {**body, "confirm": True})
    assert done.status_code == 200, done.text
    for _ in range(len(matches)):  # each re-entry can free the next stage's teams
        stranded = [x for x in day.venue.api.matches() if x["to_be_played_again"] and x["teams_known"]]
        if not stranded:
            break
        assert 'id="set-aside"' in day.organiser.page("/desk")  # flagged on the desk, never dropped
        # A result that no longer counts is no match's result: the day is not over while one waits (issue 31).
        assert "Every match is played" not in httpx.get(day.venue.web, timeout=10).text
        x = stranded[0]
        again = day.organiser.post(f"/api/v1/desk/matches/{x['number']}/result",
                                   {"home_goals": 2, "away_goals": 1, "why": "played again with the right teams",
                                    "confirm": True})
        assert again.status_code == 200, again.text
    return told


def shown_ranking(day: Day, tmp_path: Path) -> list[str | None]:
    """``courtside tournament show`` on the results the service stored: the seed's rules, worked out apart."""
    results = tmp_path / "results.csv"
    results.write_text(results_csv_for_show(day.venue.api.results_csv()), encoding="utf-8")
    decisions = day.venue.workdir / "decisions.csv"
    extra = ["--decisions", str(decisions)] if decisions.exists() else []
    shown = subprocess.run(courtside_argv("tournament", "show", str(day.venue.file), "--results", str(results),
                                          "--format", "json", *extra),
                           capture_output=True, text=True, timeout=120, check=False)
    assert shown.returncode == 0, shown.stderr
    ranking: list[str | None] = json.loads(shown.stdout)["final_ranking"]
    return ranking


def check_parents(day: Day) -> None:
    web = day.venue.web
    # The court page during play: period, clock (in the HTML itself) and every penalty with its kind and time,
    # on the matches held live for it.
    live = day.court_pages
    assert live, "no court page was seen during a match"
    tournament = read_tournament_file(day.venue.file)
    ruleset = load_tournament_ruleset(tournament, str(day.venue.file))
    words = words_for(tournament.language)  # the pages speak the tournament's language
    kinds = {words.gettext(k.label) for k in ruleset.penalties.kinds.values()}
    shown_kinds: set[str] = set()
    for section in live:
        mirror = html.unescape(section)
        assert re.search(r"<span class=\"period\">[^<]*\w[^<]*</span>", mirror), mirror  # "half 2", "1. polčas"
        assert re.search(r'class="clock"[^>]*>\d+:\d\d<', mirror), mirror
        for kind, left in re.findall(r'<span class="label">([^<]+)</span>\s*<span class="left"[^>]*>([^<]*)<',
                                     mirror, re.S):
            assert re.fullmatch(r"\d+:\d\d|\w+", left.split(" (")[0]), (kind, left)  # its time, or "match"
            shown_kinds.add(kind)
    assert shown_kinds and shown_kinds <= kinds  # each penalty with its kind's name ("Minor", "Gult kort")
    # Pool pages count and list the same matches, carried-forward results included.
    for pool in httpx.get(f"{web}api/v1/tournament", timeout=10).json()["pools"]:
        data = httpx.get(f"{web}api/v1/pools/{quote(pool)}", timeout=10).json()
        page = httpx.get(f"{web}pool/{quote(pool)}", timeout=10).text
        listed = len(re.findall(r'<td class="pair">', page))  # its own matches and those it carries forward
        assert sum(row["played"] for row in data["table"]) == 2 * listed, pool
    # The bracket filled: every classification match with its two teams.
    pools = httpx.get(f"{web}api/v1/tournament", timeout=10).json()["pools"]
    bracket = httpx.get(f"{web}bracket", timeout=10).text.replace("&amp;", "&").replace("&#39;", "'")
    for m in day.venue.api.matches():
        if m["stage"] not in pools:
            assert m["result"] is not None and m["home"] in bracket and m["away"] in bracket, m


def test_a_tournament_day_on_the_real_system(mosquitto: Any, db_url: str, tmp_path: Path) -> None:
    day, broker = start_day(mosquitto, db_url, tmp_path, "indoor-hockey")
    try:
        walkover_before_play(day)
        play_the_day(day, broker)
        assert day.cut is not None and day.broker_restarted and day.service_restarted

        # Nothing lost or doubled: one result per match, every one as the engine replays its stored events.
        matches = day.venue.api.matches()
        assert all(m["result"] is not None for m in matches)
        rows = list(csv.DictReader(io.StringIO(day.venue.api.results_csv())))
        assert len(rows) == len(matches)
        walked = next(m for m in matches if m["number"] == day.walkover)
        assert walked["result"]["outcome"] == "walkover"
        check_parents(day)

        # The organiser upholds a protest after the day: told first, then everything downstream follows.
        told = uphold_a_protest(day)
        assert told and any("would be" in line or "no longer count" in line for line in told)
        ranking = [r["team"] for r in day.venue.api.ranking()]
        assert ranking == shown_ranking(day, tmp_path)
        assert all(r["needs"] is None for r in day.venue.api.ranking())
        home = httpx.get(day.venue.web, timeout=10).text.replace("&amp;", "&")
        assert ranking[0] in home  # the champion on the home page once the final is played

        # A second device on the venue's network logs in to the desk over plain HTTP, as --trusted-lan allows.
        second_device_logs_in(day)
        # A second screen on a court, from the broker alone: the day's tables between matches.
        venue_screen(day, broker.url, tmp_path / "hall-1.png")
    finally:
        day.organiser.close()
        day.venue.stop()


def venue_screen(day: Day, broker_url: str, out: Path) -> None:
    shown = subprocess.run(courtside_argv("display", "follow", "--court", "Hall 1", "--broker", broker_url,
                                          "--tournament", str(day.venue.file), "--size", "1280x720", "--frames", "3",
                                          "--out", str(out)),
                           capture_output=True, text=True, timeout=120, check=False,
                           env={**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"})
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout.strip().splitlines()[-1])["refused"] == 0  # every message the screen read fit
    assert out.stat().st_size > 0


def second_device_logs_in(day: Day) -> None:
    playwright = pytest.importorskip("playwright.sync_api")
    port = day.venue.http_port
    url = f"http://{VENUE_HOST}:{port}"
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM,
                                    args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {VENUE_HOST} 127.0.0.1"])
        try:
            page = browser.new_context().new_page()
            page.goto(f"{url}/desk/login")
            page.fill("#name", ACCOUNT)
            page.fill("#password", day.venue.desk_password)
            page.click("button[type=submit]")
            playwright.expect(page).to_have_url(f"{url}/desk")
        finally:
            browser.close()


@pytest.mark.slow
@pytest.mark.parametrize("tournament", SEED_TOURNAMENTS)
def test_every_seed_s_day(mosquitto: Any, pg_url: str, tmp_path: Path, tournament: str) -> None:
    day, broker = start_day(mosquitto, pg_url, tmp_path, tournament)
    organiser = tournament == "youth-football"  # seed 003: a protest is upheld within its hour
    try:
        if organiser:
            walkover_before_play(day)
        play_the_day(day, broker)
        assert all(m["result"] is not None for m in day.venue.api.matches())
        check_parents(day)
        if organiser:
            assert uphold_a_protest(day)
        ranking = [r["team"] for r in day.venue.api.ranking()]
        assert ranking == shown_ranking(day, tmp_path)
    finally:
        day.organiser.close()
        day.venue.stop()

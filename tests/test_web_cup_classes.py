"""A cup of four classes over the real service: tables playing through Mosquitto, the service on PostgreSQL, the
pages and the API, and Chromium at phone width. Two classes keep their results off the pages (P10 and F10,
children's football); two publish them (P13 and F13, with an A and a B play-off)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from rules.court_schedule import CourtSchedule
from tests.service_support import TableClient
from tests.web_day import YouthCup, youth_cup_day


@pytest.fixture(scope="module")
def cup() -> Iterator[YouthCup]:
    from tests.conftest import _postgres_database

    with _postgres_database() as url, youth_cup_day(url) as day:
        yield day


def test_each_class_is_ranked_by_its_own_rules_and_its_play_offs_get_their_teams(cup: YouthCup) -> None:
    v = cup.view()
    assert [c.name for c in v.classes] == ["P10", "F10", "P13", "F13"]
    assert {m.class_name for m in v.matches if m.recorded is not None} == {"P10", "F10", "P13", "F13"}
    p13 = cup.service.store.class_progress()["P13"]
    a, b = (p13.pools[name].table for name in ("P13-A", "P13-B"))
    assert a is not None and b is not None
    semi = v.by_number[next(m.number for m in v.matches if m.stage == "P13-ASF1")]
    assert (semi.home, semi.away) == (a.rows[0].team, b.rows[1].team)  # "1 P13-A" v "2 P13-B", as written
    assert semi.recorded is not None
    final = next(m for m in v.matches if m.stage == "P13-AF")
    assert final.home_known and final.away_known and final.recorded is None


def test_the_home_page_and_each_class_page_count_the_classs_matches_played(cup: YouthCup) -> None:
    v = cup.view()
    home = cup.get("/").text
    for c in v.classes:
        matches = [m for m in v.matches if m.class_name == c.name]
        played = sum(m.recorded is not None for m in matches)
        assert played > 0
        assert f"{played}/{len(matches)} played" in cup.get(f"/class/{c.name}").text
        assert f'<b>{c.name}</b></a> <span class="meta">{len(c.tournament.teams)} teams · {played}/{len(matches)} ' \
               "played" in home


def test_a_court_schedule_names_each_matchs_class_for_its_table(cup: YouthCup) -> None:
    cid = cup.table("7v7 Plan 1").court
    table = TableClient(cup.broker, cup.service.plan.id, cid)  # a table starting up: the retained schedule
    try:
        message = table.wait_for("schedule", lambda m: isinstance(m.body, CourtSchedule) and m.body.matches)
        wire = [raw for topic, raw in table.raw if topic.endswith("/schedule")]
    finally:
        table.close()
    assert isinstance(message.body, CourtSchedule)
    # A 7 v 7 pitch plays two classes, each match named with its class (the table plays it by that class's rules).
    assert {m.class_name for m in message.body.matches} == {"P10", "F10"}
    assert wire and b'"class":"P10"' in wire[-1].replace(b" ", b"")


def test_an_unpublished_class_shows_who_played_never_a_score_or_a_table(cup: YouthCup) -> None:
    v = cup.view()
    p10 = next(m for m in v.matches if m.class_name == "P10" and m.recorded is not None)
    body = cup.get(f"/api/v1/matches/{p10.number}").json()["match"]
    assert body["class"] == "P10" and body["published"] is False and body["played"] is True
    assert body["result"] is None
    pool = cup.get("/api/v1/pools/P10-A").json()
    assert pool["table"] == [] and len(pool["teams"]) == 4
    events = cup.get(f"/api/v1/matches/{p10.number}/events").json()  # its goals would tell the score
    assert events["published"] is False and events["events"] == [] and events["outcome"] is None
    assert f"\n{p10.number}," not in cup.get("/api/v1/events.csv").text
    assert "This class's results and tables are not published." in cup.get("/scorers?class=P10").text
    match_page = cup.get(f"/match/{p10.number}").text
    assert "This class's results and tables are not published." in match_page and "Full time" in match_page
    assert all(m["result"] is None for m in pool["matches"])
    assert cup.get("/api/v1/ranking?class=P10").json()["ranking"] == []
    results = cup.get("/api/v1/results.csv").text
    assert "P10-A" not in results and "F10" not in results and "P13-A" in results
    standings = cup.get("/api/v1/standings.csv").text
    assert "P10-A" not in standings and "P13-A" in standings
    page = cup.get("/pool/P10-A").text
    assert "not published" in page and "Pts" not in page
    score = p10.score.replace("–", "-")
    team_page = cup.get(f"/team/{p10.home}").text
    assert "played" in team_page and p10.score not in team_page and score not in team_page
    assert "Place" not in team_page and "/4</h2>" not in team_page  # no place in an unpublished pool


def test_a_published_class_shows_its_scores_table_and_bracket(cup: YouthCup) -> None:
    v = cup.view()
    p13 = next(m for m in v.matches if m.class_name == "P13" and m.recorded is not None)
    body = cup.get(f"/api/v1/matches/{p13.number}").json()["match"]
    assert body["published"] is True and body["result"]["home_goals"] == 2
    assert len(cup.get("/api/v1/pools/P13-A").json()["table"]) == 4
    bracket = cup.get("/bracket?class=P13").text
    assert "P13-ASF1" in bracket and "P13-AF" in bracket and "F13-ASF1" not in bracket
    ranking = cup.get("/api/v1/ranking?class=P13").json()
    assert ranking["class"] == "P13" and len(ranking["ranking"]) == 8
    assert cup.get("/ranking?class=P99").status_code == 404


def test_the_schedule_and_the_api_filter_by_class(cup: YouthCup) -> None:
    listed = cup.get("/api/v1/matches?class=F13").json()
    assert listed["total"] == 20 and {m["class"] for m in listed["matches"]} == {"F13"}
    page = cup.get("/schedule?class=P10").text
    assert page.count("Pool P10-") == 12 and "P13-A" not in page
    assert cup.get("/schedule?class=P99").status_code == 404
    tournament = cup.get("/api/v1/tournament").json()
    assert [c["name"] for c in tournament["classes"]] == ["P10", "F10", "P13", "F13"]
    assert tournament["classes"][0] == {"name": "P10", "ruleset": "youth-football-7v7", "published": False,
                                        "pools": ["P10-A", "P10-B"]}


def test_at_phone_width_the_home_page_leads_to_the_classes(cup: YouthCup, chromium: Any) -> None:
    page = chromium.new_page(viewport={"width": 390, "height": 844})
    try:
        page.goto(cup.server.url + "/")
        header = page.locator("header.top").bounding_box()
        assert header is not None and header["height"] < 844 / 2  # the header is never a screen of links
        classes = page.locator("ul.classes li")
        assert classes.count() == 4
        page.locator("ul.classes a", has_text="P10").click()
        page.wait_for_url("**/class/P10")
        assert "not published" in page.locator("main").inner_text()
        assert page.locator("table.standings th", has_text="Pts").count() == 0
        page.goto(cup.server.url + "/class/P13")
        assert page.locator("table.standings").count() == 2
        page.locator("nav a", has_text="Schedule").last.click()
        page.wait_for_url("**/schedule?class=P13")
        assert page.locator("table.schedule tbody tr").count() == 20
        assert page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing wider than the phone
    finally:
        page.close()


def test_the_desk_moves_a_match_only_to_a_pitch_of_its_class(cup: YouthCup) -> None:
    from server.desk import DeskError
    from server.desk_commands import MoveMatch

    final = next(m for m in cup.view().matches if m.stage == "P13-AF")
    flooded = {"who": "anna", "why": "the big pitch is flooded", "number": final.number, "start": final.start}
    with pytest.raises(DeskError) as refused:
        cup.backend.submit(MoveMatch(court="7v7 Plan 1", **flooded))  # type: ignore[arg-type]
    assert "class P13 does not play on 7v7 Plan 1" in str(refused.value) and refused.value.field == "court"
    assert cup.view().by_number[final.number].court == final.court  # nothing stored
    other = next(c for c in ("11v11 Plan 3", "11v11 Plan 4", "11v11 Plan 5") if c != final.court)
    cup.backend.submit(MoveMatch(court=other, **flooded))  # type: ignore[arg-type]
    assert cup.view().by_number[final.number].court == other


def test_a_result_works_out_its_own_class_again_and_no_other(cup: YouthCup) -> None:
    from tests.service_support import played

    store = cup.service.store
    before = store.class_progress()
    bronze = next(m for m in cup.view().matches if m.stage == "P13-B3")
    events, result = played(cup.service.plan.ruleset_of("P13-B3"), 3, 0, kind="knockout", round=bronze.round)
    cup.play_match(bronze.court, bronze.number, events, result)
    after = store.class_progress()
    assert after["P13"] is not before["P13"] and after["P13"].matches["P13-B3"].result is not None
    assert all(after[name] is before[name] for name in ("P10", "F10", "F13"))  # not worked out again


def test_the_desk_of_one_class_lists_its_own_matches_and_waits(cup: YouthCup) -> None:
    import re

    from server.web import create_app
    from tests.web_support import PASSWORD, desk_client

    def matches_listed(html: str) -> set[int]:
        """The matches the desk's list of matches links (the courts above it show every pitch's now and next)."""
        listed = html[html.index('id="desk-matches"'):html.index('id="desk-audit"')]
        return {int(n) for n in re.findall(r'href="/desk/match/(\d+)"', listed)}

    app = create_app(cup.backend, secure_cookies=False, lang="en")
    app.state.site.accounts.add("anna", PASSWORD)
    v = cup.view()
    with desk_client(app) as (client, _token):
        whole = client.get("/desk").text
        assert '<a href="/desk?class=P13">P13</a>' in whole  # every class's desk leads to each class's
        page = client.get("/desk?class=P13")
        assert page.status_code == 200 and "Class P13" in page.text
        listed = matches_listed(page.text)
        assert listed and listed <= {m.number for m in v.class_matches("P13")}  # the class's (a day at most)
        assert client.get("/desk?class=P99").status_code == 404
        day = v.class_matches("F13")[0].start.date().isoformat()
        assert matches_listed(client.get(f"/desk?class=F13&day={day}").text) == {
            m.number for m in v.class_matches("F13") if m.start.date().isoformat() == day}

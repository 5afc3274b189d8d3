"""The disciplinary register over the real service (seed 003: a player sent off misses the team's next
match): a red card a table sends, during play or entered after the final whistle, is on the desk's register
and on the team's page for the match the player misses, the same as in the schedule the table is sent."""

from __future__ import annotations

import html
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from rules.match import Match, PenaltyAwarded, event_from_dict, event_to_dict
from rules.ruleset import load_ruleset
from server.plan import load_plan
from server.web import create_app
from server.web.service_backend import ServiceBackend
from tests.service_support import TableClient, played, running_service
from tests.web_support import PASSWORD, desk_client

YOUTH = Path(__file__).resolve().parent.parent / "rules" / "examples" / "youth-football.toml"
RULES = load_ruleset("youth-football")
OREBRO = "Örebro SK P14"  # away in match 2 (Plan 2); next match 7 on Plan 1, then 14


def _wait_for(ok: Any, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not ok():
        assert time.monotonic() < deadline, "gave up waiting"
        time.sleep(0.05)


def _suspended_in(m: Any, match: str) -> list[dict[str, Any]]:
    return next((x.get("suspended", []) for x in m.payload["matches"] if x["match"] == match), [])


@pytest.mark.parametrize("after_the_whistle", [False, True])
def test_a_red_card_from_a_table_is_on_the_desks_register_and_the_teams_page(
        mosquitto: Any, tmp_path: Path, after_the_whistle: bool) -> None:
    broker = mosquitto()
    db = f"sqlite:///{tmp_path / 'courtside.db'}"
    with running_service(db, broker.url, plan=load_plan(YOUTH)) as service:
        app = create_app(ServiceBackend(service), accounts_url=db, lang="en", secure_cookies=False)
        app.state.site.accounts.add("anna", PASSWORD)
        with desk_client(app) as (client, _csrf):
            # Read once before the card, as an open desk and an open team page would have.
            assert "No player is reported." in client.get("/desk").text
            plan_2 = TableClient(broker.url, service.plan.id, "plan-2")
            plan_1 = TableClient(broker.url, service.plan.id, "plan-1")
            try:
                cards = [] if after_the_whistle else [("away", "red", "11")]
                events, result = played(RULES, 1, 2, cards=cards)  # type: ignore[arg-type]
                plan_2.play("2", events, result)
                plan_2.wait_for("ack", lambda m: m.payload["of"] == "result")
                if after_the_whistle:  # the officials enter the card once the result is sent and shown
                    plan_2.wait_for("table", lambda m: m.payload["pool"] == "A" and m.payload["played"] == 1)
                    _wait_for(lambda: "1–2" in client.get("/pool/A").text)
                    assert "No player is reported." in client.get("/desk").text
                    match = Match.replay(RULES, [event_from_dict(e, "test") for e in events])
                    match.apply(PenaltyAwarded(at=match.last_at + 30_000, team="away", kind="red", player="11"))
                    plan_2.send_event("2", event_to_dict(match.events[-1]))
                # The service has worked the suspension out once the next match's court is told of it.
                plan_1.wait_for("schedule", lambda m: _suspended_in(m, "7"))
            finally:
                plan_1.close()
                plan_2.close()
            # The service tells its pages after it has published to the courts: the desk may read the moment
            # before (a few milliseconds), so it is read until the register shows the card.
            _wait_for(lambda: f"11 ({OREBRO})" in html.unescape(client.get("/desk").text))
            desk = html.unescape(client.get("/desk").text)
            start = desk.index("Disciplinary register")
            register = desk[start:desk.index("</table>", start)]
            assert f"11 ({OREBRO})" in register and ", #2" in register
            assert 'href="/desk/match/7">#7</a>' in register and "#14" not in register
            team = html.unescape(client.get(f"/team/{quote(OREBRO)}").text)
            assert "Player #11 is suspended for this match" in team and "match 2)" in team
            assert client.get("/api/v1/matches/7").json()["match"]["suspended"] == [
                {"team": OREBRO, "player": "11", "for": team.split("Player #11 is suspended for this match (")[1]
                 .split(",")[0]}]
            assert client.get("/api/v1/matches/14").json()["match"]["suspended"] == []

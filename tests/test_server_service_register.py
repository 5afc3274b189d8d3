"""server/register.py through the service, against a real Mosquitto and database: a player sent off is
listed in the schedule of the team's next match, on whichever court it is, and the organiser's ruling on a
reported card decides how many matches he misses."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rules import protocol as p
from rules.match import Match, PenaltyAwarded, event_from_dict, event_to_dict
from rules.ruleset import load_ruleset
from server.desk_commands import RuleSanction
from server.plan import load_plan
from server.register import Register
from server.service import Service
from server.store import Store
from server.web.service_backend import ServiceBackend
from tests.service_support import TableClient, played, running_service, stored_with_ids
from tests.test_protocol import schema_for

EXAMPLES = Path(__file__).resolve().parent.parent / "rules" / "examples"
YOUTH = EXAMPLES / "youth-football.toml"


def suspended_in(m: p.Message, match: str) -> list[dict[str, Any]]:
    return next(x.get("suspended", []) for x in m.payload["matches"] if x["match"] == match)


def test_a_red_card_suspends_the_player_for_his_teams_next_match_on_another_court(mosquitto: Any,
                                                                                 db_url: str) -> None:
    # Seed 003: a red card misses the next match. Match 2 (Plan 2) is AIK v Örebro; Örebro's next match is
    # match 7 on Plan 1 (Örebro at home), then match 14 on Plan 3.
    broker = mosquitto()
    rules = load_ruleset("youth-football")
    with running_service(db_url, broker.url, plan=load_plan(YOUTH)) as service:
        plan_2 = TableClient(broker.url, service.plan.id, "plan-2")
        plan_1 = TableClient(broker.url, service.plan.id, "plan-1")
        events, result = played(rules, 1, 2, cards=[("away", "red", "7"), ("home", "yellow", "5")])
        plan_2.play("2", events, result)
        plan_2.wait_for("ack", lambda m: m.payload["of"] == "result")
        schedule = plan_1.wait_for("schedule", lambda m: suspended_in(m, "7"))
        assert suspended_in(schedule, "7") == [{"side": "home", "player": "7", "kind": "red", "label": "Rött kort",
                                                "given_in": 2, "matches_left": 1}]
        assert [x["match"] for x in schedule.payload["matches"] if "suspended" in x] == ["7"]
        schema_for("schedule")[1].validate(schedule.to_dict())
        # A yellow card alone costs nothing; the court that played match 2 has nobody suspended.
        own = plan_2.wait_for("schedule", lambda m: any(x["match"] == "2" and x["status"] == "finished"
                                                        for x in m.payload["matches"]))
        assert not any("suspended" in x for x in own.payload["matches"])
        plan_1.close()
        plan_2.close()
    for topic, raw in plan_1.raw:  # everything the service sent to Plan 1's table fits docs/asyncapi.yaml
        if p.parse_topic(topic).kind == "schedule":
            schema_for("schedule")[1].validate(json.loads(raw))


def test_the_organisers_ruling_on_a_reported_red_card_sets_how_many_matches_are_missed(mosquitto: Any,
                                                                                       db_url: str) -> None:
    # Indoor hockey: a red card goes to the organisers and suspends nobody by itself. Slavia Praha (away in
    # match 1, Hall 1) play next match 6 then match 10, both on Hall 2.
    broker = mosquitto()
    rules = load_ruleset("indoor-hockey")
    with running_service(db_url, broker.url) as service:
        backend = ServiceBackend(service)
        hall_1 = TableClient(broker.url, service.plan.id, "hall-1")
        hall_2 = TableClient(broker.url, service.plan.id, "hall-2")
        events, result = played(rules, 2, 0, cards=[("away", "red", "9")])
        hall_1.play("1", events, result)
        hall_1.wait_for("ack", lambda m: m.payload["of"] == "result")
        hall_1.wait_for("schedule", lambda m: any(x["match"] == "1" and x["status"] == "finished"
                                                  for x in m.payload["matches"]))
        [report] = [s for s in backend.data().sanctions if s.number == 1]
        assert (report.team, report.player, report.needs_decision, report.suspended_matches) == (
            "Slavia Praha", "9", True, 0)
        assert Register(service.store).suspended()[0] == {}  # a register of its own: the loop owns the service's
        backend.submit(RuleSanction(who="anna", why="disciplinary committee", number=1, team="Slavia Praha",
                                    player="9", matches=2))
        schedule = hall_2.wait_for("schedule", lambda m: suspended_in(m, "6"))
        assert [(x["match"], x["suspended"][0]["side"], x["suspended"][0]["matches_left"])
                for x in schedule.payload["matches"] if "suspended" in x] == [("6", "home", 2), ("10", "away", 1)]
        schema_for("schedule")[1].validate(schedule.to_dict())
        # A second ruling replaces the first: one match, so match 10 is free again.
        backend.submit(RuleSanction(who="anna", why="appeal upheld", number=1, team="Slavia Praha", player="9",
                                    matches=1))
        schedule = hall_2.wait_for("schedule", lambda m: suspended_in(m, "6") and not suspended_in(m, "10"))
        assert suspended_in(schedule, "6")[0]["matches_left"] == 1
        hall_1.close()
        hall_2.close()


def test_nothing_to_replay_while_no_card_can_suspend(mosquitto: Any, db_url: str) -> None:
    # The register reads the penalty events since its last call and replays nothing while none may sanction.
    broker = mosquitto()
    rules = load_ruleset("indoor-hockey")
    with running_service(db_url, broker.url) as service:
        hall_1 = TableClient(broker.url, service.plan.id, "hall-1")
        events, result = played(rules, 1, 1, cards=[("home", "yellow", "4")])
        hall_1.play("1", events, result)
        hall_1.wait_for("ack", lambda m: m.payload["of"] == "result")
        register = Register(service.store)
        assert register.suspended() == ({}, set())
        assert register._candidates == set() and register._seen > 0
        hall_1.close()


def test_a_red_card_entered_after_the_final_whistle_reaches_the_next_matchs_schedule(mosquitto: Any,
                                                                                      db_url: str) -> None:
    # The table enters the card once the match is over and its result sent: the card is an event after the
    # match's first, which changes no schedule by itself, but it must still reach Plan 1's (match 7).
    broker = mosquitto()
    rules = load_ruleset("youth-football")
    with running_service(db_url, broker.url, plan=load_plan(YOUTH)) as service:
        plan_2 = TableClient(broker.url, service.plan.id, "plan-2")
        plan_1 = TableClient(broker.url, service.plan.id, "plan-1")
        events, result = played(rules, 1, 2)
        plan_2.play("2", events, result)
        plan_2.wait_for("ack", lambda m: m.payload["of"] == "result")
        match = Match.replay(rules, [event_from_dict(e, "test") for e in events])
        match.apply(PenaltyAwarded(at=match.last_at + 30_000, team="away", kind="red", player="11"))
        plan_2.send_event("2", event_to_dict(match.events[-1]))
        schedule = plan_1.wait_for("schedule", lambda m: suspended_in(m, "7"))
        assert [(x["player"], x["given_in"]) for x in suspended_in(schedule, "7")] == [("11", 2)]
        plan_1.close()
        plan_2.close()


def test_a_red_card_the_events_range_passed_over_suspends_once_its_match_has_its_result(db_url: str) -> None:
    """The register reads the penalties above the last event id it read. With two instances on PostgreSQL, the
    red card's transaction may take an id below one already read and commit after it: the range passes it over,
    and the player was never suspended. A result is stored only once all its match's events are: the register
    reads the penalties of each match whose result is new."""
    plan = load_plan(YOUTH)
    store = Store.open(db_url, plan)
    try:
        service = Service(store, "mqtt://127.0.0.1:9", group=None)  # never connected: its messages stay queued
        events, result = played(load_ruleset("youth-football"), 1, 2, cards=[("away", "red", "7")])
        assert events[1]["type"] == "penalty_awarded"
        stored_with_ids(store, "2", [(100, events[0])])
        stored_with_ids(store, "1", [(1000, events[0])])  # another match's, read before the card commits
        register = Register(store)
        assert register.suspended() == ({}, set())
        stored_with_ids(store, "2", list(enumerate(events[1:], start=200)))
        court = plan.court_id(plan.fixtures["2"].court)
        service._messages([(p.court_topic(plan.id, court, "result"), p.encode(p.result_message(
            id="result", court=court, match="2", seq=events[-1]["seq"], result=result)))], set(), set())
        suspended, courts = register.suspended()
        assert [(x["player"], x["kind"]) for x in suspended["7"]] == [("7", "red")]
        assert courts == {plan.court_id(plan.fixtures["7"].court)}
    finally:
        store.close()

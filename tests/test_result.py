"""The result contract (rules/result.py): built from the engine's outcome, read back checked, one crossing to the
standings; every kind of ending played on the engine."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rules import protocol
from rules.errors import ProtocolError
from rules.match import (
    ClockStarted,
    Forfeit,
    Goal,
    Match,
    MatchAbandoned,
    MatchOutcome,
    ShootoutAttempt,
    Walkover,
)
from rules.result import (
    FIELDS,
    RUN_OUT_MS,
    Result,
    of_standings,
    read_result,
    result_of,
    result_payload,
    standings_result,
    winner_side,
    winner_team,
)
from rules.ruleset import load_ruleset

S = 1000
MIN = 60 * S


def _regular() -> Match:
    m = Match(load_ruleset("youth-football"))
    m.apply(ClockStarted(at=0))
    m.apply(Goal(at=MIN, team="away"))
    m.apply(ClockStarted(at=25 * MIN))
    return m


def _overtime() -> Match:
    m = Match(load_ruleset("indoor-hockey"), stage="knockout")
    m.apply(ClockStarted(at=0))
    m.apply(ClockStarted(at=25 * MIN))
    m.apply(ClockStarted(at=47 * MIN))
    m.apply(Goal(at=48 * MIN, team="home"))
    return m


def _shootout() -> Match:
    m = Match(load_ruleset("indoor-football"), stage="knockout")
    m.apply(ClockStarted(at=0))
    m.apply(ClockStarted(at=11 * MIN))
    for i, team in enumerate(("home", "away") * 2):
        m.apply(ShootoutAttempt(at=22 * MIN + i * S, team=team, scored=team == "away"))  # type: ignore[arg-type]
    return m


def _walkover() -> Match:
    m = Match(load_ruleset("youth-football"))
    m.apply(Walkover(at=0, team="home"))
    return m


def _forfeit() -> Match:
    m = Match(load_ruleset("ice-hockey"))
    m.apply(ClockStarted(at=0))
    m.apply(Forfeit(at=MIN, team="away"))
    return m


def _abandoned() -> Match:
    m = Match(load_ruleset("ice-hockey"))
    m.apply(ClockStarted(at=0))
    m.apply(Goal(at=MIN, team="home"))
    m.apply(MatchAbandoned(at=5 * MIN, reason="power cut"))
    return m


ENDINGS = {"regular": _regular, "overtime": _overtime, "shootout": _shootout, "walkover": _walkover,
           "forfeit": _forfeit, "abandoned": _abandoned}


def _outcome(kind: str) -> MatchOutcome:
    m = ENDINGS[kind]()
    outcome = m.result(m.last_at + RUN_OUT_MS)  # as the table and the service ask for it
    assert outcome is not None and outcome.outcome == kind
    return outcome


@pytest.mark.parametrize("kind", list(ENDINGS))
def test_every_kind_of_ending_goes_over_the_wire_and_back_unchanged(kind: str) -> None:
    outcome = _outcome(kind)
    payload = result_payload(outcome)
    assert tuple(payload) == FIELDS  # every key, always: a missing count is a null
    through_json = json.loads(json.dumps(payload))
    read = read_result(through_json)
    assert read == result_of(outcome)
    assert (read.home_goals, read.away_goals, read.outcome, read.winner) == (
        outcome.home_goals, outcome.away_goals, outcome.outcome, outcome.winner)
    # The protocol's check of a result message is this reader.
    message = protocol.result_message(id="m1", court="hall-1", match="7", seq=3, result=payload)
    assert read_result(protocol.parse(protocol.encode(message)).payload) == read


def test_the_outcomes_carry_what_each_kind_needs() -> None:
    shootout = read_result(result_payload(_outcome("shootout")))
    assert (shootout.home_shootout, shootout.away_shootout, shootout.winner) == (0, 2, "away")
    assert (shootout.home_goals, shootout.away_goals) == (0, 0)  # shoot-out goals never count as goals
    assert read_result(result_payload(_outcome("overtime"))).winner == "home"
    walkover = Result(home_goals=0, away_goals=3, outcome="walkover", winner="away")
    assert read_result(result_payload(_outcome("walkover"))) == walkover
    assert read_result(result_payload(_outcome("forfeit"))).winner == "home"
    abandoned = read_result(result_payload(_outcome("abandoned")))
    assert (abandoned.home_goals, abandoned.winner) == (1, None)
    for kind in ("regular", "overtime", "walkover", "forfeit", "abandoned"):
        assert result_payload(_outcome(kind))["home_shootout"] is None


def test_an_older_table_may_leave_out_the_winner_and_the_shootout_counts() -> None:
    level = Result(home_goals=1, away_goals=1, outcome="regular", winner=None)
    assert read_result({"home_goals": 1, "away_goals": 1, "outcome": "regular"}) == level


@pytest.mark.parametrize(("change", "key", "why"), [
    ({"home_goals": -1}, "payload.home_goals", "whole number"),
    ({"away_goals": "2"}, "payload.away_goals", "whole number"),
    ({"home_goals": True}, "payload.home_goals", "whole number"),
    ({"outcome": "won"}, "payload.outcome", "not one of"),
    ({"winner": "Lions"}, "payload.winner", "'home', 'away' or null"),
    ({"home_shootout": 1.5}, "payload.home_shootout", "whole number"),
    ({"away_shootout": -2}, "payload.away_shootout", "whole number"),
    ({"scorer": "7"}, "payload.scorer", "unknown key"),
])
def test_a_wrong_value_is_refused_naming_its_key(change: dict[str, Any], key: str, why: str) -> None:
    payload = {**result_payload(_outcome("regular")), **change}
    with pytest.raises(ProtocolError, match=why) as err:
        read_result(payload)
    assert err.value.field == key


@pytest.mark.parametrize("key", ["home_goals", "away_goals", "outcome"])
def test_a_missing_required_key_is_refused_naming_it(key: str) -> None:
    payload = result_payload(_outcome("regular"))
    del payload[key]
    with pytest.raises(ProtocolError, match="required key is missing") as err:
        read_result(payload, "result")
    assert err.value.field == f"result.{key}"


def test_not_an_object_is_refused() -> None:
    with pytest.raises(ProtocolError, match="must be an object") as err:
        read_result([1, 0, "regular"])
    assert err.value.field == "payload"


@pytest.mark.parametrize("kind", list(ENDINGS))
def test_the_standings_row_names_the_winning_team_and_goes_back_to_a_side(kind: str) -> None:
    outcome = _outcome(kind)
    row = standings_result(outcome, pool="SF", home="Rot-Weiss", away="Uhlenhorst")
    assert row.winner == {"home": "Rot-Weiss", "away": "Uhlenhorst", None: None}[outcome.winner]
    assert (row.pool, row.home, row.away, row.outcome) == ("SF", "Rot-Weiss", "Uhlenhorst", kind)
    assert (row.home_shootout, row.away_shootout) == (outcome.home_shootout, outcome.away_shootout)
    assert of_standings(row) == result_of(outcome)
    assert result_payload(of_standings(row)) == result_payload(outcome)


def test_winner_team_and_side_are_inverse_and_a_stranger_is_no_side() -> None:
    for side in ("home", "away", None):
        assert winner_side(winner_team(side, "A", "B"), "A", "B") == side
    assert winner_side("C", "A", "B") is None
    assert winner_team("nobody", "A", "B") is None

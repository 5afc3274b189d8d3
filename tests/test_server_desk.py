"""The desk's rules, pure: what may be corrected, a walk-over or forfeit, an abandoned match in seed 004's
order, a move, a decision for a tie, a conflict settled, a card ruled on, and a reason for each; every refusal
one DeskError (a CourtsideError and a ValueError) naming the form's field. The service's transactions and the
pages' backend apply them (tests/test_web_service_*.py, tests/test_server_service_store.py)."""

from __future__ import annotations

import pytest

from rules.errors import CourtsideError
from rules.standings import Decision
from server import desk
from server.desk import DeskError

CLOSED = "match 1's protest window closed at 14:35; the result is final"


def test_every_change_needs_its_reason() -> None:
    assert desk.reason("  scoresheet ") == "scoresheet"
    for empty in ("", "   "):
        with pytest.raises(DeskError, match="required") as err:
            desk.reason(empty)
        assert err.value.field == "why"
    assert issubclass(DeskError, CourtsideError) and issubclass(DeskError, ValueError)


def test_a_result_may_change_once_its_teams_are_known_and_until_its_protest_window_closes() -> None:
    desk.correctable(1, "AIK P14", "GAIS P14", known=True, closed=None)
    with pytest.raises(DeskError, match=r"match 19's teams are not known yet \(1A v 3B/C\)"):
        desk.correctable(19, "1A", "3B/C", known=False, closed=None)
    with pytest.raises(DeskError, match="protest window closed at 14:35") as err:
        desk.correctable(1, "AIK P14", "GAIS P14", known=True, closed=CLOSED)
    assert err.value.field == "match"


def test_a_walkover_goes_to_one_of_the_matchs_teams() -> None:
    desk.walkover(13, "Hammarby IF P14", "AIK P14", "AIK P14")
    with pytest.raises(DeskError, match="does not play match 13") as err:
        desk.walkover(13, "Hammarby IF P14", "AIK P14", "Real Madrid")
    assert err.value.field == "winner"


def test_an_abandoned_match_is_settled_in_the_seeds_order() -> None:
    assert [key for key, _ in desk.ABANDONED_ORDER] == ["resume", "replay", "leader", "tie"]
    assert desk.abandoned("resume") == "game resumed at a later time"
    assert desk.abandoned("replay") == "game played at a later time"
    assert desk.abandoned("leader", 2, 1) == "leading team considered the winner"
    assert desk.abandoned("tie", 1, 1) == "game determined a tie"
    with pytest.raises(DeskError, match="no team leads at 1-1"):
        desk.abandoned("leader", 1, 1)
    with pytest.raises(DeskError, match="a tie is level") as err:
        desk.abandoned("tie", 2, 1)
    assert err.value.field == "home_goals"
    with pytest.raises(DeskError, match="'toss' is not one of resume, replay, leader, tie"):
        desk.abandoned("toss")


def test_a_match_moves_to_a_court_of_the_tournament_by_its_id_or_its_name() -> None:
    courts = {"plan-1": "Plan 1", "plan-2": "Plan 2"}
    assert desk.court_id(courts, "Plan 2") == desk.court_id(courts, "plan-2") == "plan-2"
    with pytest.raises(DeskError, match=r"there is no court 'Centre Court' \(not one of the courts: Plan 1, Plan 2"):
        desk.court_id(courts, "Centre Court")


def test_a_decision_orders_an_open_tie_of_a_played_pool() -> None:
    ties = [("C", frozenset({"GAIS P14", "Djurgården P14"}))]
    desk.open_tie("C", ("Djurgården P14", "GAIS P14"), ties, played=6, expected=6)
    with pytest.raises(DeskError, match="no open tie") as err:
        desk.open_tie("A", ("Djurgården P14", "GAIS P14"), ties, played=6, expected=6)
    assert err.value.field == "order"
    # At midday the same two are level, but pool C's last two matches may still part them.
    with pytest.raises(DeskError, match="pool C has played 4 of its 6 matches: a tie is decided once") as err:
        desk.open_tie("C", ("Djurgården P14", "GAIS P14"), [], played=4, expected=6)
    assert err.value.field == "pool"
    with pytest.raises(DeskError, match="method"):
        desk.decision(Decision(pool="C", method="dice", order=("a", "b")))
    with pytest.raises(DeskError, match="twice"):
        desk.decision(Decision(pool="C", method="lots", order=("a", "a")))


def test_a_conflicting_result_cannot_replace_a_locked_one() -> None:
    desk.conflict("held", None)
    with pytest.raises(DeskError, match="protest window closed") as err:
        desk.conflict("held", CLOSED)
    assert err.value.field == "keep"
    desk.conflict("stored", CLOSED)  # keeping the stored result changes nothing and may still be recorded


def test_the_organiser_rules_on_a_reported_card_only() -> None:
    desk.sanction(True, 7, "Hammarby IF P14", "7")
    with pytest.raises(DeskError, match=r"no report for 1 \(X\) in match 1"):
        desk.sanction(False, 1, "X", "1")

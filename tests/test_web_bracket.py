"""The knock-out matches as brackets (server.web.bracket): each match in the grid rows between the two whose
winners it gets, rounds in playing order, the matches fed by losers apart; read from the example files' slots."""

from __future__ import annotations

from server.web.bracket import trees
from server.web.view import View
from tests.service_support import HOCKEY
from tests.web_day import sample_day


def _placed(tree: object) -> list[tuple[str, int, int, int, str, bool]]:
    return [(n.match.stage, n.column, n.row, n.span, n.half, n.fed) for n in tree.nodes]  # type: ignore[attr-defined]


def test_quarter_finals_semi_finals_and_final_make_one_tree_and_the_third_place_match_its_own() -> None:
    with sample_day(played=0) as day:
        final, third = trees(day.view())
    assert final.columns == ("quarter_final", "semi_final", "final") and final.rows == 4
    # SF1 gets the winners of QF1 and QF2 (youth-football.toml), so they take its two rows, in that order.
    assert _placed(final) == [
        ("QF1", 1, 1, 1, "up", False), ("QF2", 1, 2, 1, "down", False),
        ("QF3", 1, 3, 1, "up", False), ("QF4", 1, 4, 1, "down", False),
        ("SF1", 2, 1, 2, "up", True), ("SF2", 2, 3, 2, "down", True),
        ("F", 3, 1, 4, "", True)]
    goes = {n.match.stage: (n.winner_to, n.loser_to) for n in final.nodes}
    assert goes["QF2"] == ("SF1", None) and goes["SF2"] == ("F", "P3") and goes["F"] == (None, None)
    assert _placed(third) == [("P3", 1, 1, 1, "", False)] and third.columns == ("placement",)


def test_semi_finals_fed_from_the_pools_open_the_tree() -> None:
    with sample_day(played=0, example=HOCKEY) as day:
        final, third = trees(View(day.data()))
    assert _placed(final) == [("SF1", 1, 1, 1, "up", False), ("SF2", 1, 2, 1, "down", False), ("F", 2, 1, 2, "", True)]
    assert third.root.stage == "P34"

"""The fair-play (disciplinary points) file: points given, or cards counted by the ruleset's points per kind."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.errors import ResultsError
from rules.match import ClockStarted, Match, PenaltyAwarded
from rules.ruleset import FairPlay, RankingRules, Ruleset, load_ruleset, parse_part
from rules.standings import rank_pool
from rules.standings.fairplay import match_points, parse_fair_play_csv
from tests.standings_support import played

EURO = load_ruleset(Path(__file__).resolve().parent.parent / "docs" / "rulesets" / "uefa-euro-2024.toml")


def _euro_fair_play() -> FairPlay:
    rules = EURO.ranking.fair_play
    assert rules is not None
    return rules


RULES = _euro_fair_play()


def test_cards_are_counted_by_the_points_of_their_kind() -> None:
    text = ("pool,team,kind,count,person\nC,Denmark,yellow,3,player\nC,Denmark,yellow_then_red,1,\n"
            "C,Slovenia,second_yellow,1,player\nC,Slovenia,yellow,2,official\nC,Serbia,yellow,0,player\n")
    assert parse_fair_play_csv(text, "fp.csv", RULES) == {"C": {"Denmark": 3 + 4, "Slovenia": 3 + 2, "Serbia": 0}}


def test_team_officials_cards_count_only_when_the_ruleset_says_so() -> None:
    text = "pool,team,kind,count,person\nC,Slovenia,yellow,7,player\nC,Slovenia,yellow,1,official\n"
    assert parse_fair_play_csv(text, "fp.csv", RULES) == {"C": {"Slovenia": 8}}
    players_only = FairPlay(cards=dict(RULES.cards), officials=False)
    assert parse_fair_play_csv(text, "fp.csv", players_only) == {"C": {"Slovenia": 7}}


def test_a_points_column_gives_the_totals_as_they_are() -> None:
    assert parse_fair_play_csv("pool,team,points\nC,Denmark,7\nC,Slovenia,8\n", "fp.csv", RULES) == {
        "C": {"Denmark": 7, "Slovenia": 8}}


@pytest.mark.parametrize(
    ("text", "line", "reason"),
    [
        ("pool,team,kind,count\nC,Denmark,green,1\n", 2, "card kind 'green' is not one the ruleset counts"),
        ("pool,team,kind,count,person\nC,Denmark,yellow,1,coach\n", 2, "person must be player or official"),
        ("pool,team,kind,count\nC,Denmark,yellow,-1\n", 2, "count must be a whole number"),
        ("pool,team,points\nC,Denmark,7\nC,Denmark,8\n", 3, "has its points on an earlier line"),
        ("pool,team,points,kind,count\nC,Denmark,7,,\nC,Serbia,,yellow,1\n", 3, "use one form"),
        ("pool,team,points,kind,count\nC,Denmark,7,yellow,1\n", 2, "give either points, or a card kind"),
        ("pool,team,points\nC,,7\n", 2, "the team is empty"),
        ("pool,team,cards\nC,Denmark,7\n", 1, "unknown column(s) 'cards'"),
    ],
)
def test_bad_lines_are_refused_naming_the_line_and_why(text: str, line: int, reason: str) -> None:
    with pytest.raises(ResultsError) as caught:
        parse_fair_play_csv(text, "fp.csv", RULES)
    assert caught.value.source == "fp.csv" and caught.value.line == line
    assert reason in str(caught.value)


def test_a_ruleset_that_does_not_rank_by_fair_play_refuses_the_file() -> None:
    with pytest.raises(ResultsError, match="does not rank by fair play"):
        parse_fair_play_csv("pool,team,points\nC,Denmark,7\n", "fp.csv",
                            load_ruleset("youth-football").ranking.fair_play)


def test_only_the_teams_whose_disciplinary_points_are_missing_wait_for_them() -> None:
    # Restart mode: the head-to-head puts A and B above C and D. A and B are level on fair
    # play too and go to lots; C's and D's points are missing: they wait for the data, and
    # no decision is asked for between them meanwhile.
    ranking = parse_part(RankingRules, {"criteria": ["points", "head_to_head", "fair_play", "lots"],
                                        "tie_mode": "restart", "fair_play": {"cards": {"yellow": 1}}}, "ranking")
    ruleset = load_ruleset("youth-football").replace(ranking=ranking)
    results = played("P", "A 1-0 C", "A 1-0 D", "B 1-0 C", "B 1-0 D", "A 0-0 B", "C 0-0 D", "E 1-0 A",
                     "E 1-0 B", "F 1-0 A", "F 1-0 B", "C 1-0 E", "D 1-0 E", "C 1-0 F", "D 1-0 F", "E 1-0 F")
    table = rank_pool(ruleset, "P", results, fair_play={"A": 1, "B": 1, "E": 0, "F": 0})
    assert [(u.teams, u.method) for u in table.unresolved] == [(("A", "B"), "lots"), (("C", "D"), "")]
    assert [r.rank for r in table.rows] == [1, 2, 2, 4, 4, 6]  # E (9 points) first, F (6) last
    table = rank_pool(ruleset, "P", results, fair_play={"A": 1, "B": 1, "C": 2, "D": 0, "E": 0, "F": 0})
    assert [(u.teams, u.method) for u in table.unresolved] == [(("A", "B"), "lots")]


def youth_with_fair_play(cards: dict[str, int]) -> Ruleset:
    youth = load_ruleset("youth-football")
    ranking = parse_part(RankingRules, {"criteria": ["points", "goal_difference", "fair_play", "lots"],
                                        "fair_play": {"cards": cards}}, "ranking")
    return youth.replace(ranking=ranking)


def replayed_cards(ruleset: Ruleset, awards: list[tuple[str, str, str]]) -> list[tuple[str, str | None, str]]:
    """The cards of a match played with ``awards`` (side, kind, player), as its log replays them."""
    match = Match(ruleset, stage="round_robin", round="pool")
    match.apply(ClockStarted(at=0))
    for i, (side, kind, player) in enumerate(awards, start=1):
        match.apply(PenaltyAwarded(at=i * 60_000, team=side, kind=kind, player=player))  # type: ignore[arg-type]
    return [(c.team, c.player, c.kind) for c in match.state_at(len(awards) * 60_000 + 1).cards]


def test_a_matchs_cards_as_replayed_count_uefa_style() -> None:
    # Seed 003's yellow escalates to a red after two: UEFA counts that pair as 3, not 1 + 1 + 3.
    euro_points = {"yellow": 1, "second_yellow": 3, "red": 3, "yellow_then_red": 4}
    ruleset = youth_with_fair_play(euro_points)
    cards = replayed_cards(ruleset, [("away", "yellow", "5"), ("away", "yellow", "5"), ("home", "yellow", "3"),
                                     ("home", "red", "3"), ("home", "yellow", "8"), ("away", "red", "9")])
    assert match_points(ruleset, cards) == {"away": 3 + 3, "home": 4 + 1}
    # without the compound kinds every card counts on its own
    plain = youth_with_fair_play({"yellow": 1, "red": 3})
    assert match_points(plain, cards) == {"away": 1 + 1 + 3 + 3, "home": 1 + 3 + 1}

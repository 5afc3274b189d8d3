"""Seed 004: a final placement game between two teams of one club may change opponents, or be forfeited 0-5."""

from __future__ import annotations

import copy
import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from rules.errors import TournamentError
from rules.ruleset import load_ruleset
from rules.standings import MatchResult, parse_results_csv
from rules.tournament import Progress, Tournament, pool_teams, progress
from rules.tournament.exchange import exchange_options, placement_order
from rules.tournament.loading import validate_tournament
from rules.tournament.stages import stage_dependencies

ROOT = Path(__file__).resolve().parent.parent
ICE = ROOT / "rules" / "examples" / "ice-hockey.toml"
RESULTS = ROOT / "tests" / "data" / "ice-hockey-results.csv"
DATA: dict[str, Any] = tomllib.loads(ICE.read_text(encoding="utf-8"))
LIONS_A_TO_G7 = {"match": "G5", "team": "Lions A", "to": "G7", "other": "Eagles A"}


def ice(*exchanges: dict[str, str]) -> Tournament:
    data = copy.deepcopy(DATA)
    data["same_club"]["exchanges"] = list(exchanges)
    return validate_tournament(data, "ice.toml")


def lions_meet_in_g5() -> list[MatchResult]:
    """The example's results, but Lions A wins M2, so G5 (winner M1 v winner M2) is Lions AA v Lions A."""
    results = parse_results_csv(RESULTS.read_text(encoding="utf-8"), str(RESULTS))
    out = [r for r in results if r.pool not in ("G5", "G7")]
    return [replace(r, home_goals=1, away_goals=3) if r.pool == "M2" else r for r in out]


def run(t: Tournament, results: list[MatchResult]) -> Progress:
    return progress(t, load_ruleset("ice-hockey"), pool_teams(t, "ice.toml"), results, source="ice.toml")


def test_placement_games_in_order_and_the_seeds_order_of_other_opponents() -> None:
    t = ice()
    assert placement_order(t) == ["G1", "G3", "G5", "G7", "G9", "G11"]
    # "one placement game lower ...; two placement games lower ...; one placement game higher"
    assert [g for g, _ in exchange_options(t, "G5")] == ["G7", "G9", "G3"]
    assert [g for g, _ in exchange_options(t, "G1")] == ["G3", "G5"]
    assert [g for g, _ in exchange_options(t, "G11")] == ["G9"]


def test_a_same_club_final_placement_game_tells_the_organiser_what_may_follow() -> None:
    state = run(ice(), lions_meet_in_g5())
    g5 = state.matches["G5"]
    assert (g5.home.team, g5.away.team) == ("Lions AA", "Lions A")
    assert len(state.clashes) == 1
    note = state.clashes[0]
    assert note.startswith("G5: Lions AA and Lions A are both Lions")
    assert note.index("G7") < note.index("G9") < note.index("G3") and "0-5" in note


def test_an_agreed_exchange_moves_the_team_and_the_ranking_follows_the_games() -> None:
    t = ice(LIONS_A_TO_G7)
    assert stage_dependencies(t, "G5") == stage_dependencies(t, "G7") == {"M1", "M2"}
    results = lions_meet_in_g5()
    state = run(t, results)
    assert (state.matches["G5"].home.team, state.matches["G5"].away.team) == ("Lions AA", "Eagles A")
    assert (state.matches["G7"].home.team, state.matches["G7"].away.team) == ("Lions A", "Wolves AA")
    assert state.clashes == () and state.exchanges == ("Lions A plays G7 instead of G5; Eagles A takes its place",)
    played = [
        MatchResult(pool="G5", home="Lions AA", away="Eagles A", home_goals=4, away_goals=2),
        MatchResult(pool="G7", home="Lions A", away="Wolves AA", home_goals=1, away_goals=2),
    ]
    final = [s.team for s in run(t, results + played).final_ranking]
    assert final[4:8] == ["Lions AA", "Eagles A", "Wolves AA", "Lions A"]


def test_a_result_for_the_pairing_before_the_exchange_is_refused() -> None:
    bad = MatchResult(pool="G5", home="Lions AA", away="Lions A", home_goals=4, away_goals=2)
    with pytest.raises(TournamentError) as caught:
        run(ice(LIONS_A_TO_G7), [*lions_meet_in_g5(), bad])
    assert caught.value.key == "pool G5" and "Eagles A" in caught.value.message


def test_no_exchange_without_a_same_club_game() -> None:
    # The example's own results: G5 is Lions AA v Wolves AA.
    results = parse_results_csv(RESULTS.read_text(encoding="utf-8"), str(RESULTS))
    with pytest.raises(TournamentError) as caught:
        run(ice(LIONS_A_TO_G7), [r for r in results if r.pool not in ("G5", "G7")])
    assert caught.value.source == "ice.toml" and caught.value.key == "same_club.exchanges[0].team"
    assert "does not play G5" in caught.value.message


def test_a_refused_request_is_a_forfeit_scored_0_5() -> None:
    forfeit = MatchResult(
        pool="G5", home="Lions AA", away="Lions A", home_goals=0, away_goals=0, outcome="forfeit", winner="Lions AA"
    )
    state = run(ice(), [*lions_meet_in_g5(), forfeit])
    assert state.matches["G5"].winner == "Lions AA" and state.matches["G5"].loser == "Lions A"


@pytest.mark.parametrize(
    ("change", "key", "words"),
    [
        ({"to": "G11"}, "same_club.exchanges[0].to", "G7 (one placement game lower)"),
        ({"to": "T1"}, "same_club.exchanges[0].to", "not a final placement game"),
        ({"team": "Nobody"}, "same_club.exchanges[0].team", "not a team"),
        ({"match": "G5", "to": "G5"}, "same_club.exchanges[0].to", "already changes teams"),
    ],
)
def test_a_broken_exchange_names_the_key(change: dict[str, str], key: str, words: str) -> None:
    with pytest.raises(TournamentError) as caught:
        ice({**LIONS_A_TO_G7, **change})
    assert caught.value.source == "ice.toml" and caught.value.key == key and words in caught.value.message

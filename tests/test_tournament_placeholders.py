"""Placeholders read the way organisers write them."""

from __future__ import annotations

import pytest

from rules.tournament.placeholders import (
    BestFromPools,
    BestPlaced,
    PoolPlace,
    WinnerOrLoser,
    canonical,
    parse_placeholder,
    source_stage,
)


def test_pool_places() -> None:
    assert parse_placeholder("1A") == PoolPlace(text="1A", rank=1, stage="A")
    assert parse_placeholder("12AA") == PoolPlace(text="12AA", rank=12, stage="AA")
    assert parse_placeholder("2 QFL") == PoolPlace(text="2 QFL", rank=2, stage="QFL")


def test_winners_and_losers() -> None:
    assert parse_placeholder("winner SF1") == WinnerOrLoser(text="winner SF1", outcome="winner", match="SF1")
    assert parse_placeholder("loser  QF3") == WinnerOrLoser(text="loser  QF3", outcome="loser", match="QF3")


def test_best_placed_across_pools() -> None:
    assert parse_placeholder("best 3rd") == BestPlaced(text="best 3rd", nth=1, rank=3)
    assert parse_placeholder("2nd best 3rd") == BestPlaced(text="2nd best 3rd", nth=2, rank=3)
    assert parse_placeholder("3rd best 4th") == BestPlaced(text="3rd best 4th", nth=3, rank=4)


@pytest.mark.parametrize("text", ["Rot-Weiss Köln", "HC Bloemendaal", "0A", "winner", "best", "best 0th", "A1"])
def test_team_names_and_nonsense_are_not_placeholders(text: str) -> None:
    assert parse_placeholder(text) is None


def test_the_stage_a_placeholder_waits_for() -> None:
    assert source_stage(PoolPlace(text="1A", rank=1, stage="A")) == "A"
    assert source_stage(WinnerOrLoser(text="loser F", outcome="loser", match="F")) == "F"
    assert source_stage(BestPlaced(text="best 3rd", nth=1, rank=3)) is None


def test_one_spelling_per_slot() -> None:
    assert canonical("1 A") == canonical("1A") == "1A"
    assert canonical("winner   SF1") == "winner SF1"
    assert canonical("2nd  best 3rd") == "2nd best 3rd"
    assert canonical(" Rot-Weiss  Köln ") == "Rot-Weiss Köln"


def test_a_best_placed_team_from_named_pools() -> None:
    assert parse_placeholder("3B/C") == BestFromPools(text="3B/C", rank=3, pools=("B", "C"))
    assert parse_placeholder("3 A / C / D") == BestFromPools(text="3 A / C / D", rank=3, pools=("A", "C", "D"))
    assert canonical("3 A / C") == "3A/C"
    assert source_stage(BestFromPools(text="3B/C", rank=3, pools=("B", "C"))) is None
    assert parse_placeholder("3B/B") is None  # a pool named twice is a typo, not a slot

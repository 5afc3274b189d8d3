"""Placing qualifying best 3rds ("3B/C") by the groups they come from."""

from __future__ import annotations

from itertools import combinations

from rules.tournament.thirds import allocate, check_every_combination

# The youth-football example: QF1 1A v 3B/C, QF3 1B v 3A/C.
YOUTH = [("3B/C", frozenset("BC")), ("3A/C", frozenset("AC"))]
WINNER_FACED = {"3B/C": "A", "3A/C": "B"}


def test_every_pair_of_qualifying_groups_avoids_a_group_rematch() -> None:
    for pair in combinations("ABC", 2):
        placed = allocate(YOUTH, [(g, f"third of {g}") for g in pair])
        assert placed is not None, pair
        assert sorted(placed.values()) == sorted(f"third of {g}" for g in pair)
        for slot, team in placed.items():
            assert team != f"third of {WINNER_FACED[slot]}", (pair, slot)
    assert check_every_combination(YOUTH, ["A", "B", "C"]) is None


def test_a_third_goes_only_where_its_group_is_accepted() -> None:
    assert allocate(YOUTH, [("A", "a"), ("B", "b")]) == {"3B/C": "b", "3A/C": "a"}
    assert allocate(YOUTH, [("B", "b"), ("C", "c")]) == {"3B/C": "b", "3A/C": "c"}


def test_when_several_placings_fit_the_first_slot_takes_the_first_group() -> None:
    slots = [("x", frozenset("ABC")), ("y", frozenset("ABC"))]
    assert allocate(slots, [("A", "a"), ("C", "c")]) == {"x": "a", "y": "c"}


def test_the_first_slot_leaves_room_for_the_later_ones() -> None:
    slots = [("x", frozenset("AB")), ("y", frozenset("A"))]
    assert allocate(slots, [("A", "a"), ("B", "b")]) == {"x": "b", "y": "a"}


def test_a_layout_that_cannot_take_some_pair_is_found() -> None:
    # Both slots refuse group C's 3rd: 3rds from A and C (or B and C) have nowhere to go.
    slots = [("3A/B", frozenset("AB")), ("3B/A", frozenset("AB"))]
    assert check_every_combination(slots, ["A", "B", "C"]) == ("A", "C")
    assert allocate(slots, [("A", "a"), ("C", "c")]) is None


def test_the_number_of_qualifiers_must_match_the_slots() -> None:
    assert allocate(YOUTH, [("A", "a")]) is None

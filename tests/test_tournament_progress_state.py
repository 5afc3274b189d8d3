"""The records a walk of the stages makes: a pool is complete only with its table and every match played."""

from __future__ import annotations

from rules.standings import PoolTable
from rules.tournament.progress_state import PoolState, Slot


def test_a_pool_is_complete_only_with_its_table_and_every_match_played() -> None:
    teams = (Slot(text="A1", team="A1"), Slot(text="A2", team="A2"))
    table = PoolTable(pool="A", rows=(), unresolved=())
    assert not PoolState(name="A", teams=teams, played=1, expected=1, table=None).complete
    assert not PoolState(name="A", teams=teams, played=0, expected=1, table=table).complete
    assert PoolState(name="A", teams=teams, played=1, expected=1, table=table).complete


def test_a_slot_s_words_are_not_part_of_its_value() -> None:
    # Two walks word a need in different languages' phrases; the slot is the same place either way.
    assert Slot(text="1A", team=None, needs="x", needs_words="x") == Slot(text="1A", team=None, needs="x")

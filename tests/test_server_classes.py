"""server/classes.py: a cup's classes' progress merged into the one record the pages and the loop read."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from server.classes import merged_progress
from server.plan import load_plan
from server.store import Store

EXAMPLES = Path(__file__).resolve().parent.parent / "rules" / "examples"


def test_the_classes_stages_are_merged_and_a_slot_two_classes_name_is_left_to_each(tmp_path: Path) -> None:
    store = Store.open(f"sqlite:///{tmp_path / 'cup.db'}", load_plan(EXAMPLES / "youth-cup.toml"))
    try:
        by_class = store.class_progress()
    finally:
        store.close()
    assert len(by_class) > 2
    # Two classes that both rank their pools' thirds ("best 3rd"): each stage's own slots name it, the cup's not.
    first, second = list(by_class)[:2]
    for name in (first, second):
        p = by_class[name]
        by_class[name] = p.replace(slots={**p.slots, "best 3rd": next(iter(p.slots.values()))})
    merged = merged_progress(by_class)
    parts = list(by_class.values())
    for field in ("pools", "matches", "rankings"):
        assert list(getattr(merged, field)) == [k for p in parts for k in getattr(p, field)]
        assert all(getattr(merged, field)[k] is v for p in parts for k, v in getattr(p, field).items())
    named = Counter(text for p in parts for text in p.slots)
    shared = {text for text, classes in named.items() if classes > 1}
    assert shared == {"best 3rd"}
    assert list(merged.slots) == [text for text in named if text not in shared]
    assert merged.final_ranking == ()
    (only,) = list(by_class.values())[:1]
    assert merged_progress({"": only}) is only

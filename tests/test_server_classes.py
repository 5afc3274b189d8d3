"""server/classes.py: a cup's classes' progress merged into the one record the pages and the loop read."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from rules import Progress
from server.classes import merged_progress
from server.plan import load_plan
from server.store import Store

EXAMPLES = Path(__file__).resolve().parent.parent / "rules" / "examples"


def _classes_sharing_a_place(tmp_path: Path) -> dict[str, Progress]:
    """The youth cup's classes' progress, the first two both naming "best 3rd" (as two classes that rank their
    pools' thirds do)."""
    store = Store.open(f"sqlite:///{tmp_path / 'cup.db'}", load_plan(EXAMPLES / "youth-cup.toml"))
    try:
        by_class = store.class_progress()
    finally:
        store.close()
    assert len(by_class) > 2
    for name in list(by_class)[:2]:
        p = by_class[name]
        by_class[name] = p.replace(slots={**p.slots, "best 3rd": next(iter(p.slots.values()))})
    return by_class


def test_the_classes_stages_are_merged_and_a_slot_two_classes_name_is_left_to_each(tmp_path: Path) -> None:
    by_class = _classes_sharing_a_place(tmp_path)  # each stage's own slots name "best 3rd", the cup's not
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


def test_one_class_s_new_progress_put_into_the_last_merge_is_the_merge_made_afresh(tmp_path: Path) -> None:
    by_class = _classes_sharing_a_place(tmp_path)
    second = list(by_class)[1]
    last = (tuple(by_class.values()), merged_progress(by_class))
    # The second class's progress after a result: new states under the same names.
    p = by_class[second]
    pool, place = next(iter(p.pools)), next(iter(p.slots))
    after = {**by_class, second: p.replace(pools={**p.pools, pool: p.pools[pool].replace(played=99)},
                                            slots={**p.slots, place: p.slots["best 3rd"], "best 3rd": p.slots[place]})}
    again, afresh = merged_progress(after, last), merged_progress(after)
    assert again == afresh and again is not last[1]
    for field in ("pools", "matches", "rankings", "slots"):
        assert list(getattr(again, field).items()) == list(getattr(afresh, field).items())
    assert again.pools[pool].played == 99 and "best 3rd" not in again.slots
    # A class that no longer names a place, or names a new one: merged afresh.
    shrunk = {**by_class, second: p.replace(slots={k: v for k, v in p.slots.items() if k != place})}
    assert place not in merged_progress(shrunk, last).slots
    grown = {**by_class, second: p.replace(slots={**p.slots, "9Z": p.slots[place]})}
    assert merged_progress(grown, last) == merged_progress(grown) and "9Z" in merged_progress(grown, last).slots
    assert merged_progress(by_class, last) == last[1]  # nothing new

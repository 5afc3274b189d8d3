"""A cup's classes seen as one: their progress merged for the pages and the loop."""

from __future__ import annotations

from collections import Counter
from itertools import chain
from typing import Any

from rules import Progress


def merged_progress(by_class: dict[str, Progress],
                    last: tuple[tuple[Progress, ...], Progress] | None = None) -> Progress:
    """The classes' progress as one record: pools, matches and rankings are named uniquely across the cup; a
    placeholder two classes both have ("best 3rd") is left out of the slots (each stage's own slots name it), and
    the final rankings stay per class (``by_class``).

    ``last``: the parts last merged and their merge. When one class's progress is new and names the same stages
    and places as before (a result), its entries replace its old ones in a copy of the last merge: merging every
    class again cost a millisecond a result in a big cup."""
    parts = list(by_class.values())
    if len(parts) == 1:
        return parts[0]
    whole = _one_class_again(parts, last) if last is not None else None
    if whole is not None:
        return whole
    # Merged by dict.update, in C.
    pools: dict[str, Any] = {}
    matches: dict[str, Any] = {}
    rankings: dict[str, Any] = {}
    slots: dict[str, Any] = {}
    for p in parts:
        pools.update(p.pools)
        matches.update(p.matches)
        rankings.update(p.rankings)
        slots.update(p.slots)
    for text, classes in Counter(chain.from_iterable(p.slots for p in parts)).items():
        if classes > 1:
            del slots[text]
    return _merged(parts, pools, matches, rankings, slots)


def _one_class_again(parts: list[Progress], last: tuple[tuple[Progress, ...], Progress]) -> Progress | None:
    """The merge with one class's new progress put in place of its old one, or None if more has changed."""
    before, whole = last
    if len(before) != len(parts):
        return None
    changed = [(old, new) for old, new in zip(before, parts, strict=True) if old is not new]
    if len(changed) != 1:
        return None
    old, new = changed[0]
    if old.pools.keys() != new.pools.keys() or old.matches.keys() != new.matches.keys() \
            or old.rankings.keys() != new.rankings.keys() or old.slots.keys() != new.slots.keys():
        return None
    # The same names: each keeps its place in the merge, and the places shared with another class stay out.
    shared = old.slots.keys() - whole.slots.keys()
    slots = {**whole.slots, **new.slots}
    for text in shared:
        del slots[text]
    return _merged(parts, {**whole.pools, **new.pools}, {**whole.matches, **new.matches},
                   {**whole.rankings, **new.rankings}, slots)


def _merged(parts: list[Progress], pools: dict[str, Any], matches: dict[str, Any], rankings: dict[str, Any],
            slots: dict[str, Any]) -> Progress:
    return Progress(
        pools=pools,
        matches=matches,
        rankings=rankings,
        slots=slots,
        final_ranking=(),
        swaps=tuple(x for p in parts for x in p.swaps),
        exchanges=tuple(x for p in parts for x in p.exchanges),
        clashes=tuple(x for p in parts for x in p.clashes),
        set_aside=tuple(x for p in parts for x in p.set_aside),
    )

"""A cup's classes seen as one: their progress merged for the pages and the loop."""

from __future__ import annotations

from collections import Counter
from itertools import chain
from typing import Any

from rules import Progress


def merged_progress(by_class: dict[str, Progress]) -> Progress:
    """The classes' progress as one record: pools, matches and rankings are named uniquely across the cup; a
    placeholder two classes both have ("best 3rd") is left out of the slots (each stage's own slots name it), and
    the final rankings stay per class (``by_class``)."""
    parts = list(by_class.values())
    if len(parts) == 1:
        return parts[0]
    # Merged by dict.update, in C: the loop merges them again after each result of a big cup's class.
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

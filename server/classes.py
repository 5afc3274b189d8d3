"""A cup's classes seen as one: their progress merged for the pages and the loop."""

from __future__ import annotations

from rules import Progress


def merged_progress(by_class: dict[str, Progress]) -> Progress:
    """The classes' progress as one record: pools, matches and rankings are named uniquely across the cup; a
    placeholder two classes both have ("best 3rd") is left out of the slots (each stage's own slots name it), and
    the final rankings stay per class (``by_class``)."""
    parts = list(by_class.values())
    if len(parts) == 1:
        return parts[0]
    seen: dict[str, int] = {}
    for p in parts:
        for text in p.slots:
            seen[text] = seen.get(text, 0) + 1
    return Progress(
        pools={k: v for p in parts for k, v in p.pools.items()},
        matches={k: v for p in parts for k, v in p.matches.items()},
        rankings={k: v for p in parts for k, v in p.rankings.items()},
        slots={k: v for p in parts for k, v in p.slots.items() if seen[k] == 1},
        final_ranking=(),
        swaps=tuple(x for p in parts for x in p.swaps),
        exchanges=tuple(x for p in parts for x in p.exchanges),
        clashes=tuple(x for p in parts for x in p.clashes),
        set_aside=tuple(x for p in parts for x in p.set_aside),
    )

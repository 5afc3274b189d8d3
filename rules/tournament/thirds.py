"""Where the qualifying best-placed teams play: slots like "3B/C" and "3A/C".

With three pools and two best 3rds, a fixed "1B v best 3rd" can pair a 3rd with
the winner of its own pool. Organisers avoid that the way UEFA brackets do: each
slot names the pools its team may come from ("1A v 3B/C", "1B v 3A/C"), as many
3rds qualify as there are such slots, and the qualifiers are placed by the pools
they come from, never by their order among themselves. So a tie inside the
qualifiers does not hold the bracket up; only one across the cut does.

Rule used when more than one placing fits: slots in the file's order, each takes
the first qualifier (in the file's pool order) that still lets every later slot
be filled. :func:`check_every_combination` proves at load time that every
possible set of qualifying pools can be placed.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from math import comb

CHECK_LIMIT = 20_000
"""Above this many sets of qualifying pools the load-time proof is skipped (the walk still checks)."""


def allocate(
    slots: Sequence[tuple[str, frozenset[str]]], qualifiers: Sequence[tuple[str, str]]
) -> dict[str, str] | None:
    """Slot -> team, for ``slots`` (slot, pools it accepts) and ``qualifiers`` (pool, team); None if none fits."""
    chosen: dict[str, str] = {}
    used: set[int] = set()

    def fill(k: int) -> bool:
        if k == len(slots):
            return True
        slot, pools = slots[k]
        for i, (pool, team) in enumerate(qualifiers):
            if i in used or pool not in pools:
                continue
            used.add(i)
            chosen[slot] = team
            if fill(k + 1):
                return True
            used.discard(i)
        return False

    return dict(chosen) if len(qualifiers) == len(slots) and fill(0) else None


def check_every_combination(
    slots: Sequence[tuple[str, frozenset[str]]], pools: Sequence[str]
) -> tuple[str, ...] | None:
    """A set of qualifying pools the slots cannot take, or None when every set fits."""
    if comb(len(pools), len(slots)) > CHECK_LIMIT:
        return None
    for qualifying in combinations(pools, len(slots)):
        if allocate(slots, [(p, p) for p in qualifying]) is None:
            return qualifying
    return None

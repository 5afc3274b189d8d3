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

from rules.errors import TournamentError
from rules.tournament.model import Tournament
from rules.tournament.placeholders import BestFromPools, BestPlaced, canonical, parse_placeholder

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


def _played(t: Tournament) -> list[str]:
    """The participants of later stages as written: the matches' sides, then the later pools' teams."""
    entry = {p.name for p in t.entry_pools}  # names: comparing pools field by field made this quadratic
    texts = [x for m in t.matches for x in (m.home, m.away)]
    return texts + [x for p in t.pools if p.name not in entry for x in p.teams or ()]


def best_from_pools_slots(t: Tournament) -> dict[int, list[tuple[str, frozenset[str]]]]:
    """Per place, the "3B/C" slots that later stages fill, in the order of the matches and then the pools."""
    out: dict[int, list[tuple[str, frozenset[str]]]] = {}
    for text in _played(t):
        found = parse_placeholder(text)
        if isinstance(found, BestFromPools):
            out.setdefault(found.rank, []).append((canonical(text), frozenset(found.pools)))
    return out


def _where(t: Tournament, slot: str) -> str:
    for i, m in enumerate(t.matches):
        for side in ("home", "away"):
            if canonical(getattr(m, side)) == slot:
                return f"matches[{i}].{side}"
    for i, p in enumerate(t.pools):
        for j, text in enumerate(p.teams or ()):
            if canonical(text) == slot:
                return f"pools[{i}].teams[{j}]"
    return slot


def check_best_from_pools(t: Tournament, source: str) -> None:
    slots = best_from_pools_slots(t)
    # dict, not set: the first offending slot in file order is the one an error names, every run
    played = dict.fromkeys(canonical(x) for x in _played(t))
    for key, texts in [("final_ranking", t.final_ranking)] + [
        (f"rankings[{i}].teams", r.teams) for i, r in enumerate(t.rankings)
    ]:
        for j, text in enumerate(texts):
            found = parse_placeholder(text)
            if isinstance(found, BestFromPools) and canonical(text) not in played:
                raise TournamentError(
                    source, f"{key}[{j}]", f"{text!r} is a qualifier's slot that no match or pool plays"
                )
    for text in played:
        found = parse_placeholder(text)
        if isinstance(found, BestPlaced) and found.nth <= len(slots.get(found.rank, ())):
            raise TournamentError(
                source,
                _where(t, text),
                f"{text!r} is one of the qualifiers the slots {', '.join(s for s, _ in slots[found.rank])} place; "
                "use one kind of slot or the other",
            )
    pools = [p.name for p in t.entry_pools]
    for rank, group in slots.items():
        if len(group) > len(pools):
            message = f"{len(group)} slots for best {rank}-placed teams but only {len(pools)} pools"
            raise TournamentError(source, _where(t, group[0][0]), message)
        unplaceable = check_every_combination(group, pools)
        if unplaceable is not None:
            raise TournamentError(
                source,
                _where(t, group[0][0]),
                f"when the qualifiers come from pools {', '.join(unplaceable)}, the slots "
                f"{', '.join(s for s, _ in group)} cannot take them all; let the slots accept more pools",
            )

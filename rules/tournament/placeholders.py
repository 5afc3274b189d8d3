"""Placeholders: the names a classification slot has before its team is known.

A tournament file writes them the way organisers do on paper:

* ``"1A"``: the team placed 1st in pool (or ranking) ``A``;
* ``"winner SF1"`` / ``"loser QF3"``: a knock-out match's winner or loser;
* ``"best 3rd"``, ``"2nd best 3rd"``: the 3rd-placed teams of the first-round pools
  compared with each other (points, then goal difference, then goals for);
* ``"3B/C"``: a qualifying best 3rd that comes from pool B or C. As many 3rds
  qualify as there are such slots; which slot each takes depends only on the pools
  they come from (:mod:`rules.tournament.thirds`), so a best 3rd never meets a team
  of its own pool in the first knock-out round.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Literal

from rules.record import Record

_WINNER_OR_LOSER = re.compile(r"^(winner|loser)\s+(\S+)$")
_BEST = re.compile(r"^(?:(\d+)(?:st|nd|rd|th)\s+)?best\s+(\d+)(?:st|nd|rd|th)$")
_PLACE = re.compile(r"^(\d+)\s*([A-Za-z][A-Za-z0-9_-]*)$")
_FROM_POOLS = re.compile(r"^(\d+)\s*([A-Za-z][A-Za-z0-9_-]*(?:\s*/\s*[A-Za-z][A-Za-z0-9_-]*)+)$")


class PoolPlace(Record):
    """The team ranked ``rank`` in the pool or ranking named ``stage``."""

    text: str
    rank: int
    stage: str


class WinnerOrLoser(Record):
    """The winner or the loser of a knock-out match."""

    text: str
    outcome: Literal["winner", "loser"]
    match: str


class BestPlaced(Record):
    """The ``nth`` best of the teams placed ``rank`` in the first-round pools."""

    text: str
    nth: int
    rank: int


class BestFromPools(Record):
    """A qualifying best ``rank``-placed team that comes from one of ``pools`` ("3B/C")."""

    text: str
    rank: int
    pools: tuple[str, ...]


Placeholder = PoolPlace | WinnerOrLoser | BestPlaced | BestFromPools


@lru_cache(maxsize=32_768)
def parse_placeholder(text: str) -> Placeholder | None:
    """The placeholder ``text`` spells, or None when it is not placeholder syntax (a team's name).

    Kept per text (a frozen record): the pages ask it of every fixture's two sides at every snapshot, and a cup's
    4,000 matches cost 30 ms of regular expressions each time."""
    words = " ".join(text.split())
    if found := _WINNER_OR_LOSER.match(words):
        outcome: Literal["winner", "loser"] = "winner" if found.group(1) == "winner" else "loser"
        return WinnerOrLoser(text=text, outcome=outcome, match=found.group(2))
    if found := _BEST.match(words):
        nth = int(found.group(1) or 1)
        rank = int(found.group(2))
        if nth < 1 or rank < 1:
            return None
        return BestPlaced(text=text, nth=nth, rank=rank)
    if found := _FROM_POOLS.match(words):
        rank = int(found.group(1))
        pools = tuple(x.strip() for x in found.group(2).split("/"))
        if rank < 1 or len(set(pools)) != len(pools):
            return None
        return BestFromPools(text=text, rank=rank, pools=pools)
    if found := _PLACE.match(words):
        rank = int(found.group(1))
        if rank < 1:
            return None
        return PoolPlace(text=text, rank=rank, stage=found.group(2))
    return None


def source_stage(placeholder: Placeholder) -> str | None:
    """The one stage a placeholder waits for; None for best-placed slots (they wait for every first-round pool)."""
    if isinstance(placeholder, PoolPlace):
        return placeholder.stage
    if isinstance(placeholder, WinnerOrLoser):
        return placeholder.match
    return None


@lru_cache(maxsize=32_768)
def canonical(text: str) -> str:
    """One spelling per slot: "1 A" and "1A", "winner  SF1" and "winner SF1" are the same slot."""
    found = parse_placeholder(text)
    if isinstance(found, PoolPlace):
        return f"{found.rank}{found.stage}"
    if isinstance(found, WinnerOrLoser):
        return f"{found.outcome} {found.match}"
    if isinstance(found, BestFromPools):
        return f"{found.rank}{'/'.join(found.pools)}"
    return " ".join(text.split())

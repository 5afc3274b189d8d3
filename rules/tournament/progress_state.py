"""What a walk of the tournament's stages makes (:func:`rules.tournament.progress`): each pool's state, each
knock-out match's, each place's team or what it still needs, and the results set aside; and what a caller that
walks again after every result keeps between walks (:class:`KeptProgress`)."""

from __future__ import annotations

from rules.record import Record, field
from rules.standings import MatchResult, PoolTable
from rules.tournament.ranking import RankedTeams
from rules.tournament.sameclub import Swap
from rules.words.standings import Words


class Slot(Record):
    """A placeholder and, once known, its team; otherwise what it still needs."""

    text: str
    team: str | None
    needs: str | None = None
    needs_words: Words | None = field(default=None, compare=False)  # ``needs`` as phrases (rules.words.standings)


class PoolState(Record):
    name: str
    teams: tuple[Slot, ...]
    played: int
    expected: int
    table: PoolTable | None
    carried: tuple[MatchResult, ...] = ()
    # Each team's disciplinary points, where the ruleset ranks by fair play (a team whose points are not known, a
    # result without its log, is not listed); None where it does not.
    fair_play: tuple[tuple[str, int], ...] | None = None

    @property
    def complete(self) -> bool:
        return self.table is not None and self.played == self.expected


class FixtureProgress(Record):
    name: str
    round: str
    home: Slot
    away: Slot
    result: MatchResult | None
    winner: str | None
    loser: str | None


class SetAside(Record):
    """A stored result that no longer fits the tournament (a correction upstream sent other teams to its
    stage, a ruleset edit makes it impossible): kept, not counted, and shown to the organiser to settle."""

    stage: str
    result: MatchResult
    reason: str


class Progress(Record):
    pools: dict[str, PoolState]
    matches: dict[str, FixtureProgress]
    rankings: dict[str, RankedTeams]
    slots: dict[str, Slot]
    final_ranking: tuple[Slot, ...]
    swaps: tuple[Swap, ...]
    exchanges: tuple[str, ...] = ()
    """Same-club exchanges applied to final placement games, as sentences."""
    clashes: tuple[str, ...] = ()
    """Final placement games between two teams of one club, and what the organiser may do."""
    set_aside: tuple[SetAside, ...] = ()
    """Results left out because they no longer fit (only when ``progress(..., strict=False)``)."""


class KeptProgress:
    """What a caller that works out the progress again after every result (the service) keeps between calls: each
    pool's and knock-out match's state and each place's team, with what it was worked out from. A stage whose
    inputs are the objects they were last time keeps its state, so a result walks again its own stage and what
    follows from it, not every pool, match and place of the class.

    Inputs are compared, never hashed; the kept states are replaced whole, never changed, so one may be shared by
    several classes (their stage names are unique across a cup) and by threads.
    """

    def __init__(self) -> None:
        # stage -> (inputs, state, the results it counts, the results it set aside)
        self.pools: dict[str, tuple[tuple[object, ...], PoolState, list[MatchResult], list[SetAside]]] = {}
        self.matches: dict[str, tuple[tuple[object, ...], FixtureProgress, list[SetAside]]] = {}
        # a place ("2A", "winner SF1") -> (the pool or match state it was read from, its slot)
        self.slots: dict[str, tuple[object, Slot]] = {}
        self.entry_slots: dict[tuple[str, ...], tuple[Slot, ...]] = {}
        # a pool -> (the state its places were read from, each place's key and slot): a cup's every place is
        # filled after each walk, most of them from pools no result changed
        self.places: dict[str, tuple[PoolState, tuple[tuple[str, Slot], ...]]] = {}

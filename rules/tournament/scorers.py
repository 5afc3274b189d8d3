"""A class's top scorers, from its matches' timelines (rules.match.timeline): the pages' list, the venue screen's.

Only goals that count are anyone's: one a press undid or the referee disallowed is not, and the shoot-out's
attempts are not goals. Players are told apart by team and shirt number; the caller names them (a team sheet's
"#13 Anna Berg", or "#13" where the class keeps names off public screens).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from rules.match.timeline import MatchTimeline
from rules.record import Record


class Scorer(Record):
    team: str
    player: str  # the shirt number
    label: str  # "#13 Anna Berg" or "#13", as the caller names them
    goals: int
    matches: tuple[int, ...]  # the matches they scored in, in the order given
    rank: int = 1  # shared by equal goals: 1, 2, 2, 4


class PlayedMatch(Record, kw_only=False):
    """A match's number, its two teams and its timeline."""

    number: int
    home: str
    away: str
    timeline: MatchTimeline


def top_scorers(played: Iterable[PlayedMatch], label: Callable[[str, str], str]) -> tuple[Scorer, ...]:
    """Every scorer of ``played``, most goals first, then by team and shirt number; ``label(team, number)``
    names a player."""
    goals: dict[tuple[str, str], list[int]] = {}
    for m in played:
        for (side, player), count in m.timeline.scorers().items():
            team = m.home if side == "home" else m.away
            goals.setdefault((team, player), []).extend([m.number] * count)
    ordered = sorted(goals.items(), key=lambda item: (-len(item[1]), item[0][0], item[0][1].zfill(4)))
    out: list[Scorer] = []
    for i, ((team, player), numbers) in enumerate(ordered):
        rank = out[-1].rank if out and out[-1].goals == len(numbers) else i + 1
        out.append(Scorer(team=team, player=player, label=label(team, player), goals=len(numbers),
                          matches=tuple(dict.fromkeys(numbers)), rank=rank))
    return tuple(out)


__all__ = ["PlayedMatch", "Scorer", "top_scorers"]

"""A class's scorers and its discipline list (issue 33), from its matches' timelines (rules.match.timeline).

Only what counts: a goal a press undid or the referee disallowed is no one's; a class that keeps its results off
the pages has neither list (its goals tell its scores).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rules import MatchTimeline, PlayedMatch, Scorer, top_scorers
from server.web.match_rows import MatchRow
from server.web.view import View


@dataclass(frozen=True)
class Given:
    """A card, exclusion or penalty given in a match, and the matches it rules the player out of."""

    number: int  # the match
    team: str
    player: str | None
    who: str  # the player as the pages name them (View.player_label)
    penalty: str  # the ruleset's kind ("yellow_card", "minor")
    label: str  # its name in the ruleset
    period: int
    played: str  # the time played in its period
    misses: tuple[int, ...]


def _rows(v: View, class_name: str) -> list[MatchRow]:
    rows = v.class_matches(class_name) if class_name else v.matches
    return [m for m in rows if m.published and (m.recorded is not None or m.live)]


def scorers(v: View, class_name: str, timeline: Callable[[int], MatchTimeline | None]) -> tuple[Scorer, ...]:
    """The class's scorers (every match's, without classes), most goals first, then by team and number."""
    rows = [(m, timeline(m.number)) for m in _rows(v, class_name)]
    stage = {m.home: m.stage for m, _ in rows} | {m.away: m.stage for m, _ in rows}
    return top_scorers((PlayedMatch(m.number, m.home, m.away, t) for m, t in rows if t is not None),
                       lambda team, player: v.player_label(stage[team], team, player))


def discipline(v: View, class_name: str, timeline: Callable[[int], MatchTimeline | None]) -> list[Given]:
    """Every card, exclusion and penalty the class's tables recorded, in playing order, with the matches each
    rules its player out of (the organiser's register: server.discipline)."""
    misses = {(s.sanction.number, s.sanction.team, s.sanction.player, s.sanction.kind): s.misses
              for s in v.suspensions}
    out = []
    for m in _rows(v, class_name):
        t = timeline(m.number)
        ruleset = v.data.ruleset_of(m.stage)
        for line in t.lines if t is not None else ():
            if line.kind != "penalty" or line.penalty is None or line.team is None:
                continue
            team = m.home if line.team == "home" else m.away
            out.append(Given(number=m.number, team=team, player=line.player,
                             who=v.player_label(m.stage, team, line.player), penalty=line.penalty,
                             label=ruleset.penalty(line.penalty).label, period=line.period, played=line.played_text,
                             misses=misses.get((m.number, team, line.player or "?", line.penalty), ())))
    return out


def fair_play(v: View, class_name: str) -> list[tuple[str, list[tuple[str, int]]]]:
    """Each pool's disciplinary points (fewest first), where the class's ruleset ranks by fair play; a team whose
    points are not known (a result entered without its log) is not listed, as its table does not count it."""
    if v.progress is None:
        return []
    pools = v.class_pools(class_name) if class_name else v.pools
    out = []
    for name in pools:
        state = v.progress.pools.get(name)
        if state is not None and state.fair_play is not None:
            out.append((name, sorted(state.fair_play, key=lambda x: (x[1], x[0]))))
    return out

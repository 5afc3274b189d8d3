"""The knock-out matches as brackets: each match placed where the match its winner goes to can be
drawn between its two feeders, rounds in playing order, the placement matches apart.

A tree is read from the schedule's own slots ("winner SF1"): its root is a match whose winner
goes nowhere (the final first). Match ``d`` rounds before the root takes 2**(D-d) rows of a grid
of 2**D rows, so a match sits exactly halfway between the two it is fed by and the page joins
them with plain CSS lines (no script). A feeder that is a pool place ("1A") leaves its half empty.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules import WinnerOrLoser, parse_placeholder
from server.web.match_rows import MatchRow
from server.web.view import View

MAX_DEPTH = 4  # a round of 32 before the final: 16 grid rows, as many as the style sheet places


@dataclass(frozen=True, kw_only=True)
class Node:
    match: MatchRow
    column: int  # 1 = the tree's first round
    row: int  # the first of its grid rows (1-based)
    span: int  # how many grid rows it takes
    half: str  # "up" or "down": the half of the next match's rows it sits in; "" for the root
    fed: bool  # a match of this tree plays into it (a line comes in from the left)
    winner_to: str | None  # the match its winner plays next (a stage name, "SF1")
    loser_to: str | None


@dataclass(frozen=True, kw_only=True)
class Tree:
    root: MatchRow
    columns: tuple[str, ...]  # each column's round, first round first
    rows: int
    nodes: tuple[Node, ...]


def _feeders(view: View) -> tuple[dict[str, tuple[str | None, str | None]], dict[str, str], dict[str, str]]:
    """Per stage its home and away feeder matches (by winner), and where each match's winner and loser go."""
    feeds: dict[str, tuple[str | None, str | None]] = {}
    winner_to: dict[str, str] = {}
    loser_to: dict[str, str] = {}
    for m in view.data.schedule.matches:
        if m.round == "pool":
            continue
        sides: list[str | None] = []
        for text in (m.home, m.away):
            slot = parse_placeholder(text)
            if isinstance(slot, WinnerOrLoser):
                (winner_to if slot.outcome == "winner" else loser_to)[slot.match] = m.stage
            sides.append(slot.match if isinstance(slot, WinnerOrLoser) and slot.outcome == "winner" else None)
        feeds[m.stage] = (sides[0], sides[1])
    return feeds, winner_to, loser_to


def _first_place_match(view: View, class_name: str | None) -> str | None:
    """The match whose winner the final ranking puts 1st ("winner F"), if it says."""
    found = view.data.cup.class_named(class_name or "")
    ranking = found.tournament.final_ranking if found is not None else []
    slot = parse_placeholder(ranking[0]) if ranking else None
    return slot.match if isinstance(slot, WinnerOrLoser) else None


def _walk(rows: dict[str, MatchRow], feeds: dict[str, tuple[str | None, str | None]],
          placed: list[tuple[MatchRow, int, int, str]], stage: str, depth: int, index: int, half: str,
          seen: frozenset[str]) -> None:
    """Place ``stage`` and, a round earlier, the matches whose winners it gets (home above, away below)."""
    placed.append((rows[stage], depth, index, half))
    if depth == MAX_DEPTH:
        return
    for side, feeder in enumerate(feeds.get(stage, (None, None))):
        if feeder is not None and feeder in rows and feeder not in seen:
            _walk(rows, feeds, placed, feeder, depth + 1, index * 2 + side, "down" if side else "up", seen | {feeder})


def trees(view: View, class_name: str | None = None) -> list[Tree]:
    """One tree per match whose winner goes nowhere (one class's, when named): the match that decides 1st place
    first (a cup's A final, not its B final), then the other finals and the placement matches in playing order
    (most are a tree of one match, fed by losers)."""
    rows = {m.stage: m for m in view.matches if not m.is_pool and class_name in (None, m.class_name)}
    feeds, winner_to, loser_to = _feeders(view)
    roots = [m for m in rows.values() if m.stage not in winner_to]
    first = _first_place_match(view, class_name)
    roots.sort(key=lambda m: (m.stage != first, m.round != "final", m.start, m.number))
    out = []
    for root in roots:
        placed: list[tuple[MatchRow, int, int, str]] = []  # match, depth, index at its depth, half
        _walk(rows, feeds, placed, root.stage, 0, 0, "", frozenset({root.stage}))
        deepest = max(depth for _, depth, _, _ in placed)
        columns: dict[int, str] = {}
        nodes = []
        for m, depth, index, half in placed:
            span = 2 ** (deepest - depth)
            columns.setdefault(deepest - depth + 1, m.round)
            fed = any(f in rows for f in feeds.get(m.stage, (None, None))) and depth < MAX_DEPTH
            nodes.append(Node(match=m, column=deepest - depth + 1, row=index * span + 1, span=span, half=half,
                              fed=fed, winner_to=winner_to.get(m.stage), loser_to=loser_to.get(m.stage)))
        nodes.sort(key=lambda n: (n.column, n.row))
        out.append(Tree(root=root, columns=tuple(columns[c] for c in sorted(columns)), rows=2 ** deepest,
                        nodes=tuple(nodes)))
    return out

"""The disciplinary register: who is suspended for which match, by the rules the desk, the team's page
and the courts' schedules all share (no I/O: the callers read the cards, the rulings and the schedule).

A card counts when the ruleset suspends the player for later matches (seed 003: a red card,
or two yellows, misses the next match; seed 001: brutality, at least one) or sends it to the
organisers (seed 004: every game penalty; seed 001: brutality; indoor hockey: red cards),
who then rule how many matches it costs; the latest ruling on a card replaces the ruleset's
count. A suspension runs for the team's next matches in playing order after the match the
card was given in. Nobody is suspended without a name: a card without a player is listed
for the organiser to complete.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from datetime import datetime
from typing import Any, Protocol

from rules import CourtsideError, Match, Ruleset, StageKind, event_from_dict


@dataclass(frozen=True, kw_only=True)
class Sanction:
    """A card or penalty the ruleset sends to the organisers (suspension, report)."""

    number: int  # the match it was given in
    team: str
    player: str
    kind: str
    label: str
    suspended_matches: int  # from the ruleset; 0 when only the organiser decides
    needs_decision: bool  # ice-hockey game penalties, water-polo brutality: the organiser rules
    decided: str = ""  # the organiser's ruling once given


@dataclass(frozen=True, kw_only=True)
class Ruling:
    """The organiser's ruling on a reported card: how many further matches the player misses."""

    number: int
    team: str
    player: str
    matches: int
    who: str
    why: str
    at: datetime


class Fixture(Protocol):
    """A scheduled match as the caller has it (the web's ``MatchRow``, the service's ``FixtureView``)."""

    @property
    def number(self) -> int: ...
    @property
    def start(self) -> datetime: ...
    @property
    def home(self) -> str | None: ...
    @property
    def away(self) -> str | None: ...


def may_sanction(ruleset: Ruleset, kind: str) -> bool:
    """Whether an award of ``kind`` can put a card on the register, itself or by what it escalates to
    (a yellow in seed 003: the second one is a red). Matches with no such award need no replay."""
    kinds = ruleset.penalties.kinds
    for name in (kind, kinds[kind].escalates_to if kind in kinds else None):
        k = kinds.get(name) if name is not None else None
        if k is not None and (k.suspended_next_matches or k.report_to_organisers):
            return True
    return False


def cards_of(ruleset: Ruleset, bodies: Sequence[Mapping[str, Any]], kind: str, round: str,
             name: str) -> list[dict[str, Any]]:
    """The cards of a match (``MatchState.cards`` as dicts) from its stored event lines, replayed; none when
    they do not replay (the service refused what does not)."""
    if not bodies:
        return []
    try:
        events = [event_from_dict(dict(b), f"match {name}") for b in bodies]
        stage: StageKind = "round_robin" if kind == "round_robin" else "knockout"
        match = Match.replay(ruleset, events, stage=stage, round=round)
        return [asdict(c) for c in match.state_at(events[-1].at).cards]
    except CourtsideError:
        return []


def sanctions_from_cards(number: int, home: str, away: str, cards: Iterable[Mapping[str, Any]]) -> list[Sanction]:
    """The register's entries for match ``number`` (``cards``: ``MatchState.cards`` as dicts)."""
    out = []
    for card in cards:
        suspended = int(card.get("suspended_next_matches") or 0)
        report = bool(card.get("report_to_organisers"))
        if not suspended and not report:
            continue
        out.append(
            Sanction(
                number=number,
                team=home if card.get("team") == "home" else away,
                player=str(card.get("player") or "?"),
                kind=str(card.get("kind", "")),
                label=str(card.get("label", card.get("kind", ""))),
                suspended_matches=suspended,
                needs_decision=report,
            )
        )
    return out


def ruled_text(matches: int) -> str:
    return f"misses {matches} match(es)" if matches else "no further suspension"


def with_rulings(sanctions: Iterable[Sanction], rulings: Iterable[Ruling]) -> list[Sanction]:
    """The sanctions with the organiser's latest ruling on each applied (its count replaces the ruleset's)."""
    latest = {(r.number, r.team, r.player): r for r in rulings}
    return [replace(s, suspended_matches=r.matches, decided=ruled_text(r.matches))
            if (r := latest.get((s.number, s.team, s.player))) else s for s in sanctions]


def misses(sanction: Sanction, matches: Sequence[Fixture], given: Fixture | None) -> tuple[int, ...]:
    """The match numbers the player sits out: the team's next ``suspended_matches`` matches after ``given``
    (the match the card was given in), ``matches`` being the whole schedule in playing order, or the team's own
    matches in it (:func:`matches_by_team`)."""
    later = [m.number for m in matches
             if sanction.team in (m.home, m.away) and (given is None or m.start > given.start)]
    return tuple(later[:sanction.suspended_matches])


def matches_by_team(matches: Sequence[Fixture], teams: Collection[str] | None = None) -> dict[str, list[Fixture]]:
    """Each team's matches of ``matches`` (of ``teams`` only, if given), in their order: a sanction's misses are
    read from its own team's (the whole schedule read again for each sanction cost a cup's 4,000 matches times its
    red cards)."""
    out: dict[str, list[Fixture]] = {}
    for m in matches:
        for team in (m.home, m.away):
            if team and (teams is None or team in teams):
                out.setdefault(team, []).append(m)
    return out


def suspended_by_match(sanctions: Sequence[Sanction], matches: Sequence[Fixture]) -> dict[int, list[dict[str, Any]]]:
    """Per match number, who may not play it, as the courts' schedules carry it (docs/asyncapi.yaml's
    ``Suspended``): the side, the player, the card (the ruleset's key and label, in the tournament's
    language), the match it was given in and how many matches are left to sit out, this one included.
    ``matches``: the whole schedule, in any order (each sanctioned team's own are put in playing order: a team
    plays one match at a time, so by their start)."""
    by_number = {m.number: m for m in matches}
    of_team = matches_by_team(matches, {s.team for s in sanctions})
    for own in of_team.values():
        own.sort(key=lambda m: (m.start, m.number))
    out: dict[int, list[dict[str, Any]]] = {}
    for s in sanctions:
        if s.player == "?":  # nobody is suspended without a name (the desk lists the card to complete)
            continue
        missed = misses(s, of_team.get(s.team, ()), by_number.get(s.number))
        for i, number in enumerate(missed):
            m = by_number[number]
            side = "home" if m.home == s.team else "away"
            out.setdefault(number, []).append({"side": side, "player": s.player, "kind": s.kind, "label": s.label,
                                               "given_in": s.number, "matches_left": len(missed) - i})
    return out

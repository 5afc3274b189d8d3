"""Seed 004: two teams of one club drawn together in a final placement game.

"they have the right to request a different opponent ... All teams affected by
the change are to agree. Order of determination: one placement game lower than
requested placement game; two placement games lower ...; one placement game
higher ... If no team agrees to change places, the initiating team can offer a
forfeit ... officially loses the placement game(s) 0-5".

Agreement is people's business, so the software takes the outcome as the
organiser's input: a ``[[same_club.exchanges]]`` entry (the game, the team that
moves, the game it moves to, the team that takes its place). Until one is given,
:func:`clash_notes` tells the organiser which games are affected and which games
to offer, in the seed's order. A refused request is a forfeit: enter the game's
result with outcome ``forfeit`` and the ruleset scores it 0-5.

Placement games are ordered by the best place they decide in ``final_ranking``.
"""

from __future__ import annotations

from rules.errors import TournamentError
from rules.tournament.model import Tournament
from rules.tournament.placeholders import WinnerOrLoser, parse_placeholder

OFFSETS = ((1, "one placement game lower"), (2, "two placement games lower"), (-1, "one placement game higher"))
"""The seed's order of determination for a different opponent."""


def placement_order(t: Tournament) -> list[str]:
    """The final placement games, best places first, by where their winner stands in ``final_ranking``."""
    finals = set(t.same_club.final_rounds) if t.same_club else set()
    order: list[str] = []
    for text in t.final_ranking:
        found = parse_placeholder(text)
        if isinstance(found, WinnerOrLoser) and found.match not in order:
            match = t.match(found.match)
            if match is not None and match.round in finals:
                order.append(found.match)
    return order


def exchange_options(t: Tournament, name: str) -> list[tuple[str, str]]:
    """(game, how it stands to ``name``) for the games a clash in ``name`` may move to, in the seed's order."""
    order = placement_order(t)
    if name not in order:
        return []
    at = order.index(name)
    return [(order[at + k], why) for k, why in OFFSETS if 0 <= at + k < len(order)]


def check_exchanges(t: Tournament, source: str) -> None:
    """Each exchange names two final placement games the seed allows and two teams of the tournament."""
    if t.same_club is None:
        return
    used: dict[str, int] = {}
    order = placement_order(t)
    for i, ex in enumerate(t.same_club.exchanges):
        key = f"same_club.exchanges[{i}]"
        for field in ("team", "other"):
            team = getattr(ex, field)
            if t.team(team) is None:
                raise TournamentError(source, f"{key}.{field}", f"{team!r} is not a team of the tournament")
        for field in ("match", "to"):
            name = getattr(ex, field)
            if name in used:
                raise TournamentError(
                    source, f"{key}.{field}", f"{name} already changes teams in same_club.exchanges[{used[name]}]"
                )
            used[name] = i
        if not order:
            raise TournamentError(
                source, key, "needs final_ranking with the final placement games, to know which game is lower"
            )
        for field in ("match", "to"):
            name = getattr(ex, field)
            if name not in order:
                raise TournamentError(
                    source,
                    f"{key}.{field}",
                    f"{name!r} is not a final placement game (a match of round "
                    f"{' or '.join(t.same_club.final_rounds)} that places teams in final_ranking)",
                )
        allowed = [game for game, _ in exchange_options(t, ex.match)]
        if ex.to not in allowed:
            offer = ", ".join(f"{game} ({why})" for game, why in exchange_options(t, ex.match))
            raise TournamentError(
                source, f"{key}.to", f"{ex.to} is not a game the seed lets {ex.match} change with; it allows {offer}"
            )


def check_against_teams(t: Tournament, source: str, index: int, here: tuple[str, str], there: tuple[str, str]) -> None:
    """An exchange whose games now have teams: the clash is real, both teams are where it says, and it helps."""
    ex = t.same_club.exchanges[index] if t.same_club else None
    assert ex is not None
    key = f"same_club.exchanges[{index}]"
    clubs = {team.name: team.club for team in t.teams}
    if ex.team not in here:
        raise TournamentError(source, f"{key}.team", f"{ex.team} does not play {ex.match} ({here[0]} v {here[1]})")
    if ex.other not in there:
        raise TournamentError(source, f"{key}.other", f"{ex.other} does not play {ex.to} ({there[0]} v {there[1]})")
    opponent = here[1] if here[0] == ex.team else here[0]
    if not clubs[ex.team] or clubs[ex.team] != clubs[opponent]:
        raise TournamentError(
            source, key, f"{ex.team} and {opponent} are not of one club; only such a game may change opponents"
        )
    stays = there[1] if there[0] == ex.other else there[0]
    if clubs[ex.other] == clubs[opponent] or clubs[ex.team] == clubs[stays]:
        raise TournamentError(source, key, "the exchange would pair two teams of one club again")


def clash_notes(t: Tournament, games: dict[str, tuple[str, str]]) -> tuple[str, ...]:
    """What the organiser may do about each final placement game between two teams of one club."""
    if t.same_club is None:
        return ()
    clubs = {team.name: team.club for team in t.teams}
    changed = {name for ex in t.same_club.exchanges for name in (ex.match, ex.to)}
    notes = []
    for name in placement_order(t):
        if name in changed or name not in games:
            continue
        a, b = games[name]
        if clubs[a] and clubs[a] == clubs[b]:
            offer = "; ".join(f"{game} ({why})" for game, why in exchange_options(t, name))
            notes.append(
                f"{name}: {a} and {b} are both {clubs[a]}; either may ask for another opponent, "
                f"offered in this order: {offer or 'no other game'}; every team affected must agree "
                "(enter it under [[same_club.exchanges]]), else it may forfeit the game 0-5"
            )
    return tuple(notes)

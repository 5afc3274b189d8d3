"""Penalty, suspension and exclusion timers, measured in match play time.

A penalty starts at a play-time instant and lasts ``length`` ms of play time
(``None``: to the end of the match), so it runs only while the match clock runs.
A team has at most ``max_reducing_per_team`` players short at once (ice hockey:
two); a further penalty waits and starts at the play time one of those ends. A
player serves their own penalties one after another.
Coincidental penalties are served without changing strength. Functions here take
and return tuples of frozen :class:`Penalty` records and never mutate them.
"""

from __future__ import annotations

from rules.match.events import SIDES, Side, other
from rules.record import Record
from rules.ruleset import Ruleset


class Penalty(Record):
    seq: int  # the award event; an escalation (two yellows make a red) shares it
    team: Side
    kind: str
    player: str | None
    length: int | None  # ms of play time; None to the end of the match
    start: int | None  # play time it started; None while it waits for a place
    ended: int | None = None  # play time it ended
    end_reason: str | None = None  # "served", "goal", "operator", "corrected", "caution"
    ended_by_goal: int | None = None
    reduces: bool = True
    coincidental: bool = False
    escalated: bool = False
    stoppage: int = 0
    awarded_at: int = 0
    # A major: reduces strength and never ends on a goal. IIHF: "when a player receives a major
    # penalty and a minor penalty at the same time, the major penalty shall be served first".
    first: bool = False

    @property
    def active(self) -> bool:
        return self.ended is None

    @property
    def running(self) -> bool:
        return self.ended is None and self.start is not None

    def end_play(self) -> int | None:
        """Play time at which it will have been served (None: never, or not started)."""
        if self.start is None or self.length is None:
            return None
        return self.start + self.length

    def remaining(self, play: int) -> int | None:
        if self.length is None:
            return None
        if self.ended is not None:
            return 0
        if self.start is None:
            return self.length
        return max(0, min(self.length, self.start + self.length - play))


def short_count(penalties: tuple[Penalty, ...], team: Side) -> int:
    """Players the team is short on the field now."""
    return sum(1 for p in penalties if p.team == team and p.reduces and p.running)


def has_room(penalties: tuple[Penalty, ...], team: Side, limit: int | None) -> bool:
    """The team may have one more player short (``limit``: the ruleset's ``max_reducing_per_team``)."""
    return limit is None or short_count(penalties, team) < limit


def goes_before(q: Penalty, p: Penalty) -> bool:
    """The player's penalty ``q`` is served before ``p`` (both waiting, or ``p`` just awarded).

    Those that reduce strength first (a misconduct starts when the minor ends); at one
    stoppage a major before a minor, whatever order they were entered in.
    """
    if q.reduces and not p.reduces:
        return True
    return q.first and not p.first and p.reduces and q.stoppage == p.stoppage


def behind(penalties: tuple[Penalty, ...], p: Penalty, skip: int = -1) -> bool:
    """``p`` waits for its player: another of theirs is running, or one that goes before it waits.

    A player serves their penalties one after another (an ice-hockey double minor is
    four minutes with the team one short), in the order of :func:`goes_before`, else
    the order given. ``skip``: the index of ``p`` itself.
    """
    if p.player is None:
        return False
    return any(
        i != skip and q.team == p.team and q.player == p.player
        and (q.running or (q.active and q.start is None and goes_before(q, p)))
        for i, q in enumerate(penalties)
    )


def served_first(penalties: tuple[Penalty, ...], new: Penalty, stoppage: int) -> tuple[Penalty, ...]:
    """The player's penalties of this stoppage that ``new`` goes before wait again (no clock has run since)."""
    if new.player is None:
        return penalties
    return tuple(
        q.replace(start=None)
        if q.team == new.team and q.player == new.player and q.running and q.stoppage == stoppage
        and goes_before(new, q)
        else q
        for q in penalties
    )


def start_waiting(penalties: tuple[Penalty, ...], team: Side, play: int, limit: int | None) -> tuple[Penalty, ...]:
    """Start the team's waiting penalties, oldest first, while there is room and their player is free."""
    result = list(penalties)
    for i, p in enumerate(result):
        if p.team == team and p.active and p.start is None:
            if behind(tuple(result), p, skip=i):
                continue
            if p.reduces and not has_room(tuple(result), team, limit):
                continue  # a later one without room cannot start either; one that does not reduce can
            result[i] = p.replace(start=play)
    return tuple(result)


def end(
    penalties: tuple[Penalty, ...], index: int, play: int, reason: str, limit: int | None, goal: int | None = None
) -> tuple[Penalty, ...]:
    p = penalties[index]
    result = list(penalties)
    result[index] = p.replace(ended=play, end_reason=reason, ended_by_goal=goal)
    return start_waiting(tuple(result), p.team, play, limit)


def mark_coincidental(
    ruleset: Ruleset, penalties: tuple[Penalty, ...], stoppage: int, play: int
) -> tuple[Penalty, ...]:
    """Equal numbers of the same timed kind to both teams at one stoppage: served, strength unchanged."""
    if not ruleset.penalties.coincidental_cancel:
        return penalties
    result = list(penalties)
    kinds = {p.kind for p in penalties if p.stoppage == stoppage and p.length and not p.escalated}
    for kind in sorted(kinds):
        if not ruleset.penalty(kind).reduces_strength:
            continue
        idx = {
            team: [
                i for i, p in enumerate(result)
                if p.team == team and p.kind == kind and p.stoppage == stoppage and p.active and not p.escalated
            ]
            for team in SIDES
        }
        pairs = min(len(idx["home"]), len(idx["away"]))
        for team in SIDES:
            for i in idx[team][:pairs]:
                p = result[i]
                result[i] = p.replace(coincidental=True, reduces=False, start=play if p.start is None else p.start)
    limit = ruleset.penalties.max_reducing_per_team
    out = tuple(result)
    for team in SIDES:
        out = start_waiting(out, team, play, limit)
    return out


def on_goal(
    ruleset: Ruleset, penalties: tuple[Penalty, ...], scorer: Side, play: int, goal: int,
    awarded_by: int | None = None,
) -> tuple[Penalty, ...]:
    """End what a goal ends: every "any" penalty; the conceding side's "against" one if short-handed.

    ``awarded_by``: only penalties awarded at or before this instant count (a goal
    pressed after the horn was scored before penalties given after the horn).
    """
    limit = ruleset.penalties.max_reducing_per_team
    conceding = other(scorer)

    def before(p: Penalty) -> bool:
        return awarded_by is None or p.awarded_at <= awarded_by

    # Strength before the goal decides, so compute it once.
    on_ice = tuple(p for p in penalties if before(p))
    short_handed = short_count(on_ice, conceding) > short_count(on_ice, scorer)
    result = penalties
    for i, p in enumerate(penalties):
        if before(p) and p.running and ruleset.penalty(p.kind).ends_on_goal == "any":
            result = end(result, i, play, "goal", limit, goal)
    if short_handed:
        candidates = [
            (p.remaining(play) or 0, i)
            for i, p in enumerate(result)
            if before(p) and p.team == conceding and p.running and p.reduces and p.length is not None
            and ruleset.penalty(p.kind).ends_on_goal == "against"
        ]
        if candidates:
            # IIHF: only the minor with the least time left ends.
            _, i = min(candidates)
            result = end(result, i, play, "goal", limit, goal)
    return result


def expiries(penalties: tuple[Penalty, ...]) -> list[tuple[int, int]]:
    """(end play time, index) of every running timed penalty."""
    out = []
    for i, p in enumerate(penalties):
        if p.running:
            e = p.end_play()
            if e is not None:
                out.append((e, i))
    return out


def find(penalties: tuple[Penalty, ...], seq: int) -> int | None:
    for i, p in enumerate(penalties):
        if p.seq == seq and not p.escalated:
            return i
    return None

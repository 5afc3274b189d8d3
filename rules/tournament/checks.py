"""The tournament file's cross-references: every name it uses exists, and no team can be in two places.

Each check raises :class:`~rules.errors.TournamentError` naming the file, the key and
the reason, at the first fault in file order. Look-ups go through the tournament's
name indexes, so checking a 1,700-team file costs about as much as reading it.
"""

from __future__ import annotations

from rules.errors import TournamentError
from rules.ruleset import Ruleset, check_round
from rules.tournament.exchange import check_exchanges
from rules.tournament.model import OTHER_COURT, Tournament
from rules.tournament.placeholders import (
    BestFromPools,
    BestPlaced,
    Placeholder,
    PoolPlace,
    WinnerOrLoser,
    canonical,
    parse_placeholder,
)
from rules.tournament.stages import stage_order
from rules.tournament.thirds import check_best_from_pools
from rules.words import LANGUAGES


def check_references(t: Tournament, source: str) -> None:
    """Everything the file can be checked for without its ruleset."""
    _check_names(t, source)
    _check_pools(t, source)
    _Stages(t, source).check()
    stage_order(t, source)
    check_best_from_pools(t, source)
    _check_same_club(t, source)
    _check_times(t, source)
    _check_language(t, source)


def _check_language(t: Tournament, source: str) -> None:
    if t.language not in LANGUAGES:
        raise TournamentError(source, "language", f"no catalog for {t.language!r}; known: {', '.join(LANGUAGES)}")


def _check_names(t: Tournament, source: str) -> None:
    seen: set[str] = set()
    for i, team in enumerate(t.teams):
        if team.name in seen:
            raise TournamentError(source, f"teams[{i}].name", f"team {team.name!r} is listed twice")
        if parse_placeholder(team.name) is not None:
            raise TournamentError(
                source, f"teams[{i}].name", f"{team.name!r} reads as a placeholder; give the team another name"
            )
        seen.add(team.name)
    stages: dict[str, str] = {}
    named: list[tuple[str, str, list[str]]] = [
        ("pools", "pool", [p.name for p in t.pools]),
        ("matches", "match", [m.name for m in t.matches]),
        ("rankings", "ranking", [r.name for r in t.rankings]),
    ]
    for key, kind, names in named:
        for i, name in enumerate(names):
            if name in stages:
                raise TournamentError(source, f"{key}[{i}].name", f"{name!r} already names a {stages[name]}")
            stages[name] = kind
    if len(set(t.schedule.courts)) != len(t.schedule.courts):
        raise TournamentError(source, "schedule.courts", "a court is listed twice")
    if OTHER_COURT in t.schedule.courts:
        raise TournamentError(
            source, "schedule.courts", f"{OTHER_COURT!r} is reserved for matches played in the other hall"
        )


def _check_pools(t: Tournament, source: str) -> None:
    placed: dict[str, str] = {}
    for i, pool in enumerate(t.pools):
        key = f"pools[{i}]"
        if pool.teams is None:
            if pool.size is None:
                raise TournamentError(source, key, f"pool {pool.name} needs its teams or, for the draw, a size")
            continue
        if pool.size is not None and pool.size != len(pool.teams):
            raise TournamentError(source, f"{key}.size", f"size {pool.size} but {len(pool.teams)} teams are listed")
        if len(pool.teams) < 2:
            raise TournamentError(
                source, f"{key}.teams", f"pool {pool.name} has {len(pool.teams)} team; a pool needs at least two"
            )
        kinds = {parse_placeholder(x) is None for x in pool.teams}
        if len(kinds) > 1:
            raise TournamentError(
                source,
                f"{key}.teams",
                "mixes teams and placeholders; a pool is either entered or filled from earlier stages",
            )
        if pool.carry_forward and kinds == {True}:
            raise TournamentError(
                source, f"{key}.carry_forward", "only a pool filled from earlier pools can carry results forward"
            )
        if kinds != {True}:
            continue
        for j, name in enumerate(pool.teams):
            if t.team(name) is None:
                raise TournamentError(source, f"{key}.teams[{j}]", f"{name!r} is not a team of the tournament")
            if name in placed:
                raise TournamentError(
                    source, f"{key}.teams[{j}]", f"{name!r} is already in pool {placed[name]}; a team plays in one pool"
                )
            placed[name] = pool.name
    drawn = t.drawn_pools
    if drawn:
        free = len(t.teams) - len(placed)
        wanted = sum(p.size or 0 for p in drawn)
        if free != wanted:
            raise TournamentError(
                source, "pools", f"the drawn pools hold {wanted} teams but {free} teams are not in a listed pool"
            )
    else:
        missing = [team.name for team in t.teams if team.name not in placed]
        if missing:
            shown = ", ".join(missing[:10]) + (f" and {len(missing) - 10} more" if len(missing) > 10 else "")
            raise TournamentError(source, "teams", f"{shown} {'is' if len(missing) == 1 else 'are'} in no pool")


class _Stages:
    """The later stages' participants: each names something that exists, and no team can fill two slots."""

    def __init__(self, t: Tournament, source: str) -> None:
        self.t = t
        self.source = source
        entry = t.entry_pools
        self.entry = {p.name for p in entry}
        self.entry_sizes = {t.pool_size(p) for p in entry}
        self.entry_count = len(entry)
        self.used: dict[str, str] = {}  # canonical slot -> key where it plays

    def fail(self, key: str, message: str) -> TournamentError:
        return TournamentError(self.source, key, message)

    def check(self) -> None:
        t = self.t
        courts = set(t.schedule.courts)
        for i, pool in enumerate(t.pools):
            size = t.pool_size(pool)
            rounds = (size if size % 2 else size - 1) * (2 if pool.double else 1)
            if len(pool.rounds_not_before) > rounds:
                raise self.fail(
                    f"pools[{i}].rounds_not_before", f"gives {len(pool.rounds_not_before)} times for {rounds} rounds"
                )
            if pool.court is not None and pool.court not in courts:
                raise self.fail(
                    f"pools[{i}].court", f"court {pool.court!r} does not exist (courts: {', '.join(t.schedule.courts)})"
                )
            if pool.name not in self.entry:
                for j, text in enumerate(pool.teams or ()):
                    self.play(text, f"pools[{i}].teams[{j}]")
        for i, match in enumerate(t.matches):
            if match.court is not None and match.court != OTHER_COURT and match.court not in courts:
                raise self.fail(
                    f"matches[{i}].court",
                    f"court {match.court!r} does not exist (courts: {', '.join(t.schedule.courts)})",
                )
            for side, text in (("home", match.home), ("away", match.away)):
                if parse_placeholder(text) is None and t.team(text) is not None:
                    continue  # a team entered by name
                self.play(text, f"matches[{i}].{side}")
            if match.court == OTHER_COURT and not any(
                isinstance(parse_placeholder(x), WinnerOrLoser) for x in (match.home, match.away)
            ):
                raise self.fail(f"matches[{i}].court", '"other" needs a match feeding this one')
        self.check_overlaps()
        for i, ranking in enumerate(t.rankings):
            seen: set[str] = set()
            for j, text in enumerate(ranking.teams):
                self.placeholder(text, f"rankings[{i}].teams[{j}]")
                if canonical(text) in seen:
                    raise self.fail(f"rankings[{i}].teams[{j}]", f"{text!r} is named twice in ranking {ranking.name}")
                seen.add(canonical(text))
        places: set[str] = set()
        for i, text in enumerate(t.final_ranking):
            self.placeholder(text, f"final_ranking[{i}]")
            if canonical(text) in places:
                raise self.fail(f"final_ranking[{i}]", f"{text!r} is given two places")
            places.add(canonical(text))
        if t.final_ranking and len(t.final_ranking) != len(t.teams):
            raise self.fail("final_ranking", f"lists {len(t.final_ranking)} places for {len(t.teams)} teams")

    def play(self, text: str, key: str) -> None:
        # A team goes on to exactly one next stage, so a placeholder fills one slot only.
        self.placeholder(text, key)
        slot = canonical(text)
        if slot in self.used:
            raise self.fail(key, f"{text!r} already plays in {self.used[slot]}")
        self.used[slot] = key

    def placeholder(self, text: str, key: str) -> Placeholder:
        t = self.t
        found = parse_placeholder(text)
        if found is None:
            raise self.fail(key, f'{text!r} is neither a placeholder (like "1A", "winner SF1", "best 3rd") nor a team')
        if isinstance(found, PoolPlace):
            pool, ranking = t.pool(found.stage), t.ranking(found.stage)
            if pool is None and ranking is None:
                raise self.fail(key, f"{text!r} names pool {found.stage!r}, which does not exist")
            size = t.pool_size(pool) if pool is not None else len(ranking.teams) if ranking is not None else 0
            if found.rank > size:
                raise self.fail(key, f"{text!r}: {found.stage} has only {size} places")
        elif isinstance(found, WinnerOrLoser):
            if t.match(found.match) is None:
                raise self.fail(key, f"{text!r} names match {found.match!r}, which does not exist")
        else:
            if isinstance(found, BestFromPools) and (outside := [p for p in found.pools if p not in self.entry]):
                raise self.fail(key, f"{text!r} names {outside[0]!r}, which is not a first-round pool")
            sizes = self.entry_sizes
            if len(sizes) != 1:
                raise self.fail(
                    key,
                    f"{text!r} compares pools of different sizes ({sorted(sizes)}); their records are not comparable",
                )
            if found.rank > min(sizes):
                raise self.fail(key, f"{text!r}: the first-round pools have only {min(sizes)} places")
            if isinstance(found, BestPlaced) and found.nth > self.entry_count:
                raise self.fail(key, f"{text!r}: there are only {self.entry_count} first-round pools")
        return found

    def check_overlaps(self) -> None:
        """A "best 1st" slot beside the "1A" it may turn out to be would put one team in two places."""
        best: dict[int, str] = {}
        from_pools: dict[tuple[int, str], str] = {}
        places: list[tuple[PoolPlace, str]] = []
        for slot, key in self.used.items():
            found = parse_placeholder(slot)
            if isinstance(found, BestPlaced):
                best.setdefault(found.rank, slot)
            elif isinstance(found, BestFromPools):
                for pool in found.pools:
                    from_pools.setdefault((found.rank, pool), slot)
            elif isinstance(found, PoolPlace) and found.stage in self.entry:
                places.append((found, key))
        for place, key in places:
            other = best.get(place.rank) or from_pools.get((place.rank, place.stage))
            if other is not None:
                raise self.fail(
                    key,
                    f"{place.text!r} may be the same team as {other!r} ({self.used[other]}): "
                    "one team would play in two places; name each qualifier once",
                )


def _check_same_club(t: Tournament, source: str) -> None:
    if t.same_club is None:
        return
    entry = {p.name for p in t.entry_pools}
    for i, group in enumerate(t.same_club.swappable):
        ranks = set()
        for j, text in enumerate(group):
            found = parse_placeholder(text)
            if not isinstance(found, PoolPlace) or found.stage not in entry:
                raise TournamentError(
                    source, f"same_club.swappable[{i}][{j}]", f"{text!r} is not a place in a first-round pool"
                )
            ranks.add(found.rank)
        if len(ranks) > 1:
            raise TournamentError(source, f"same_club.swappable[{i}]", "only equally placed teams may be swapped")
    check_exchanges(t, source)


def _check_times(t: Tournament, source: str) -> None:
    s = t.schedule
    for i, b in enumerate(s.breaks):
        if b.end <= b.start:
            raise TournamentError(source, f"schedule.breaks[{i}]", "a break must end after it starts")
    if (s.day_start is None) != (s.day_end is None):
        raise TournamentError(
            source,
            "schedule.day_end" if s.day_end is None else "schedule.day_start",
            "day_start and day_end go together",
        )
    if s.day_start is not None and s.day_end is not None and s.day_end <= s.day_start:
        raise TournamentError(source, "schedule.day_end", "the day must end after it starts")
    if (s.resurface_every == 0) != (s.resurface == 0):
        raise TournamentError(source, "schedule.resurface", "resurface and resurface_every go together")


def shortest_match(ruleset: Ruleset) -> tuple[int, str]:
    """The shortest wall-clock time a match can take, and how it is made up in words: its periods and intervals,
    with a stopped clock the ruleset's estimate of the stoppages, and never more than its wall-clock cap."""
    fmt = ruleset.match
    play, breaks = fmt.periods * fmt.period_length, sum(fmt.intervals)
    stopped = fmt.periods * fmt.stoppages if fmt.stopped_time else 0
    parts = [f"{fmt.periods} x {_clock(fmt.period_length)} of play"]
    if breaks:
        parts.append(f"{_clock(breaks)} of intervals")
    if stopped:
        parts.append(f"about {fmt.periods} x {_clock(fmt.stoppages)} the clock stands still (match.stoppages)")
    total = play + breaks + stopped
    words = f"{', '.join(parts[:-1])} and {parts[-1]}" if len(parts) > 1 else parts[0]
    words += f" = {_clock(total)}"
    if fmt.wall_clock_cap is not None and fmt.wall_clock_cap < total:
        return fmt.wall_clock_cap, f"its wall-clock cap of {_clock(fmt.wall_clock_cap)}"
    return total, words


def slot_lengths(t: Tournament, ruleset: Ruleset) -> tuple[int, int]:
    """(pool slot, knock-out slot) in ms; the ruleset's wall-clock cap is the default slot."""
    slot = t.schedule.slot if t.schedule.slot is not None else ruleset.match.wall_clock_cap
    if slot is None:
        raise TournamentError(
            "", "schedule.slot", "required key is missing (the ruleset sets no wall-clock cap to use instead)"
        )
    return slot, t.schedule.knockout_slot if t.schedule.knockout_slot is not None else slot


def check_against_ruleset(t: Tournament, ruleset: Ruleset, source: str) -> None:
    """The slots fit the ruleset's matches, and every round is one the ruleset names."""
    s = t.schedule
    if s.slot is None and ruleset.match.wall_clock_cap is None:
        raise TournamentError(
            source, "schedule.slot", f"required: ruleset {ruleset.name} sets no wall-clock cap to use as the slot"
        )
    slot, knockout = slot_lengths(t, ruleset)
    # A stopped clock only makes a match longer than its periods: the floor holds for every sport.
    need, made_of = shortest_match(ruleset)
    for key, length in (("schedule.slot", slot), ("schedule.knockout_slot", knockout)):
        if length < need:
            raise TournamentError(
                source, key, f"{_clock(length)} is shorter than the shortest {ruleset.sport} match: {made_of}"
            )
    cap = ruleset.match.wall_clock_cap
    if cap is not None and slot < cap:
        message = f"{_clock(slot)} is shorter than the {_clock(cap)} a game may last"
        raise TournamentError(source, "schedule.slot", message)
    # Rules that depend on the round (water-polo time-outs) match its name exactly: "Semi Final" would lose them.
    for i, match in enumerate(t.matches):
        try:
            check_round(ruleset, match.round)
        except ValueError as err:
            raise TournamentError(source, f"matches[{i}].round", str(err)) from None
    for key, rounds in (("same_club.final_rounds", t.same_club.final_rounds if t.same_club else []),):
        for j, name in enumerate(rounds):
            try:
                check_round(ruleset, name)
            except ValueError as err:
                raise TournamentError(source, f"{key}[{j}]", str(err)) from None


def _clock(ms: int) -> str:
    return f"{ms // 60_000}:{ms // 1000 % 60:02d}"

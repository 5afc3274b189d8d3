"""The walk behind :func:`rules.tournament.progress`: the stages in the order they wait for each other, each
pool ranked once complete, each knock-out match's teams and result, each place's team or what it still needs (its
slots filled by rules.tournament.slot_filling). Nothing here guesses: a tie that needs lots or a penalty
competition waits for the organiser's decision.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules.errors import TournamentError
from rules.ruleset import Ruleset
from rules.standings import Decision, MatchResult, rank_pool, winner_of
from rules.standings.possible import impossible
from rules.tournament.exchange import check_against_teams
from rules.tournament.fixtures import carried_pairs, pool_fixture_count
from rules.tournament.model import Pool, Tournament, placeholder_of
from rules.tournament.placeholders import (
    PoolPlace,
    WinnerOrLoser,
    canonical,
    parse_placeholder,
)
from rules.tournament.progress_state import FixtureProgress, KeptProgress, PoolState, SetAside, Slot
from rules.tournament.ranking import CrossRow, RankedTeams, rank_across
from rules.tournament.sameclub import Swap
from rules.tournament.slot_filling import SlotFilling, cross_row
from rules.words.standings import Phrase, Words, reason_text


class Walker(SlotFilling):
    """One walk of a tournament's stages (see :func:`rules.tournament.progress`); its slots are filled by
    :class:`SlotFilling` from what it has walked."""

    def __init__(
        self,
        t: Tournament,
        ruleset: Ruleset,
        entry_teams: dict[str, tuple[str, ...]],
        results: Sequence[MatchResult],
        decisions: Sequence[Decision],
        results_source: str,
        source: str,
        result_lines: Sequence[int] = (),
        strict: bool = True,
    ) -> None:
        self.t, self.ruleset, self.entry, self.source = t, ruleset, entry_teams, source
        self.strict = strict
        self.set_aside: list[SetAside] = []
        self.exchanges: list[str] = []
        self.decisions, self.results_source = decisions, results_source
        self.fair_play: Mapping[str, Mapping[str, int]] | None = None  # pool -> team -> disciplinary points
        self.kept: KeptProgress | None = None  # see progress()
        self.pools: dict[str, PoolState] = {}
        self.matches: dict[str, FixtureProgress] = {}
        self.rankings: dict[str, RankedTeams] = {}
        self.slots: dict[str, Slot] = {}
        self.entry_pool_of = {team: pool for pool, teams in entry_teams.items() for team in teams}
        self.by_stage: dict[str, list[MatchResult]] = {}
        # Results compare equal by value, so lines go by identity: each entered row keeps its own line.
        self.line_of = {id(r): n for r, n in zip(results, result_lines, strict=False)} if result_lines else {}
        names = {p.name for p in t.pools} | {m.name for m in t.matches}
        for r in results:
            if r.pool not in names:
                self.refuse(r.pool, f"{r.home} v {r.away}: {r.pool!r} is neither a pool nor a match of the tournament",
                            r)
                continue
            self.by_stage.setdefault(r.pool, []).append(r)
        self.swapped: dict[str, str] | None = None
        self.swaps: tuple[Swap, ...] = ()
        self.swappable = {canonical(s) for group in (t.same_club.swappable if t.same_club else []) for s in group}

    def fail(self, stage: str, message: str, result: MatchResult | None = None) -> TournamentError:
        line = self.line_of.get(id(result)) if result is not None else None
        source = self.results_source if line is None else f"{self.results_source}, line {line}"
        return TournamentError(source, f"pool {stage}", message)

    def refuse(self, stage: str, message: str, result: MatchResult) -> None:
        """A result that does not fit: an error for a results file; set aside for the service, whose stored
        results stay stored whatever a later correction makes of their stage (the organiser settles them)."""
        if self.strict:
            raise self.fail(stage, message, result)
        self.set_aside.append(SetAside(stage=stage, result=result, reason=message))

    # Stages ---------------------------------------------------------------------
    def pool(self, pool: Pool) -> None:
        if pool.name in self.entry:
            slots = self._entry_slots(self.entry[pool.name])
        else:
            slots = tuple(self.slot(text) for text in pool.teams or ())
        own = self.by_stage.get(pool.name, [])
        decisions = [d for d in self.decisions if d.pool == pool.name]
        fair_play = None if self.fair_play is None else self.fair_play.get(pool.name, {})
        # What the pool's state follows from, once its teams are known one by one (see _known_together): a later
        # pool's results carried from its first pools are among them (a correction there can keep its places).
        inputs = None
        if self.kept is not None and all(s.team is not None for s in slots):
            carried = tuple(self._carried(pool, {s.text: s.team for s in slots}))
            inputs = (self.ruleset, self.strict, slots, tuple(own), carried, tuple(decisions),
                      None if fair_play is None else tuple(sorted(fair_play.items())))
            kept = self.kept.pools.get(pool.name)
            if kept is not None and kept[0] == inputs:
                _, state, counted, refused = kept
                self.by_stage[pool.name] = counted
                self.set_aside += refused
                self.pools[pool.name] = state
                return
        refused_before = len(self.set_aside)
        self._walk_pool(pool, slots, own, decisions, fair_play)
        if self.kept is not None and inputs is not None:
            self.kept.pools[pool.name] = (inputs, self.pools[pool.name], self.by_stage.get(pool.name, []),
                                          self.set_aside[refused_before:])

    def _entry_slots(self, teams: tuple[str, ...]) -> tuple[Slot, ...]:
        made = self.kept.entry_slots.get(teams) if self.kept is not None else None
        if made is None:
            made = tuple(Slot(text=team, team=team) for team in teams)
            if self.kept is not None:
                self.kept.entry_slots[teams] = made
        return made

    def _walk_pool(self, pool: Pool, slots: tuple[Slot, ...], own: list[MatchResult], decisions: list[Decision],
                   fair_play: Mapping[str, int] | None) -> None:
        expected = pool_fixture_count(pool, tuple(s.text for s in slots))
        open_slots = [s for s in slots if s.team is None]
        together = self._known_together(open_slots, slots)
        if open_slots and together is None:
            for r in own:
                self.refuse(pool.name, f"has results before its teams are known ({open_slots[0].text} needs "
                                       f"{open_slots[0].needs})", r)
            self.pools[pool.name] = PoolState(name=pool.name, teams=slots, played=0, expected=expected, table=None)
            return
        team_of = {s.text: s.team or (together or {}).get(s.text) for s in slots}
        teams = [team_of[s.text] or "" for s in slots]
        own = self.by_stage[pool.name] = self._fitting(pool, own, teams, team_of)
        meets = 2 if pool.double else 1
        carried = tuple(self._carried(pool, team_of))
        ruleset = self.ruleset
        if meets > ruleset.ranking.meetings:
            # A double round robin meets twice whatever the ruleset's usual pools do.
            ruleset = ruleset.replace(ranking=ruleset.ranking.replace(meetings=meets))
        table = rank_pool(ruleset, pool.name, [*carried, *own], teams=teams, decisions=decisions, fair_play=fair_play)
        self.pools[pool.name] = PoolState(
            name=pool.name,
            teams=slots,
            played=len(own),
            expected=expected,
            table=table,
            carried=carried,
            fair_play=None if fair_play is None else tuple(sorted(fair_play.items())),
        )

    def _fitting(self, pool: Pool, own: list[MatchResult], teams: list[str],
                 team_of: dict[str, str | None]) -> list[MatchResult]:
        """The pool's results that fit its teams and the ruleset; the others refused (see :meth:`refuse`)."""
        carried_keys = {frozenset(team_of[x] for x in pair) for pair in carried_pairs(pool)}
        meets = 2 if pool.double else 1
        count: dict[frozenset[str], int] = {}
        kept: list[MatchResult] = []
        for r in own:
            pair = frozenset(r.teams)
            problem = None
            if not pair <= set(teams):
                outsider = next(x for x in r.teams if x not in teams)
                problem = f"{r.home} v {r.away}: {outsider} does not play in pool {pool.name} ({', '.join(teams)})"
            elif pair in carried_keys:
                problem = f"{r.home} v {r.away} is carried forward from their first pool, not played again"
            elif count.get(pair, 0) >= meets:
                problem = f"{r.home} v {r.away} is entered more often than they meet in pool {pool.name}"
            else:
                problem = impossible(self.ruleset.match, r, "round_robin")
            if problem is not None:
                self.refuse(pool.name, problem, r)
                continue
            count[pair] = count.get(pair, 0) + 1
            kept.append(r)
        return kept

    def _known_together(self, open_slots: Sequence[Slot], slots: Sequence[Slot]) -> dict[str, str] | None:
        """The teams of ``open_slots`` when a later pool takes every place of the ties that keep them open.

        "3A" and "4A" are open while pool A's 3rd and 4th wait for lots, but a pool that
        takes both has its teams: which is which changes nothing in that pool, so its
        results are taken as soon as they are played. None when some slot is open otherwise.
        """
        taken = {s.text for s in slots}
        together: dict[str, str] = {}
        for s in open_slots:
            found = parse_placeholder(s.text)
            if not isinstance(found, PoolPlace) or s.text in self.swappable:
                return None
            block = self._tied_block(found)
            if block is None:
                return None
            places = [canonical(f"{rank}{found.stage}") for rank in block[0]]
            if not set(places) <= taken:
                return None
            together.update(zip(places, block[1], strict=True))
        return together

    def _tied_block(self, found: PoolPlace) -> tuple[list[int], list[str]] | None:
        """The places and teams of the undecided tie that holds ``found``'s place, in a finished table."""
        state = self.pools.get(found.stage)
        if state is not None:
            if state.table is None or not state.complete or found.rank > len(state.table.rows):
                return None
            rows = [(row.rank, row.team) for row in state.table.rows]
        else:
            ranked = self.rankings.get(found.stage)
            if ranked is None or ranked.waiting or found.rank > len(ranked.rows):
                return None
            rows = [(rank, row.team) for rank, row in ranked.rows]
        shared = rows[found.rank - 1][0]
        places = [i for i, (rank, _) in enumerate(rows, start=1) if rank == shared]
        return places, [rows[i - 1][1] for i in places]

    def _carried(self, pool: Pool, team_of: dict[str, str | None]) -> list[MatchResult]:
        out = []
        # In the pool's own order of teams: a set's order changes with the hash seed, and so did the output.
        for pair in sorted(carried_pairs(pool), key=sorted):
            a, b = (team_of[x] for x in sorted(pair))
            origin = placeholder_of(sorted(pair)[0])
            assert isinstance(origin, PoolPlace)
            for r in self.by_stage.get(origin.stage, []):
                if set(r.teams) == {a, b}:
                    out.append(r.replace(pool=pool.name))
        return out

    def match(self, name: str) -> None:
        match = self.t.match(name)
        assert match is not None
        home, away = self._exchanged(name, self.slot(match.home), self.slot(match.away))
        own = self.by_stage.get(name, [])
        inputs = (self.ruleset, self.strict, home, away, tuple(own))
        kept = self.kept.matches.get(name) if self.kept is not None else None
        if kept is not None and kept[0] == inputs:
            self.matches[name] = kept[1]
            self.set_aside += kept[2]
            return
        refused_before = len(self.set_aside)
        self._walk_match(name, match.round, home, away, own)
        if self.kept is not None:
            self.kept.matches[name] = (inputs, self.matches[name], self.set_aside[refused_before:])

    def _walk_match(self, name: str, round: str, home: Slot, away: Slot, own: list[MatchResult]) -> None:
        result = None
        for r in own:
            problem = self._misfit(name, round, home, away, r) if result is None else \
                f"has {len(own)} results; a match has one"
            if problem is None:
                result = r
            else:
                self.refuse(name, problem, r)
        winner = loser = None
        if result is not None:
            winner = winner_of(self.ruleset, result)
            loser = away.team if winner == home.team else home.team
        self.matches[name] = FixtureProgress(
            name=name,
            round=round,
            home=home,
            away=away,
            result=result,
            winner=winner,
            loser=loser,
        )

    def _misfit(self, name: str, round: str, home: Slot, away: Slot, result: MatchResult) -> str | None:
        """Why ``result`` cannot be match ``name``'s, or None when it can."""
        if home.team is None or away.team is None:
            waiting = home if home.team is None else away
            return f"has a result before its teams are known ({waiting.text} needs {waiting.needs})"
        if set(result.teams) != {home.team, away.team}:
            return f"the result is {result.home} v {result.away} but {name} is {home.team} v {away.team}"
        problem = impossible(self.ruleset.match, result, "knockout")
        if problem is not None:
            return problem
        if winner_of(self.ruleset, result) is None:
            return f"{result.home} v {result.away} ended level; a {round} match needs a winner"
        return None

    def _exchanged(self, name: str, home: Slot, away: Slot) -> tuple[Slot, Slot]:
        """The teams after an organiser's same-club exchange; the slot then names the team."""
        for i, ex in enumerate(self.t.same_club.exchanges if self.t.same_club else []):
            if name not in (ex.match, ex.to):
                continue
            games = {}
            for game in (ex.match, ex.to):
                declared = self.t.match(game)
                assert declared is not None
                pair = (self.slot(declared.home).team, self.slot(declared.away).team)
                if pair[0] is None or pair[1] is None:
                    return home, away
                games[game] = (pair[0], pair[1])
            check_against_teams(self.t, self.source, i, games[ex.match], games[ex.to])
            leaves, arrives = (ex.team, ex.other) if name == ex.match else (ex.other, ex.team)
            if home.team == leaves:
                home = Slot(text=arrives, team=arrives)
            else:
                away = Slot(text=arrives, team=arrives)
            if name == ex.match:
                self.exchanges.append(f"{ex.team} plays {ex.to} instead of {ex.match}; {ex.other} takes its place")
        return home, away

    def ranking(self, name: str) -> None:
        ranking = self.t.ranking(name)
        assert ranking is not None
        rows: list[CrossRow] = []
        waiting: list[Words] = []
        for text in ranking.teams:
            s = self.slot(text)
            if s.team is None:
                needs = s.needs_words or s.needs or ""
                waiting.append(Phrase("{slot} ({needs})", (("slot", _slot_words(s.text)), ("needs", needs))))
                continue
            pool = self.pools[self.entry_pool_of[s.team]]
            if pool.table is None or not pool.complete:
                waiting.append(Phrase("pool {pool} to finish", (("pool", pool.name),)))
                continue
            rows.append(cross_row(pool.table, s.team))
        self.rankings[name] = rank_across(name, rows, self.decisions, waiting=tuple(reason_text(w) for w in waiting),
                                          waiting_words=tuple(waiting))


def _slot_words(text: str) -> Words:
    """A slot's name as words: "winner QF1" is worded by the catalogs ("vinnare QF1"), "1A" reads the same."""
    found = parse_placeholder(text)
    if not isinstance(found, WinnerOrLoser) or f"{found.outcome} {found.match}" != text:
        return text
    match = (("match", found.match),)
    return Phrase("winner {match}", match) if found.outcome == "winner" else Phrase("loser {match}", match)

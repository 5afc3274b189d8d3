"""Example matches in every phase of every sport, played through the real engine.

The tests, the benchmark and ``docs/screens/make_screens.py`` draw these; sample data, so here and not in
the product. Each scene is a match of teams from the sport's example tournament, driven by events to the
moment shown.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from datetime import datetime

from display.view import BetweenMatches, Link, NextMatch, Notice, ScoreboardView, TeamLook
from rules.court_schedule import Suspended
from rules.match import (
    ClockStarted,
    ClockStopped,
    Goal,
    Match,
    PenaltyAwarded,
    PeriodAdvanced,
    ShootoutAttempt,
    TimeoutStarted,
)
from rules.match.timeline import match_timeline
from rules.published_scorers import PublishedScorer, PublishedScorers, read_scorers, scorers_payload
from rules.ruleset import load_ruleset
from rules.standings.table import PoolTable
from rules.tournament.scorers import PlayedMatch, top_scorers

MIN = 60_000

# (preset, language, home, away, round of the knock-out scenes, court)
SPORTS = {
    "indoor-hockey": ("en", "Pembroke Wanderers", "Rot-Weiss Köln", "semi_final", "Hall 1"),
    "water-polo": ("en", "South Africa Juniors", "Montenegro Juniors", "semi_final", "Pool 1"),
    "indoor-football": ("sk", "Vrakuňa Wolves", "Ružinov Rangers", "quarter_final", "Hall 1"),
    "youth-football": ("sv", "IFK Göteborg P14", "Djurgården P14", "quarter_final", "Plan 1"),
    "ice-hockey": ("en", "Falcons AA", "Wolves AA", "placement", "Rink"),
}

PENALTY_KINDS = {
    "indoor-hockey": ("green", "yellow"),
    "water-polo": ("exclusion", "exclusion"),
    "indoor-football": ("sin_bin", "sin_bin"),
    "youth-football": ("red", "red"),
    "ice-hockey": ("minor", "major"),
}


@dataclass(frozen=True)
class Scene:
    sport: str
    phase: str
    view: ScoreboardView


SHORT = {
    "Pembroke Wanderers": "PEM", "Rot-Weiss Köln": "RWK", "South Africa Juniors": "RSA",
    "Montenegro Juniors": "MNE", "Vrakuňa Wolves": "VRA", "Ružinov Rangers": "RUŽ", "IFK Göteborg P14": "IFK",
    "Djurgården P14": "DIF", "Falcons AA": "FAL", "Wolves AA": "WOL",
}  # what an organiser would put in the tournament file for a small screen


def _look(name: str) -> TeamLook:
    return TeamLook(name, short=SHORT.get(name))


def _play(sport: str, knockout: bool, script: Callable[[Match], int]) -> tuple[Match, int]:
    _lang, _home, _away, round_name, _court = SPORTS[sport]
    ruleset = load_ruleset(sport)
    match = Match(ruleset, stage="knockout" if knockout else "round_robin", round=round_name if knockout else None)
    return match, script(match)


def _goal(match: Match, at: int, team: str, player: str) -> None:
    """A goal; in a stopped-time sport the goal stops the clock, and play restarts a second later."""
    match.apply(Goal(at=at, team=team, player=player))  # type: ignore[arg-type]
    if not match.state_at(at + 1_000).running and match.state_at(at + 1_000).phase == "play":
        match.apply(ClockStarted(at=at + 1_000))


def _run_out(match: Match, at: int) -> int:
    """Let a running period's clock run out (goals stopped a stopped-time clock now and then); a second after."""
    state = match.state_at(at)
    while state.phase == "play" and state.running:
        at += max(1, state.clock_ms if state.clock_down else match.ruleset.match.period_length - state.clock_ms)
        state = match.state_at(at)
    return at + 1_000


def _in_play(match: Match) -> int:
    """Ten minutes into the first period, the clock running, two goals to one, two penalties on."""
    sport = match.ruleset.name
    length = match.ruleset.match.period_length
    kinds = PENALTY_KINDS[sport]
    at = 0
    match.apply(ClockStarted(at=at))
    _goal(match, length // 4, "home", "9")
    _goal(match, length // 3, "away", "11")
    _goal(match, length // 2, "home", "7")
    match.apply(PenaltyAwarded(at=length // 2 + 5_000, team="away", kind=kinds[0], player="4"))
    if sport == "ice-hockey":
        match.apply(PenaltyAwarded(at=length // 2 + 8_000, team="away", kind=kinds[1], player="17"))
        match.apply(PenaltyAwarded(at=length // 2 + 9_000, team="away", kind=kinds[0], player="22"))
    elif sport != "youth-football":
        match.apply(PenaltyAwarded(at=length // 2 + 8_000, team="home", kind=kinds[1], player="12"))
    at = length // 2 + 10_000
    if not match.state_at(at).running:  # stopped time: a goal stopped the clock
        match.apply(ClockStarted(at=at))
    return at + 5_000


def _last_minute(match: Match) -> int:
    """The last minute of the last regular period, stopped: the clock shows tenths."""
    at = _to_period(match, match.ruleset.match.periods)
    length = match.ruleset.match.period_length
    match.apply(ClockStarted(at=at))
    _goal(match, at + 1_000, "away", "10")
    match.apply(ClockStopped(at=at + length - 42_300))
    return at + length - 30_000


def _final(match: Match) -> int:
    at = _last_minute(match)
    match.apply(ClockStarted(at=at))
    return _run_out(match, at)


def _to_period(match: Match, period: int) -> int:
    """Play the periods before ``period`` to their end and through their intervals; the next instant."""
    at = 0
    for p in range(1, period):
        match.apply(ClockStarted(at=at))
        if p == 1:
            _goal(match, at + 30_000, "home", "9")
        at = _run_out(match, at)  # the clock runs out by itself: the interval starts
        if match.state_at(at).phase == "interval":
            match.apply(PeriodAdvanced(at=at))  # skip the rest of the interval
    return at + 1_000


def _interval(match: Match) -> int:
    at = _to_period(match, 1)
    m = match.ruleset.match
    match.apply(ClockStarted(at=at))
    _goal(match, at + 30_000, "home", "9")
    half = m.periods // 2 if m.periods % 2 == 0 else 1
    for p in range(1, half + 1):
        if p > 1:
            match.apply(ClockStarted(at=at))
        at = _run_out(match, at)
        if p < half:
            at += 1_000
            match.apply(PeriodAdvanced(at=at))
            at += 1_000
    return at + 34_000


def _timeout(match: Match) -> int:
    at = _in_play(match)
    match.apply(TimeoutStarted(at=at, team="away"))
    return at + 17_000


def _level_to_end(match: Match) -> int:
    """Two all at the end of regular time: what follows (extra time or a shoot-out) is the engine's."""
    m = match.ruleset.match
    at = 0
    for p in range(1, m.periods + 1):
        match.apply(ClockStarted(at=at))
        if p == 1:
            _goal(match, at + 20_000, "home", "9")
            _goal(match, at + 40_000, "away", "5")
        if p == m.periods:
            _goal(match, at + 60_000, "away", "10")
            _goal(match, at + 90_000, "home", "7")
        at = _run_out(match, at)
        if match.state_at(at).phase == "interval":
            match.apply(PeriodAdvanced(at=at))
            at += 1_000
    return at


def _golden_goal(match: Match) -> int:
    at = _level_to_end(match)
    match.apply(ClockStarted(at=at))
    return at + 95_000


def _to_shootout(match: Match) -> int:
    at = _level_to_end(match)
    while match.state_at(at).phase not in ("shootout", "finished"):
        state = match.state_at(at)
        if state.phase == "interval":
            match.apply(PeriodAdvanced(at=at))
        elif state.running:
            at += max(1_000, state.clock_ms)
            continue
        else:
            match.apply(ClockStarted(at=at))
            at += 1_000
            match.apply(PeriodAdvanced(at=at))
        at += 1_000
    return at


def _shootout(match: Match) -> int:
    at = _to_shootout(match)
    for team, scored in (("home", True), ("away", True), ("home", False), ("away", True), ("home", True)):
        at += 40_000
        match.apply(ShootoutAttempt(at=at, team=team, scored=scored, player=None))  # type: ignore[arg-type]
    return at + 5_000


def _final_shootout(match: Match) -> int:
    at = _shootout(match)
    for team, scored in (("away", False), ("home", True)) * 10:
        at += 40_000
        state = match.state_at(at)
        if state.phase != "shootout":
            break
        match.apply(ShootoutAttempt(at=at, team=team, scored=scored, player=None))  # type: ignore[arg-type]
    return at + 5_000



def _tables(sport: str) -> tuple[PoolTable, ...]:
    """The first-round pool tables of the sport's example tournament, ranked from its example results
    (rules/examples/<sport>-results.csv): a screen between matches shows tables that add up."""
    from pathlib import Path

    from rules.examples import __file__ as examples
    from rules.standings import parse_results_csv, rank_pool
    from rules.tournament import parse_tournament

    folder = Path(examples).parent
    t = parse_tournament((folder / f"{sport}.toml").read_text(encoding="utf-8"), f"{sport}.toml")
    path = folder / f"{sport}-results.csv"
    results = parse_results_csv(path.read_text(encoding="utf-8"), str(path))
    ruleset = load_ruleset(sport)
    return tuple(rank_pool(ruleset, pool.name, [r for r in results if r.pool == pool.name])
                 for pool in t.entry_pools)


PHASES: dict[str, tuple[bool, Callable[[Match], int]]] = {
    "pre_match": (False, lambda m: 0),
    "play": (False, _in_play),
    "last_minute": (False, _last_minute),
    "interval": (False, _interval),
    "timeout": (True, _timeout),
    "golden_goal": (True, _golden_goal),
    "shootout": (True, _shootout),
    "final": (False, _final),
    "final_shootout": (True, _final_shootout),
}


def scene(sport: str, phase: str) -> Scene:
    """One sport in one phase, or "between" (no match loaded: next match and pool tables)."""
    lang, home, away, round_name, court = SPORTS[sport]
    ruleset = load_ruleset(sport)
    tables = _tables(sport)
    others = [row.team for t in tables for row in t.rows if row.team not in (home, away)]
    upcoming = NextMatch(home, away, datetime(2026, 7, 11, 14, 40), round_name, "SF1")
    after = NextMatch(others[0], others[-1], datetime(2026, 7, 11, 15, 30), round_name, "SF2")
    between = BetweenMatches(next_match=upcoming, tables=tables)
    if phase == "between":
        view = ScoreboardView(None, ruleset, _look(home), _look(away), language=lang, between=between, court=court)
        return Scene(sport, phase, view)
    knockout, script = PHASES[phase]
    match, at = _play(sport, knockout, script)
    state = match.state_at(at)
    view = ScoreboardView(state, ruleset, _look(home), _look(away), language=lang,
                          round=round_name if knockout else "pool", stage="SF1" if knockout else "A",
                          between=replace(between, next_match=after) if state.phase == "finished" else None,
                          court=court)
    return Scene(sport, phase, view)


def top_scorers_of(sport: str) -> PublishedScorers:
    """The top scorers after two of the sport's matches played by the engine (the final's and the last minute's
    scripts), as the service sends them for the screen between matches."""
    _lang, home, away, _round, _court = SPORTS[sport]
    others = [row.team for t in _tables(sport) for row in t.rows if row.team not in (home, away)]
    played = []
    for number, (phase, teams) in enumerate((("final", (home, away)), ("last_minute", (others[0], others[-1]))), 1):
        knockout, script = PHASES[phase]
        match, _at = _play(sport, knockout, script)
        played.append(PlayedMatch(number, *teams, match_timeline(match.ruleset, match.events)))
    from pathlib import Path

    from rules import read_cup_file, team_sheets
    from rules.examples import __file__ as examples

    path = Path(examples).parent / f"{sport}.toml"
    sheets = team_sheets(read_cup_file(path), str(path))  # the example's teams that have one
    rows = top_scorers(played, lambda team, number: sheets[team].label(number) if team in sheets else f"#{number}")
    return read_scorers(scorers_payload("", [PublishedScorer(rank=r.rank, team=r.team, label=r.label, goals=r.goals)
                                             for r in rows]))


def applicable(sport: str, phase: str) -> bool:
    """Whether the sport has this phase (no time-outs in ice hockey, no golden goal in water polo...)."""
    r = load_ruleset(sport)
    if phase == "timeout":
        return r.timeouts.per_team > 0
    if phase == "golden_goal":
        return r.match.overtime is not None
    if phase in ("shootout", "final_shootout"):
        return r.match.shootout is not None
    return True


def scenes() -> Iterator[Scene]:
    for sport in SPORTS:
        for phase in (*PHASES, "between"):
            if applicable(sport, phase):
                yield scene(sport, phase)


def with_notices(view: ScoreboardView) -> ScoreboardView:
    """The same frame with a refused press and the link offline, as the table shows them."""
    return replace(view, notices=(Notice("refused", "the clock is already running"),),
                   link=Link(online=False, waiting=12))


def with_not_eligible(view: ScoreboardView) -> ScoreboardView:
    """The same frame for a match some players may not play (sent off earlier): one at home, two away."""
    red = next((k.label for name, k in view.ruleset.penalties.kinds.items() if k.suspended_next_matches
                or k.report_to_organisers), "Red card")
    return replace(view, not_eligible=(Suspended(side="home", player="7", label=red, given_in=12),
                                       Suspended(side="away", player="11", label=red, given_in=9),
                                       Suspended(side="away", player="4", label=red, given_in=14)))

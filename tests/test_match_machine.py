"""Random command sequences against the engine (hypothesis state machine).

Whatever the operator presses, in whatever order: the engine never crashes (a
refusal is an IllegalCommand), never shows a negative clock or penalty, the log
formatted with its header, parsed and replayed gives the state seen live, an undo
followed by its redo changes nothing, an event delivered twice changes nothing, the
horns summed over any cut of time equal the horns over the whole, and nothing falls
due before ``next_due``.
"""

from __future__ import annotations

import itertools
import tomllib
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from rules.errors import IllegalCommand
from rules.match import (
    ClockCorrected,
    ClockStarted,
    ClockStopped,
    Event,
    Forfeit,
    Goal,
    GoalDisallowed,
    Match,
    MatchAbandoned,
    MatchReplayed,
    MatchResumed,
    PenaltyAwarded,
    PenaltyCorrected,
    PenaltyEnded,
    PenaltyLengthened,
    PeriodAdvanced,
    PossessionReset,
    ScoreCorrected,
    SetPieceEnded,
    SetPieceStarted,
    ShootoutAttempt,
    TimeoutEnded,
    TimeoutStarted,
    Undo,
    Walkover,
    format_log,
    read_log,
)
from rules.match.header import LogHeader
from rules.ruleset import PRESETS, Ruleset, load_ruleset, parse_ruleset, preset_text

ACCEPTED: dict[str, int] = {}
PHASES: set[str] = set()
RULESETS = {name: load_ruleset(name) for name in PRESETS}


def _escalating_ice_hockey() -> Ruleset:
    # No preset both escalates a penalty and caps the players short; a user's file may.
    data = tomllib.loads(preset_text("ice-hockey"))
    data["penalties"]["kinds"]["minor"] |= {"escalates_to": "major", "escalates_after": 2}
    return parse_ruleset(data, "escalating ice hockey")


RULESETS["escalating-ice-hockey"] = _escalating_ice_hockey()
teams = st.sampled_from(["home", "away"])
players = st.sampled_from([None, "1", "7", "12"])


def commands(ruleset: Ruleset, at: int, seqs: list[int]) -> st.SearchStrategy[Event]:
    target = st.sampled_from(seqs) if seqs else st.just(1)
    kinds = st.sampled_from([*ruleset.penalties.kinds, "bogus"])
    pieces = st.sampled_from([*ruleset.match.set_pieces, "penalty_corner", "free_hit"])
    ms = st.integers(min_value=0, max_value=25 * 60_000)
    options: list[st.SearchStrategy[Any]] = [
        st.builds(ClockStarted, at=st.just(at)),
        st.builds(ClockStopped, at=st.just(at)),
        st.builds(Goal, at=st.just(at), team=teams, player=players),
        st.builds(GoalDisallowed, at=st.just(at), target=target),
        st.builds(PenaltyAwarded, at=st.just(at), team=teams, kind=kinds, player=players,
                  length=st.sampled_from([None, None, None, 0, 180_000, 300_000])),
        st.builds(PenaltyEnded, at=st.just(at), target=target),
        st.builds(PenaltyLengthened, at=st.just(at), target=target, length=ms),
        st.builds(PenaltyCorrected, at=st.just(at), target=target, remaining=ms),
        st.builds(SetPieceStarted, at=st.just(at), name=pieces),
        st.builds(SetPieceEnded, at=st.just(at)),
        st.builds(TimeoutStarted, at=st.just(at), team=teams),
        st.builds(TimeoutEnded, at=st.just(at)),
        st.builds(PeriodAdvanced, at=st.just(at)),
        st.builds(PossessionReset, at=st.just(at), short=st.booleans()),
        st.builds(ShootoutAttempt, at=st.just(at), team=teams, scored=st.booleans(), player=players),
        st.builds(ClockCorrected, at=st.just(at), clock=ms),
        st.builds(ScoreCorrected, at=st.just(at), home=st.integers(0, 9), away=st.integers(0, 9)),
    ]
    # Clock presses and goals are what a table does most; the match-ending ones are rare.
    weighted = [options[0]] * 6 + [options[1]] * 6 + [options[2]] * 3 + [options[4]] * 3 + options
    ending = [
        st.builds(MatchAbandoned, at=st.just(at)),
        st.builds(MatchResumed, at=st.just(at)),
        st.builds(MatchReplayed, at=st.just(at)),
        st.builds(Forfeit, at=st.just(at), team=teams),
        st.builds(Walkover, at=st.just(at), team=teams),
        st.builds(Undo, at=st.just(at), target=target),
    ]
    # Hypothesis favours small integers, so "1 in 31" by st.integers(0, 30) == 0 came up far
    # more often and ended most matches at once (and st.one_of ignores repeated branches):
    # a pick by index from a list with the everyday commands repeated keeps the endings rare.
    return st.sampled_from([*weighted, *weighted, *weighted, *ending]).flatmap(lambda s: s)


class MatchMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.match = Match(RULESETS["indoor-hockey"])
        self.now = 0

    @initialize(
        name=st.sampled_from(sorted(RULESETS)),
        stage=st.sampled_from(["round_robin", "knockout"]),
        round_name=st.sampled_from([None, "semi_final", "final", "quarter_final"]),
    )
    def setup(self, name: str, stage: str, round_name: str | None) -> None:
        # A round decides its stage (a semi-final is a knock-out); without one the stage is drawn.
        self.match = Match(RULESETS[name], stage=None if round_name else stage,  # type: ignore[arg-type]
                           round=round_name, on_field=5)

    def _try(self, command: Event) -> bool:
        before = (self.match.events, self.match.state_at(self.now))
        try:
            self.match.apply(command)
        except IllegalCommand as err:
            assert err.reason
            assert (self.match.events, self.match.state_at(self.now)) == before, "a refusal changed the match"
            return False
        ACCEPTED[command.type] = ACCEPTED.get(command.type, 0) + 1
        return True

    @rule(data=st.data(), wait=st.sampled_from([0, 0, 250, 1_000, 7_000, 20_000, 61_000, 300_000, 1_200_000]))
    def press(self, data: st.DataObject, wait: int) -> None:
        self.now += wait
        seqs = [e.seq for e in self.match.events]
        self._try(data.draw(commands(self.match.ruleset, self.now, seqs)))

    @rule()
    def play_to_the_horn(self) -> None:
        # Drives matches on to intervals, extra time and shoot-outs, which random presses rarely reach.
        state = self.match.state_at(self.now)
        if state.phase == "play" and not state.running:
            self._try(ClockStarted(at=self.now))
            state = self.match.state_at(self.now)
        if state.phase in ("play", "interval"):
            remaining = state.clock_ms if self.match.ruleset.match.clock_direction == "down" else 0
            self.now += remaining + (state.interval_remaining_ms or 0) + 1

    @rule(after=st.integers(min_value=0, max_value=4_000))
    def just_after_the_horn(self, after: int) -> None:
        # Lands within (or just past) the late-press grace, where presses race the horn.
        state = self.match.state_at(self.now)
        if state.phase == "play" and state.running and self.match.ruleset.match.clock_direction == "down":
            self.now += state.clock_ms + after

    @rule(data=st.data(), back=st.integers(min_value=0, max_value=30_000))
    def press_in_the_past(self, data: st.DataObject, back: int) -> None:
        # A press put in at an earlier instant (the right press after an undo) must fold or be refused.
        at = max(0, self.now - back)
        seqs = [e.seq for e in self.match.events]
        self._try(data.draw(commands(self.match.ruleset, at, seqs)))

    @precondition(lambda self: len(self.match.events) >= 8)  # a match under way, not one ended at once
    @rule(replay=st.booleans())
    def abandoned_then_taken_up_again(self, replay: bool) -> None:
        # Seed 004: an abandoned game is resumed or played again later; from any state the abandonment took,
        # the organiser's choice must be accepted (and the invariants hold on what follows).
        if self._try(MatchAbandoned(at=self.now)):
            self.now += 600_000
            again = MatchReplayed(at=self.now) if replay else MatchResumed(at=self.now)
            assert self._try(again), f"{again.type} refused right after an abandonment"
            if replay:
                assert self.match.state_at(self.now).phase == "pre_match"

    @rule(data=st.data())
    def undo_then_redo(self, data: st.DataObject) -> None:
        live = [e.seq for e in self.match.events if not self.match.is_undone(e.seq)]
        if not live:
            return
        target = data.draw(st.sampled_from(live))
        before = self.match.state_at(self.now)
        if self._try(Undo(at=self.now, target=target)):
            undo = self.match.events[-1]
            assert self._try(Undo(at=self.now, target=undo.seq)), "the redo of an accepted undo was refused"
            assert self.match.state_at(self.now) == before

    @invariant()
    def nothing_negative(self) -> None:
        PHASES.add(self.match.state_at(self.now).phase)  # every phase the machine passes through
        for at in (self.now, self.now + 45_000):
            s = self.match.state_at(at)
            length = self.match.ruleset.match.period_length
            ot = self.match.ruleset.match.overtime
            assert 0 <= s.clock_ms <= max(length, ot.period_length if ot else 0)
            assert all(p.remaining_ms is None or p.remaining_ms >= 0 for p in s.penalties)
            assert s.possession_ms is None or s.possession_ms >= 0
            assert s.interval_remaining_ms is None or s.interval_remaining_ms >= 0
            assert s.timeout is None or s.timeout.remaining_ms >= 0
            assert s.home_timeouts_left >= 0 and s.away_timeouts_left >= 0
            limit = self.match.ruleset.penalties.max_reducing_per_team
            if limit is not None:
                assert s.home_short <= limit and s.away_short <= limit
            if s.result is not None:
                assert s.phase == "finished"
                # The outcome agrees with the score, however it was corrected.
                if s.result.outcome == "shootout":
                    assert s.home_goals == s.away_goals
                if self.match.stage == "knockout" and s.result.outcome in ("regular", "overtime"):
                    assert s.home_goals != s.away_goals, "a knock-out finished level"

    @rule(data=st.data())
    def delivered_twice(self, data: st.DataObject) -> None:
        if not self.match.events:
            return
        event = data.draw(st.sampled_from(self.match.events))
        before = (self.match.events, self.match.state_at(self.now))
        applied = self.match.apply(event)
        assert (applied.kind, applied.event) == ("duplicate", event)
        assert (self.match.events, self.match.state_at(self.now)) == before

    @rule(data=st.data())
    def horns_over_a_cut(self, data: st.DataObject) -> None:
        end = self.now + 100_000
        cuts = sorted(data.draw(st.lists(st.integers(min_value=0, max_value=end), max_size=4)))
        bounds = [0, *cuts, end]
        pieces = [h for a, b in itertools.pairwise(bounds) for h in self.match.horns_between(a, b)]
        assert pieces == self.match.horns_between(0, end)

    @invariant()
    def nothing_falls_due_before_next_due(self) -> None:
        due = self.match.next_due(self.now)
        assert due is None or due > self.now
        quiet_until = self.now + 600_000 if due is None else due - 1
        assert self.match.horns_between(self.now, quiet_until) == []
        before, after = self.match.state_at(self.now), self.match.state_at(quiet_until)
        assert (before.phase, before.period, before.running, before.home_short, before.away_short) == (
            after.phase, after.period, after.running, after.home_short, after.away_short)
        assert [p.seq for p in before.penalties] == [p.seq for p in after.penalties]

    @invariant()
    def replay_matches_live(self) -> None:
        m = self.match
        head = LogHeader.for_match(m.ruleset, ruleset_ref="machine.toml", stage=m.stage, round=m.round,
                                   on_field=m.on_field)
        parsed = read_log(format_log(m.events, head), "machine.jsonl")
        again = Match.from_log(parsed, ruleset=m.ruleset)
        assert again.state_at(self.now) == m.state_at(self.now)


MatchMachine.TestCase.settings = settings(
    max_examples=20, stateful_step_count=35, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
TestMatchMachine = MatchMachine.TestCase


def test_the_machine_reaches_every_phase_and_most_commands() -> None:
    """Guards the generator: random presses must get past the first half, not just be refused."""
    # A fixed run of its own, so the guard does not depend on the luck of the random one.
    ACCEPTED.clear()
    PHASES.clear()
    run_state_machine_as_test(MatchMachine, settings=settings(  # type: ignore[no-untyped-call]
        max_examples=30, stateful_step_count=40, deadline=None, derandomize=True, database=None,
        suppress_health_check=[HealthCheck.too_slow],
    ))
    assert {"play", "finished"} <= PHASES
    assert {"clock_started", "clock_stopped", "goal", "penalty_awarded", "undo"} <= set(ACCEPTED)

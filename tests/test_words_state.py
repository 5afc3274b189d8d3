"""The state in words: period, clock, strength, penalties, the operator's feedback and refusals."""

from __future__ import annotations

import pytest

from rules.errors import IllegalCommand
from rules.match import ClockStarted, ClockStopped, Goal, Match, PenaltyAwarded, TimeoutStarted
from rules.ruleset import load_ruleset
from rules.words.state import (
    applied_text,
    clock_text,
    penalty_text,
    period_name,
    refusal_text,
    state_text,
    strength_text,
)

S = 1000
MIN = 60 * S


def test_period_clock_and_strength_in_words() -> None:
    m = Match(load_ruleset("ice-hockey"), on_field=5)
    m.apply(ClockStarted(at=0))
    m.apply(PenaltyAwarded(at=61 * S, team="home", kind="minor", player="4"))
    state = m.state_at(90 * S)
    assert (period_name(state, m.ruleset), clock_text(state), strength_text(state)) == ("period 1", "13:30", "4 v 5")
    assert penalty_text(state.penalties[0], m.ruleset) == "HOME #4 Minor 1:31"
    assert penalty_text(state.penalties[0], m.ruleset, short=True).startswith("HOME #4 ")


def test_a_translation_function_is_applied_to_every_word() -> None:
    m = Match(load_ruleset("indoor-hockey"))
    m.apply(ClockStarted(at=0))
    words = {"half": "halvlek", "{period_name} {number}": "{number}:a {period_name}"}
    assert period_name(m.state_at(MIN), m.ruleset, lambda t: words.get(t, t)) == "1:a halvlek"


def test_the_operator_hears_what_a_command_did() -> None:
    m = Match(load_ruleset("indoor-hockey"))
    assert applied_text(m.apply(ClockStarted(at=0))) == "Clock started"
    assert applied_text(m.apply(Goal(at=MIN, team="home", player="7"))) == "Goal HOME #7"
    late = m.apply(ClockStopped(at=20 * MIN + 2 * S))  # the half ran out 2 s ago
    assert applied_text(late) == "Late press: taken for period 1 that ended"
    again = m.apply(late.event)
    assert (again.kind, applied_text(again)) == ("duplicate", "Already logged (seq 3): nothing changed")


def test_a_refusal_is_said_from_its_key_and_params() -> None:
    m = Match(load_ruleset("indoor-hockey"))
    m.apply(ClockStarted(at=0))
    m.apply(TimeoutStarted(at=MIN, team="home"))
    m.apply(ClockStarted(at=2 * MIN))
    with pytest.raises(IllegalCommand) as refused:
        m.apply(TimeoutStarted(at=3 * MIN, team="home"))
    err = refused.value
    assert (err.key, err.params) == ("no_timeout_left", {"team": "home", "segment": "this half"})
    assert refusal_text(err) == err.reason == "no time-out left for HOME in this half"
    sv = {"no time-out left for {team} in {segment}": "ingen timeout kvar för {team} i {segment}",
          "HOME": "HEMMA", "this half": "denna halvlek"}
    assert refusal_text(err, lambda t: sv.get(t, t)) == "ingen timeout kvar för HEMMA i denna halvlek"


def test_the_board_as_text() -> None:
    m = Match(load_ruleset("water-polo"))
    m.apply(ClockStarted(at=0))
    m.apply(Goal(at=30 * S, team="away", player="5"))
    text = state_text(m.state_at(31 * S), m.ruleset)
    assert text.splitlines()[:2] == ["period 1  6:30  stopped", "HOME 0 - 1 AWAY"]

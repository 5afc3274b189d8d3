"""rules/words/entered.py: an event as the official entered it, with when; one naming another says which."""

from __future__ import annotations

from rules.match import ClockStarted, ClockStopped, Goal, GoalDisallowed, Match, PenaltyAwarded, Undo
from rules.ruleset import load_ruleset
from rules.words import words_for
from rules.words.entered import entered_text


def test_an_undo_says_what_it_took_back_and_when_it_was_pressed() -> None:
    m = Match(load_ruleset("ice-hockey"))
    m.apply(ClockStarted(at=0))
    goal = m.apply(Goal(at=60_000, team="home", player="7")).event
    m.apply(ClockStarted(at=70_000))
    stop = m.apply(ClockStopped(at=454_000)).event
    undo = m.apply(Undo(at=460_000, target=stop.seq)).event
    assert entered_text(m, goal) == "Goal HOME #7 at 14:00 (period 1)"
    assert entered_text(m, undo) == "Undone: Clock stopped at 7:36 (period 1)"
    assert entered_text(m, undo, words_for("sv").gettext).startswith("Ångrat: ")


def test_a_penalty_is_named_by_its_ruleset_and_a_disallowed_goal_names_the_goal() -> None:
    m = Match(load_ruleset("indoor-hockey"))
    m.apply(ClockStarted(at=0))
    card = m.apply(PenaltyAwarded(at=30_000, team="away", kind="yellow", player="11", length=300_000)).event
    goal = m.apply(Goal(at=40_000, team="home", player="9")).event
    off = m.apply(GoalDisallowed(at=41_000, target=goal.seq)).event
    assert entered_text(m, card) == "Penalty Yellow card to AWAY #11 at 19:30 (half 1)"
    assert entered_text(m, off) == "Goal disallowed: Goal HOME #9 at 19:20 (half 1)"

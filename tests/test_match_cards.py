"""The disciplinary record: every award stays on it, served or not."""

from __future__ import annotations

from rules.match import ClockStarted, Match, PenaltyAwarded, Undo
from rules.ruleset import load_ruleset

MIN = 60_000


def test_every_award_is_kept_in_order_with_what_it_means_for_the_player() -> None:
    m = Match(load_ruleset("youth-football"))
    m.apply(ClockStarted(at=0))
    m.apply(PenaltyAwarded(at=MIN, team="home", kind="yellow", player="6"))
    m.apply(PenaltyAwarded(at=2 * MIN, team="away", kind="yellow", player="9"))
    second = m.apply(PenaltyAwarded(at=3 * MIN, team="home", kind="yellow", player="6")).event
    cards = m.state_at(30 * MIN).cards
    assert [(c.team, c.player, c.kind, c.out_for_match) for c in cards] == [
        ("home", "6", "yellow", False),
        ("away", "9", "yellow", False),
        ("home", "6", "yellow", False),
        ("home", "6", "red", True),  # the second yellow's sending-off, under the same seq
    ]
    assert cards[-1].seq == second.seq
    m.apply(Undo(at=31 * MIN, target=second.seq))
    assert [c.kind for c in m.state_at(31 * MIN).cards] == ["yellow", "yellow"]


def test_a_served_suspension_stays_on_the_record() -> None:
    m = Match(load_ruleset("indoor-hockey"))
    m.apply(ClockStarted(at=0))
    m.apply(PenaltyAwarded(at=MIN, team="away", kind="green", player="14"))
    state = m.state_at(5 * MIN)
    assert state.penalties == ()
    assert [(c.label, c.player) for c in state.cards] == [("Green card", "14")]

"""Penalty timers per sport, from the seed documents and the README's readings."""

from __future__ import annotations

import tomllib

import pytest

from rules.errors import IllegalCommand
from rules.match import (
    ClockCorrected,
    ClockStarted,
    ClockStopped,
    Goal,
    GoalDisallowed,
    Match,
    PenaltyAwarded,
    PenaltyEnded,
    PenaltyLengthened,
    PeriodAdvanced,
)
from rules.ruleset import load_ruleset, parse_ruleset, preset_text
from rules.words.state import remaining_text, strength_text

S = 1000
MIN = 60 * S


def started(name: str, **kw: object) -> Match:
    m = Match(load_ruleset(name), **kw)  # type: ignore[arg-type]
    m.apply(ClockStarted(at=0))
    return m


# -- indoor hockey (seed 000): green 1 min, yellow at least 3 min, both only while the clock runs


def test_green_card_runs_only_while_the_clock_runs() -> None:
    m = started("indoor-hockey")
    m.apply(PenaltyAwarded(at=5 * MIN, team="home", kind="green", player="8"))
    m.apply(ClockStopped(at=5 * MIN + 20 * S))  # an injury: the clock and the card stop
    m.apply(ClockStarted(at=7 * MIN))
    state = m.state_at(7 * MIN + 30 * S)
    (card,) = state.penalties
    assert (card.player, card.remaining_ms, remaining_text(card)) == ("8", 10 * S, "0:10")
    assert (state.home_short, state.away_short) == (1, 0)
    assert m.state_at(7 * MIN + 40 * S).penalties == ()
    assert m.state_at(7 * MIN + 40 * S).home_short == 0


def test_yellow_card_is_at_least_three_minutes_and_lengthened_at_award() -> None:
    m = started("indoor-hockey")
    with pytest.raises(IllegalCommand, match="at least 3:00"):
        m.apply(PenaltyAwarded(at=MIN, team="away", kind="yellow", player="2", length=2 * MIN))
    longer = m.apply(PenaltyAwarded(at=MIN, team="away", kind="yellow", player="2", length=5 * MIN)).event
    assert m.state_at(2 * MIN).penalties[0].remaining_ms == 4 * MIN
    plain = m.apply(PenaltyAwarded(at=2 * MIN, team="away", kind="yellow", player="3")).event
    m.apply(PenaltyLengthened(at=2 * MIN + S, target=plain.seq, length=4 * MIN))
    remaining = {p.seq: p.remaining_ms for p in m.state_at(3 * MIN).penalties}
    assert remaining == {longer.seq: 3 * MIN, plain.seq: 3 * MIN}
    with pytest.raises(IllegalCommand, match="a length only grows"):
        m.apply(PenaltyLengthened(at=3 * MIN, target=plain.seq, length=3 * MIN))


def test_green_card_has_a_fixed_length() -> None:
    m = started("indoor-hockey")
    with pytest.raises(IllegalCommand, match="lasts 1:00"):
        m.apply(PenaltyAwarded(at=MIN, team="home", kind="green", length=2 * MIN))
    green = m.apply(PenaltyAwarded(at=MIN, team="home", kind="green")).event
    with pytest.raises(IllegalCommand, match="fixed length"):
        m.apply(PenaltyLengthened(at=MIN, target=green.seq, length=2 * MIN))


def test_red_card_is_for_the_rest_of_the_match() -> None:
    m = started("indoor-hockey", on_field=6)
    m.apply(PenaltyAwarded(at=MIN, team="home", kind="red", player="10"))
    state = m.state_at(15 * MIN)
    assert state.penalties[0].remaining_ms is None
    assert strength_text(state) == "5 v 6"
    with pytest.raises(IllegalCommand, match="player 10 of HOME is already out"):
        m.apply(PenaltyAwarded(at=16 * MIN, team="home", kind="green", player="10"))


def test_unknown_kind_is_refused_with_the_known_ones() -> None:
    m = started("indoor-hockey")
    with pytest.raises(IllegalCommand, match=r"no penalty kind 'blue'.*green, yellow, red"):
        m.apply(PenaltyAwarded(at=MIN, team="home", kind="blue"))


# -- water polo (seed 001 + README): 20 s exclusion, ended early by a goal or by the operator


def test_exclusion_ends_on_a_goal_by_either_team() -> None:
    m = started("water-polo")
    m.apply(PenaltyAwarded(at=10 * S, team="home", kind="exclusion", player="4"))
    m.apply(Goal(at=15 * S, team="home"))  # even the short-handed side's goal brings the player back
    assert m.state_at(16 * S).penalties == ()


def test_exclusion_ended_by_the_operator_and_served_on_playing_time() -> None:
    m = started("water-polo")
    ex = m.apply(PenaltyAwarded(at=10 * S, team="away", kind="exclusion", player="9")).event
    m.apply(ClockStopped(at=20 * S))
    assert m.state_at(60 * S).penalties[0].remaining_ms == 10 * S  # stopped time: the exclusion waits too
    m.apply(PenaltyEnded(at=61 * S, target=ex.seq))
    assert m.state_at(61 * S).penalties == ()


def test_brutality_is_not_ended_by_a_goal_and_is_reported() -> None:
    m = started("water-polo")
    m.apply(PenaltyAwarded(at=10 * S, team="away", kind="brutality", player="6"))
    m.apply(Goal(at=20 * S, team="home"))
    state = m.state_at(20 * S)
    assert state.penalties[0].remaining_ms == 4 * MIN - 10 * S
    (card,) = state.cards
    assert (card.out_for_match, card.suspended_next_matches, card.report_to_organisers) == (True, 1, True)
    seq = state.penalties[0].seq
    with pytest.raises(IllegalCommand, match="cannot be ended from the table"):
        m.apply(PenaltyEnded(at=21 * S, target=seq))


def test_disallowed_goal_brings_the_exclusion_back() -> None:
    m = started("water-polo")
    m.apply(PenaltyAwarded(at=10 * S, team="home", kind="exclusion", player="4"))
    goal = m.apply(Goal(at=15 * S, team="away")).event
    m.apply(GoalDisallowed(at=16 * S, target=goal.seq))
    (ex,) = m.state_at(16 * S).penalties
    assert ex.remaining_ms == 15 * S


# -- indoor football (seed 002): 2 min sin bin, not ended by a goal


def test_sin_bin_runs_two_minutes_through_goals() -> None:
    m = started("indoor-football", on_field=4)
    m.apply(PenaltyAwarded(at=MIN, team="home", kind="sin_bin", player="3"))
    m.apply(Goal(at=MIN + 30 * S, team="away"))
    state = m.state_at(2 * MIN)
    assert (state.penalties[0].remaining_ms, strength_text(state), state.running) == (MIN, "3 v 4", True)
    assert m.state_at(3 * MIN).penalties == ()


# -- youth football (seed 003): two yellows make a red, and a red misses the next match


def test_second_yellow_sends_the_player_off_and_suspends_him() -> None:
    m = started("youth-football")
    m.apply(PenaltyAwarded(at=MIN, team="away", kind="yellow", player="11"))
    assert m.state_at(MIN).penalties == ()  # a caution serves no time
    assert m.state_at(MIN).away_short == 0
    m.apply(PenaltyAwarded(at=30 * MIN, team="away", kind="yellow", player="11"))
    state = m.state_at(31 * MIN)
    assert [(p.kind, p.remaining_ms) for p in state.penalties] == [("red", None)]
    assert state.away_short == 1
    red = [c for c in state.cards if c.kind == "red"]
    assert [(c.player, c.suspended_next_matches) for c in red] == [("11", 1)]
    with pytest.raises(IllegalCommand, match="already out for the match"):
        m.apply(PenaltyAwarded(at=32 * MIN, team="away", kind="yellow", player="11"))


def test_yellows_to_different_players_do_not_add_up() -> None:
    m = started("youth-football")
    m.apply(PenaltyAwarded(at=MIN, team="away", kind="yellow", player="11"))
    m.apply(PenaltyAwarded(at=2 * MIN, team="away", kind="yellow", player="12"))
    assert m.state_at(3 * MIN).penalties == ()


# -- ice hockey (seed 004 + IIHF): two short at most, minors end on a goal against, coincidentals


def _hockey_stoppage() -> Match:
    m = started("ice-hockey", stage="knockout", on_field=5)
    m.apply(ClockStopped(at=MIN))
    return m


def test_third_penalty_waits_until_one_of_the_first_two_ends() -> None:
    m = _hockey_stoppage()
    for player in ("2", "3", "4"):
        m.apply(PenaltyAwarded(at=MIN + S, team="home", kind="minor", player=player))
    m.apply(ClockStarted(at=MIN + 10 * S))
    state = m.state_at(MIN + 70 * S)
    assert [(p.player, p.remaining_ms, p.waiting) for p in state.penalties] == [
        ("2", 2 * MIN - 60 * S, False), ("3", 2 * MIN - 60 * S, False), ("4", 2 * MIN, True),
    ]
    assert strength_text(state) == "3 v 5"
    # When the first two are served, the third starts at that very instant of play.
    state = m.state_at(MIN + 10 * S + 2 * MIN + 30 * S)
    assert [(p.player, p.remaining_ms) for p in state.penalties] == [("4", 2 * MIN - 30 * S)]
    assert strength_text(state) == "4 v 5"


def test_minor_with_least_time_ends_when_the_short_handed_team_concedes() -> None:
    m = _hockey_stoppage()
    first = m.apply(PenaltyAwarded(at=MIN + S, team="home", kind="minor", player="2")).event
    m.apply(ClockStarted(at=MIN + 10 * S))
    m.apply(ClockStopped(at=MIN + 40 * S))
    m.apply(PenaltyAwarded(at=MIN + 41 * S, team="home", kind="minor", player="3"))
    m.apply(ClockStarted(at=MIN + 50 * S))
    m.apply(Goal(at=2 * MIN, team="away"))
    state = m.state_at(2 * MIN)
    assert [p.player for p in state.penalties] == ["3"]
    assert first.seq not in [p.seq for p in state.penalties]
    assert strength_text(state) == "4 v 5"


def test_major_does_not_end_on_a_goal_and_even_strength_keeps_minors() -> None:
    m = _hockey_stoppage()
    m.apply(PenaltyAwarded(at=MIN + S, team="home", kind="major", player="2"))
    m.apply(ClockStarted(at=MIN + 10 * S))
    m.apply(Goal(at=2 * MIN, team="away"))
    assert [p.kind for p in m.state_at(2 * MIN).penalties] == ["major"]
    # One minor each (not at the same stoppage): 4 v 4, so a goal ends neither.
    n = _hockey_stoppage()
    n.apply(PenaltyAwarded(at=MIN + S, team="home", kind="minor"))
    n.apply(ClockStarted(at=MIN + 10 * S))
    n.apply(ClockStopped(at=MIN + 20 * S))
    n.apply(PenaltyAwarded(at=MIN + 21 * S, team="away", kind="minor"))
    n.apply(ClockStarted(at=MIN + 30 * S))
    n.apply(Goal(at=2 * MIN, team="away"))
    assert len(n.state_at(2 * MIN).penalties) == 2


def test_coincidental_minors_are_served_without_changing_strength() -> None:
    m = _hockey_stoppage()
    m.apply(PenaltyAwarded(at=MIN + S, team="home", kind="minor", player="7"))
    m.apply(PenaltyAwarded(at=MIN + 2 * S, team="away", kind="minor", player="17"))
    m.apply(ClockStarted(at=MIN + 10 * S))
    state = m.state_at(2 * MIN)
    assert strength_text(state) == "5 v 5"
    assert [p.coincidental for p in state.penalties] == [True, True]
    assert all(p.remaining_ms == 2 * MIN - 50 * S for p in state.penalties)
    m.apply(Goal(at=2 * MIN, team="away"))  # neither ends: no one is short-handed
    assert len(m.state_at(2 * MIN).penalties) == 2


def test_misconduct_is_served_without_reducing_strength() -> None:
    m = _hockey_stoppage()
    m.apply(PenaltyAwarded(at=MIN + S, team="home", kind="misconduct", player="5"))
    m.apply(ClockStarted(at=MIN + 10 * S))
    state = m.state_at(5 * MIN)
    assert (strength_text(state), state.penalties[0].remaining_ms) == ("5 v 5", 10 * MIN - 3 * MIN - 50 * S)


def test_a_double_minor_is_served_one_after_the_other_with_the_team_one_short() -> None:
    # IIHF: one player serving two minors leaves the team one short for four minutes; a
    # goal against ends the minor being served and the second one starts then.
    m = _hockey_stoppage()
    m.apply(PenaltyAwarded(at=MIN + S, team="home", kind="minor", player="4"))
    m.apply(PenaltyAwarded(at=MIN + S, team="home", kind="minor", player="4"))
    m.apply(ClockStarted(at=MIN + 10 * S))
    state = m.state_at(2 * MIN + 10 * S)
    assert strength_text(state) == "4 v 5"
    assert [(p.remaining_ms, p.waiting) for p in state.penalties] == [(MIN, False), (2 * MIN, True)]
    m.apply(Goal(at=2 * MIN + 10 * S, team="away"))  # stops the clock
    m.apply(ClockStarted(at=2 * MIN + 20 * S))
    state = m.state_at(3 * MIN + 20 * S)
    assert strength_text(state) == "4 v 5"
    assert [(p.remaining_ms, p.waiting) for p in state.penalties] == [(MIN, False)]
    assert strength_text(m.state_at(4 * MIN + 20 * S)) == "5 v 5"


@pytest.mark.parametrize("order", [("minor", "misconduct"), ("misconduct", "minor")])
def test_a_misconduct_starts_when_the_same_players_minor_ends(order: tuple[str, str]) -> None:
    # Whichever the operator enters first, the minor is served first (team short) and
    # the 10-minute misconduct after it, with the team at full strength.
    m = _hockey_stoppage()
    for kind in order:
        m.apply(PenaltyAwarded(at=MIN + S, team="home", kind=kind, player="7"))
    m.apply(ClockStarted(at=MIN + 10 * S))
    state = m.state_at(2 * MIN + 10 * S)
    assert strength_text(state) == "4 v 5"
    assert {p.kind: (p.remaining_ms, p.waiting) for p in state.penalties} == {
        "minor": (MIN, False), "misconduct": (10 * MIN, True),
    }
    state = m.state_at(4 * MIN + 10 * S)
    assert strength_text(state) == "5 v 5"
    assert [(p.kind, p.remaining_ms) for p in state.penalties] == [("misconduct", 9 * MIN)]


def test_a_green_then_a_yellow_to_one_player_leave_the_team_one_short() -> None:
    m = started("indoor-hockey")
    m.apply(PenaltyAwarded(at=MIN, team="home", kind="green", player="8"))
    m.apply(PenaltyAwarded(at=MIN + 30 * S, team="home", kind="yellow", player="8"))
    state = m.state_at(MIN + 45 * S)
    assert state.home_short == 1
    assert [(p.kind, p.waiting) for p in state.penalties] == [("green", False), ("yellow", True)]
    state = m.state_at(4 * MIN)  # green 1:00-2:00, then yellow 2:00-5:00
    assert (state.home_short, [(p.kind, p.remaining_ms) for p in state.penalties]) == (1, [("yellow", MIN)])


@pytest.mark.parametrize("order", [("game_misconduct", "major"), ("major", "game_misconduct")])
def test_a_major_and_a_game_misconduct_at_one_stoppage_in_either_order(order: tuple[str, str]) -> None:
    # IIHF: a major and a game misconduct together; the team is short for the major's five
    # minutes whichever the operator enters first. A later penalty to that player is refused.
    m = _hockey_stoppage()
    for i, kind in enumerate(order):
        m.apply(PenaltyAwarded(at=MIN + (i + 1) * S, team="home", kind=kind, player="9"))
    m.apply(ClockStarted(at=MIN + 10 * S))
    state = m.state_at(2 * MIN + 10 * S)
    assert strength_text(state) == "4 v 5"
    assert {p.kind: (p.remaining_ms, p.waiting) for p in state.penalties} == {
        "major": (4 * MIN, False), "game_misconduct": (20 * MIN, True),
    }
    m.apply(ClockStopped(at=3 * MIN))
    with pytest.raises(IllegalCommand, match="player 9 of HOME is already out for the match"):
        m.apply(PenaltyAwarded(at=3 * MIN + S, team="home", kind="minor", player="9"))


def test_an_escalation_waits_when_the_team_is_already_at_its_limit() -> None:
    # A user's ruleset where a second minor to one player makes a major: the major is built
    # against the board with that second minor on it, so it queues behind the player's own
    # minor and the team is never more than two short.
    data = tomllib.loads(preset_text("ice-hockey"))
    data["penalties"]["kinds"]["minor"] |= {"escalates_to": "major", "escalates_after": 2}
    m = Match(parse_ruleset(data, "escalating.toml"))
    m.apply(ClockStarted(at=0))
    m.apply(PenaltyAwarded(at=MIN, team="home", kind="minor", player="7"))
    m.apply(ClockStopped(at=10 * MIN))  # the first minor is long served
    m.apply(PenaltyAwarded(at=10 * MIN + S, team="home", kind="minor", player="4"))
    m.apply(PenaltyAwarded(at=10 * MIN + 2 * S, team="home", kind="minor", player="7"))
    m.apply(ClockStarted(at=10 * MIN + 3 * S))
    state = m.state_at(10 * MIN + 30 * S)
    running = [(p.player, p.kind) for p in state.penalties if not p.waiting]
    waiting = [(p.player, p.kind) for p in state.penalties if p.waiting]
    assert sorted(running) == [("4", "minor"), ("7", "minor")]
    assert waiting == [("7", "major")]
    assert state.home_short == 2


# -- IIHF order of serving (issue 8) --------------------------------------------------------------


@pytest.mark.parametrize("order", [("minor", "major"), ("major", "minor")])
def test_a_major_and_a_minor_to_one_player_at_one_stoppage_serve_the_major_first(
    order: tuple[str, str],
) -> None:
    # IIHF: "When a player receives a major penalty and a minor penalty at the same time, the
    # major penalty shall be served first"; a goal against during the major ends nothing (a major
    # never ends on a goal and the minor has not started), then the minor runs its 2 minutes.
    m = Match(load_ruleset("ice-hockey"), on_field=5)
    m.apply(ClockStarted(at=0))
    m.apply(ClockStopped(at=MIN))
    for i, kind in enumerate(order):
        m.apply(PenaltyAwarded(at=MIN + i * S, team="home", kind=kind, player="8"))
    m.apply(ClockStarted(at=MIN + 5 * S))
    state = m.state_at(2 * MIN)
    assert [(p.kind, p.waiting) for p in sorted(state.penalties, key=lambda p: p.kind)] == [
        ("major", False), ("minor", True)]
    assert (state.home_short, strength_text(state)) == (1, "4 v 5")
    m.apply(Goal(at=3 * MIN, team="away", player="11"))  # against the short-handed team, during the major
    m.apply(ClockStarted(at=3 * MIN + 10 * S))
    state = m.state_at(3 * MIN + 10 * S)
    major = next(p for p in state.penalties if p.kind == "major")
    assert (len(state.penalties), major.remaining_ms, state.home_short) == (2, 3 * MIN + 5 * S, 1)
    # The major has 3:05 left when play restarts; then the minor starts and runs 2:00.
    at_major_end = 3 * MIN + 10 * S + 3 * MIN + 5 * S
    state = m.state_at(at_major_end + MIN)
    assert [(p.kind, p.remaining_ms, p.waiting) for p in state.penalties] == [("minor", MIN, False)]
    assert state.home_short == 1
    assert m.state_at(at_major_end + 2 * MIN).penalties == ()


def test_a_goal_against_ends_the_minor_once_it_runs_after_the_major() -> None:
    m = Match(load_ruleset("ice-hockey"), on_field=5)
    m.apply(ClockStarted(at=0))
    m.apply(ClockStopped(at=MIN))
    m.apply(PenaltyAwarded(at=MIN, team="home", kind="minor", player="8"))
    m.apply(PenaltyAwarded(at=MIN, team="home", kind="major", player="8"))
    m.apply(ClockStarted(at=MIN + S))
    m.apply(Goal(at=7 * MIN + S, team="away"))  # the major ended at 6:01, the minor runs
    state = m.state_at(7 * MIN + 2 * S)
    assert (state.penalties, state.home_short) == ((), 0)


# -- corrections and awards after the whistle (issue 8) -------------------------------------------


def test_a_clock_correction_while_stopped_serves_a_penalty_at_once() -> None:
    # The clock is stopped; the official puts it forward past the end of a minor: the minor
    # leaves the board at once (not when the clock restarts), the strength follows and the
    # third penalty that waited for a place starts.
    m = Match(load_ruleset("ice-hockey"), on_field=5)
    m.apply(ClockStarted(at=0))
    m.apply(ClockStopped(at=MIN))
    for player in ("2", "3", "4"):
        m.apply(PenaltyAwarded(at=MIN + S, team="home", kind="minor", player=player))
    assert m.state_at(MIN + 2 * S).home_short == 2
    m.apply(ClockCorrected(at=MIN + 10 * S, clock=15 * MIN - 3 * MIN - S))  # 3:01 played
    state = m.state_at(MIN + 10 * S)
    assert [(p.player, p.waiting) for p in state.penalties] == [("4", False)]
    assert (state.home_short, strength_text(state), state.running) == (1, "4 v 5", False)
    # It started when the first two were served, at 3:00 of play: 1:59 left at 3:01.
    assert state.penalties[0].remaining_ms == 2 * MIN - S


def test_a_red_card_after_the_final_whistle_is_a_record_that_changes_nothing_else() -> None:
    m = Match(load_ruleset("youth-football"))
    m.apply(ClockStarted(at=0))
    m.apply(Goal(at=MIN, team="home", player="9"))
    m.apply(ClockStarted(at=27 * MIN))  # second half
    end = 47 * MIN
    before = m.state_at(end + MIN)
    assert before.phase == "finished"
    m.apply(PenaltyAwarded(at=end + MIN, team="away", kind="red", player="5"))
    after = m.state_at(end + MIN)
    assert (after.penalties, after.home_goals, after.away_goals, after.phase) == ((), 1, 0, "finished")
    assert after.result is not None and before.result is not None
    assert after.result.winner == before.result.winner == "home"
    [sanction] = after.result.sanctions
    assert (sanction.team, sanction.player, sanction.kind, sanction.out_for_match) == ("away", "5", "red", True)


def test_a_clock_correction_in_the_break_puts_back_a_period_whose_horn_sounded_early() -> None:
    m = Match(load_ruleset("indoor-hockey"))
    m.apply(ClockStarted(at=0))
    m.apply(PeriodAdvanced(at=19 * MIN))  # the horn was pressed a minute early
    assert m.state_at(19 * MIN + 10 * S).phase == "interval"
    m.apply(ClockCorrected(at=19 * MIN + 30 * S, clock=MIN))  # one minute is left to play
    state = m.state_at(19 * MIN + 40 * S)
    assert (state.phase, state.period, state.clock_ms, state.running) == ("play", 1, MIN, False)
    m.apply(ClockStarted(at=20 * MIN))
    assert m.state_at(21 * MIN + S).phase == "interval"
    assert [h.reason for h in m.horns_between(20 * MIN, 21 * MIN + S)] == ["period_end"]


# -- water polo: the third personal foul (issue 8) ------------------------------------------------


def test_a_third_personal_foul_puts_the_player_out_with_substitution() -> None:
    # World Aquatics: an exclusion foul and a penalty foul are personal fouls; on the third the
    # player is excluded for the remainder of the match with substitution. The team is short only
    # for the exclusion's 20 s; the player's number is out and gets no further penalty.
    m = started("water-polo")
    m.apply(PenaltyAwarded(at=10 * S, team="away", kind="exclusion", player="5"))
    m.apply(PenaltyAwarded(at=60 * S, team="away", kind="penalty_foul", player="5"))
    state = m.state_at(61 * S)
    assert [(f.player, f.count, f.limit) for f in state.fouls] == [("5", 2, 3)]
    assert (state.players_out, state.away_short) == ((), 0)
    m.apply(PenaltyAwarded(at=90 * S, team="away", kind="exclusion", player="5"))
    state = m.state_at(95 * S)
    assert [(p.team, p.player, p.kind) for p in state.players_out] == [("away", "5", "fouled_out")]
    assert [(p.kind, p.remaining_ms) for p in state.penalties] == [("exclusion", 15 * S)]
    assert (state.away_short, strength_text(state)) == (1, "7 v 6")
    assert m.state_at(111 * S).away_short == 0  # the substitute comes in after the 20 s
    with pytest.raises(IllegalCommand, match="player 5 of AWAY is already out for the match"):
        m.apply(PenaltyAwarded(at=120 * S, team="away", kind="exclusion", player="5"))
    # Another player's fouls count on their own.
    m.apply(PenaltyAwarded(at=130 * S, team="away", kind="exclusion", player="6"))
    assert [(f.player, f.count) for f in m.state_at(131 * S).fouls] == [("5", 3), ("6", 1)]

"""What each part of the screen says, from the engine's state: the sport's words, the numbers, the language."""

from __future__ import annotations

from dataclasses import replace

from display.content import WATER_POLO_CAPS, frame_of
from display.view import ScoreboardView, TeamLook
from rules.match import ClockStarted, Match, PenaltyAwarded
from rules.ruleset import load_ruleset
from tests.display_scenes import scene, with_not_eligible


def frame(sport: str, phase: str, language: str | None = "en"):  # type: ignore[no-untyped-def]
    view = scene(sport, phase).view
    return frame_of(replace(view, language=language))


def test_period_names_are_the_sports_own_words() -> None:
    assert frame("indoor-hockey", "play").title == "1st half"
    assert frame("water-polo", "play").title == "1st period"
    assert frame("water-polo", "play", "sk").title == "1. štvrtina"
    assert frame("ice-hockey", "play", "sk").title == "1. perióda"
    assert frame("youth-football", "play", "sv").title == "1:a halvlek"
    assert frame("indoor-football", "play", "sk").title == "1. polčas"
    assert frame("indoor-hockey", "golden_goal").title == "Extra time 1 · Golden goal"
    assert frame("indoor-hockey", "shootout").title == "Penalty strokes"
    assert frame("water-polo", "shootout", "sv").title == "Straffkast"
    assert frame("ice-hockey", "shootout", "sk").title == "Samostatné nájazdy"


def test_breaks_count_down_with_their_name() -> None:
    f = frame("indoor-hockey", "interval")
    assert (f.mode, f.big_label, f.countdown) == ("interval", "Half-time", "4:25")  # 5:00 less the 35 s since the horn
    assert frame("water-polo", "interval", "sv").big_label == "Halvtid"  # after the 2nd of four periods
    t = frame("indoor-hockey", "timeout", "sk")
    assert (t.mode, t.big_label, t.subtitle, t.countdown) == ("timeout", "Oddychový čas", "Rot-Weiss Köln", "0:43")


def test_the_last_minute_shows_tenths_and_a_stopped_clock_says_so() -> None:
    f = frame("indoor-hockey", "last_minute")
    assert (f.clock, f.running, f.clock_note) == ("42.3", False, "Stopped")
    assert frame("indoor-hockey", "play").clock == "9:45"  # 20:00 less 10:15 played


def test_ice_hockey_strength_penalties_and_the_waiting_one() -> None:
    f = frame("ice-hockey", "play")
    assert f.centre == "5 v 3"
    assert [(p.player, p.code, p.waiting) for p in f.away_penalties] == [("4", "2'", False), ("17", "5'", False),
                                                                         ("22", "2'", True)]
    assert f.top_right.startswith("Time limit ")


def test_water_polo_caps_and_shot_clock() -> None:
    f = frame("water-polo", "play")
    assert (f.home.colour, f.away.colour) == WATER_POLO_CAPS
    assert f.possession.isdigit() and f.possession_label == "Shot clock"


def test_time_outs_only_where_the_round_allows_them() -> None:
    assert frame("indoor-hockey", "play").home_timeouts == (1, 1)
    assert frame("water-polo", "play").home_timeouts[1] == 0  # pool game: time-outs only in semis and final
    assert frame("water-polo", "timeout").mode == "timeout"


def test_shootout_tally_and_who_shoots_next() -> None:
    f = frame("indoor-hockey", "shootout")
    assert f.home_shots is not None and f.away_shots is not None
    assert f.home_shots.marks == ("scored", "missed", "scored", "pending", "pending")
    assert f.away_shots.marks == ("scored", "scored", "pending", "pending", "pending")
    assert (f.home_shots.next_up, f.away_shots.next_up) == (False, True)
    assert (f.home_score, f.away_score, f.centre) == ("2", "2", "Match score 2–2")


def test_final_results_say_how_they_were_decided() -> None:
    f = frame("youth-football", "final_shootout", "sv")
    assert (f.mode, f.title, f.centre, f.winner) == ("final", "Slutresultat", "Straffar 4–2", "home")
    assert f.next_line.startswith("Nästa match: ")
    regular = frame("ice-hockey", "final")
    assert (regular.centre, regular.winner) == ("Draw", None) and regular.home_score == regular.away_score
    assert regular.mode == "final_plain"  # no shoot-out: the scores take the rows it would have had


def test_between_matches_next_match_and_tables() -> None:
    f = frame("indoor-football", "between", "sk")
    assert (f.mode, f.next_label, f.next_teams) == ("between", "Ďalší zápas", "Vrakuňa Wolves – Ružinov Rangers")
    assert f.next_when == "14:40 · Štvrťfinále · SF1"
    assert f.table_titles[0] == "Skupina A" and f.table_heads == ("Z", "V", "R", "P", "Skóre", "B")


def test_a_friendly_match_names_its_sides_in_the_language() -> None:
    match = Match(load_ruleset("indoor-football"))
    match.apply(ClockStarted(at=0))
    match.apply(PenaltyAwarded(at=1_000, team="home", kind="sin_bin"))
    f = frame_of(ScoreboardView(match.state_at(5_000), match.ruleset, language="sk"))
    assert (f.home.name, f.away.name) == ("Domáci", "Hostia")
    assert f.home_penalties[0].player == "" and f.home_penalties[0].time == "1:56"
    assert f.centre == "3 v 4"
    coloured = frame_of(ScoreboardView(match.state_at(5_000), match.ruleset, TeamLook("A", colour="#102030"),
                                       TeamLook("B", colour="Navy")))
    assert (coloured.home.colour, coloured.away.colour) == ((16, 32, 48), (22, 44, 120))
    wrong = frame_of(ScoreboardView(match.state_at(5_000), match.ruleset, TeamLook("A", colour="#12345"),
                                    TeamLook("B", colour="sparkly")))
    assert (wrong.home.colour, wrong.away.colour) == (None, None)  # the theme's colours, never an error


def test_a_refused_press_is_worded_in_the_screens_language() -> None:
    from display.view import Notice
    from rules.errors import IllegalCommand

    match = Match(load_ruleset("ice-hockey"))
    match.apply(ClockStarted(at=0))
    try:
        match.apply(ClockStarted(at=1_000))
    except IllegalCommand as err:
        refused = Notice("refused", error=err)
    view = ScoreboardView(match.state_at(2_000), match.ruleset, notices=(refused,), language="sk")
    assert frame_of(view).notice == ("refused", "Odmietnuté: čas už beží")
    assert frame_of(replace(view, language=None)).notice == ("refused", "Refused: the clock is already running")


def test_before_the_start_who_may_not_play_is_listed_under_each_team_in_the_language() -> None:
    view = with_not_eligible(scene("youth-football", "pre_match").view)
    f = frame_of(view)  # the Swedish cup: the card is the ruleset's own word
    assert (f.mode, f.not_eligible_label) == ("play", "Avstängda")
    assert f.home_not_eligible == ("#7 (Rött kort, match 12)",)
    assert f.away_not_eligible == ("#11 (Rött kort, match 9)", "#4 (Rött kort, match 14)")
    assert frame_of(replace(view, language="sk")).home_not_eligible == ("#7 (Rött kort, zápas 12)",)
    assert frame_of(replace(view, language="en")).not_eligible_label == "Not eligible"
    # Once the match runs the list is gone (time-outs and penalties take its place).
    running = with_not_eligible(scene("youth-football", "play").view)
    assert frame_of(running).home_not_eligible == () and frame_of(running).not_eligible_label == ""


def test_a_restart_whose_down_time_is_unknown_says_so_not_zero() -> None:
    """A Pi without a clock at boot cannot tell how long it was down (docs/reliability.md)."""
    from display.view import Notice

    view = scene("indoor-hockey", "play").view
    unknown = frame_of(replace(view, notices=(Notice("recovered", down_ms=None),), language="sv"))
    assert unknown.notice == ("recovered", "Återställd efter en omstart: nere okänd tid. Kontrollera klockan.")
    known = frame_of(replace(view, notices=(Notice("recovered", down_ms=125_000),), language="en"))
    assert known.notice == ("recovered", "Recovered after a restart: down for 2 min. Check the clock.")


def test_a_shot_clock_run_out_is_blank_and_the_words_beside_it_stay_where_they_were() -> None:
    from display.scoreboard import mode_of

    view = scene("water-polo", "play").view
    assert view.state is not None and view.state.possession_ms
    running = frame_of(view)
    run_out = frame_of(replace(view, state=replace(view.state, possession_ms=0)))
    assert running.possession != "" and run_out.possession == ""
    assert mode_of(running) == mode_of(run_out) == "play_possession"

"""server/discipline.py: the disciplinary register's rules, shared by the desk, the team's page and the
courts' schedules: which cards count, the organiser's rulings, the matches a suspension runs for."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from rules.match import ClockStarted, Match, PenaltyAwarded, event_to_dict
from rules.ruleset import load_ruleset
from server.discipline import (
    Ruling,
    Sanction,
    cards_of,
    matches_by_team,
    may_sanction,
    misses,
    sanctions_from_cards,
    suspended_by_match,
    with_rulings,
)

NINE = datetime(2026, 5, 16, 9, 0)


@dataclass(frozen=True)
class Row:
    number: int
    start: datetime
    home: str | None
    away: str | None


# Playing order: Örebro play 2, 7, 14; match 5 is at the same time as 2 on another court.
SCHEDULE = [Row(2, NINE, "AIK", "Örebro"), Row(5, NINE, "Malmö", "GAIS"), Row(7, NINE + timedelta(hours=1),
            "Örebro", "Hammarby"), Row(9, NINE + timedelta(hours=2), "Kalmar", "Lund"),
            Row(14, NINE + timedelta(hours=3), "Umeå", "Örebro"), Row(19, NINE + timedelta(hours=5), "1A", None)]


def red(player: str = "7", matches: int = 1, *, number: int = 2) -> Sanction:
    return Sanction(number=number, team="Örebro", player=player, kind="red", label="Rött kort",
                    suspended_matches=matches, needs_decision=False)


def test_cards_that_matter_to_the_organiser() -> None:
    cards: list[dict[str, Any]] = [
        {"team": "home", "player": "7", "kind": "yellow", "label": "Yellow card", "suspended_next_matches": 0,
         "report_to_organisers": False},
        {"team": "away", "player": "4", "kind": "red", "label": "Red card", "suspended_next_matches": 1,
         "report_to_organisers": False},
        {"team": "home", "player": None, "kind": "game_misconduct", "label": "Game misconduct",
         "suspended_next_matches": 0, "report_to_organisers": True},
    ]
    red_card, gm = sanctions_from_cards(5, "Home FC", "Away FC", cards)
    assert (red_card.team, red_card.player, red_card.suspended_matches, red_card.needs_decision) == (
        "Away FC", "4", 1, False)
    assert (gm.team, gm.player, gm.suspended_matches, gm.needs_decision) == ("Home FC", "?", 0, True)


def test_which_awards_can_put_a_card_on_the_register() -> None:
    youth, hockey = load_ruleset("youth-football"), load_ruleset("indoor-hockey")
    assert may_sanction(youth, "red") and may_sanction(youth, "yellow")  # two yellows make a red
    assert may_sanction(hockey, "red") and not may_sanction(hockey, "yellow") and not may_sanction(hockey, "green")
    assert not may_sanction(hockey, "no-such-kind")


def test_two_yellows_replayed_are_a_red_card_that_suspends() -> None:
    youth = load_ruleset("youth-football")
    match = Match(youth, stage="round_robin", round="pool")
    match.apply(ClockStarted(at=0))
    match.apply(PenaltyAwarded(at=60_000, team="away", kind="yellow", player="5"))
    match.apply(PenaltyAwarded(at=120_000, team="away", kind="yellow", player="5"))
    cards = cards_of(youth, [event_to_dict(e) for e in match.events], "round_robin", "pool", "2")
    [sanction] = sanctions_from_cards(2, "AIK", "Örebro", cards)
    assert (sanction.team, sanction.player, sanction.kind, sanction.suspended_matches) == ("Örebro", "5", "red", 1)
    assert cards_of(youth, [], "round_robin", "pool", "3") == []
    assert cards_of(youth, [{"v": 1, "seq": 1, "at": 0, "type": "goal"}], "round_robin", "pool", "4") == []


def test_a_suspension_runs_for_the_teams_next_matches_in_playing_order() -> None:
    given = SCHEDULE[0]
    assert misses(red(), SCHEDULE, given) == (7,)
    assert misses(red(matches=2), SCHEDULE, given) == (7, 14)
    assert misses(red(matches=5), SCHEDULE, given) == (7, 14)  # the team's day ends first
    assert misses(red(matches=0), SCHEDULE, given) == ()


def test_the_latest_ruling_replaces_the_rulesets_count() -> None:
    reported = Sanction(number=2, team="Örebro", player="9", kind="red", label="Red card", suspended_matches=0,
                        needs_decision=True)
    at = datetime(2026, 5, 16, 10, 0)
    first = Ruling(number=2, team="Örebro", player="9", matches=2, who="anna", why="committee", at=at)
    again = Ruling(number=2, team="Örebro", player="9", matches=1, who="anna", why="appeal", at=at)
    other = Ruling(number=2, team="Örebro", player="10", matches=3, who="anna", why="other", at=at)
    [ruled] = with_rulings([reported], [first, again, other])
    assert (ruled.suspended_matches, ruled.decided) == (1, "misses 1 match(es)")
    assert with_rulings([reported], []) == [reported]


def test_the_schedules_entries_per_match_with_the_matches_left() -> None:
    out = suspended_by_match([red(matches=2), red(player="?", matches=1)], SCHEDULE)
    assert out == {
        7: [{"side": "home", "player": "7", "kind": "red", "label": "Rött kort", "given_in": 2, "matches_left": 2}],
        14: [{"side": "away", "player": "7", "kind": "red", "label": "Rött kort", "given_in": 2, "matches_left": 1}],
    }  # a card without a player suspends nobody (the desk lists it to complete)


def test_a_team_s_misses_read_from_its_own_matches_are_those_read_from_the_whole_schedule() -> None:
    """Each sanction's misses are read from its team's matches (matches_by_team), not the whole schedule again."""
    of_team = matches_by_team(SCHEDULE)
    assert [m.number for m in of_team["Örebro"]] == [2, 7, 14] and "1A" in of_team and None not in of_team
    for sanction in (red(), red(matches=2), red(matches=5), red(number=7), red(number=14), red(number=99)):
        given = next((m for m in SCHEDULE if m.number == sanction.number), None)
        assert misses(sanction, of_team[sanction.team], given) == misses(sanction, SCHEDULE, given)
    gais = Sanction(number=5, team="GAIS", player="4", kind="red", label="Rött kort", suspended_matches=1,
                    needs_decision=False)
    assert suspended_by_match([gais], SCHEDULE) == {}  # GAIS play no later match
    # The schedule in any order: each sanctioned team's matches are put in playing order.
    both = [red(matches=2), red(player="11", number=7)]
    assert suspended_by_match(both, SCHEDULE[::-1]) == suspended_by_match(both, SCHEDULE) != {}


def test_a_red_card_of_an_abandoned_play_still_counts_once_the_match_is_replayed() -> None:
    # Seed 003: a red card misses the next match. The offence happened, so a replay (seed 004's "game played
    # at a later time") does not wipe it: the register reads it from the replayed log's cards as before.
    from rules.match import Goal, MatchAbandoned, MatchReplayed

    youth = load_ruleset("youth-football")
    match = Match(youth, stage="round_robin", round="pool")
    for e in (ClockStarted(at=0), PenaltyAwarded(at=60_000, team="away", kind="red", player="9"),
              MatchAbandoned(at=70_000), MatchReplayed(at=3_600_000), ClockStarted(at=3_700_000),
              Goal(at=3_800_000, team="home")):
        match.apply(e)
    cards = cards_of(youth, [event_to_dict(e) for e in match.events], "round_robin", "pool", "5")
    assert [(c["team"], c["player"], c["kind"], c["suspended_next_matches"]) for c in cards] == [
        ("away", "9", "red", 1)]
    (sanction,) = sanctions_from_cards(5, "AIK", "GAIS", cards)
    assert (sanction.team, sanction.player, sanction.suspended_matches) == ("GAIS", "9", 1)
    assert match.state_at(3_800_000).players_out == ()  # but #9 was not out in the replay itself

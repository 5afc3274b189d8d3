"""The match report's PDF (server.report_pdf): how a log ended, its journal digest, and names in any alphabet."""

from __future__ import annotations

import io

from pypdf import PdfReader

from rules import ClockStarted, Goal, Match, ShootoutAttempt, load_ruleset
from server.report_pdf import ReportMatch, final_result, journal_digest, report_pdf

MIN = 60_000


def _text(data: bytes) -> str:
    return " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(data)).pages).split())


def test_a_log_that_leaves_the_clock_running_ends_on_it_and_one_stopped_is_not_finished() -> None:
    hockey = load_ruleset("indoor-hockey")
    match = Match(hockey)
    for event in (ClockStarted(at=0), Goal(at=MIN, team="home", player="9")):
        match.apply(event)
    assert final_result(hockey, match.events, "round_robin", "pool") is None  # the second half waits for its press
    at = MIN
    while (due := match.next_due(at)) is not None:  # the first half and the interval run out
        at = due
    match.apply(ClockStarted(at=at + 1000))
    running = final_result(hockey, match.events, "round_robin", "pool")
    # A hockey goal stops no clock: the log's last press leaves it running to the end.
    assert running is not None and (running.home_goals, running.away_goals, running.outcome) == (1, 0, "regular")
    stopped = Match(load_ruleset("ice-hockey"))  # an ice-hockey goal stops the clock: the log stops mid-match
    for event in (ClockStarted(at=0), Goal(at=MIN, team="home", player="9")):
        stopped.apply(event)
    assert final_result(stopped.ruleset, stopped.events, "round_robin", "pool") is None
    text = _text(report_pdf(ReportMatch(home="Slovan Č", away="Örebro SK"), stopped.ruleset, stopped.events))
    assert "Slovan Č 1-0 Örebro SK" in text and "Not finished: the log stops while the match goes on." in text


def test_a_shootout_is_reported_attempt_by_attempt_and_the_digest_is_the_events_not_their_order() -> None:
    futsal = load_ruleset("indoor-football")
    match = Match(futsal, stage="knockout")
    match.apply(ClockStarted(at=0))
    match.apply(ClockStarted(at=11 * MIN))
    for i, (team, scored) in enumerate([("away", True), ("home", False), ("away", True), ("home", False)]):
        shot = ShootoutAttempt(at=23 * MIN + i * 1000, team=team, scored=scored, player=str(7 + i))  # type: ignore[arg-type]
        match.apply(shot)
    events = match.events
    result = final_result(futsal, events, "knockout", "final")
    assert result is not None and (result.outcome, result.winner) == ("shootout", "away")
    text = _text(report_pdf(ReportMatch(home="A", away="B", kind="knockout", round="final"), futsal, events))
    assert "Decided after a shoot-out, shoot-out 0-2. Winner: B." in text
    assert "B Shoot-out #7: scored 0-1" in text and "A Shoot-out #8: missed 0-1" in text
    assert journal_digest(events) == journal_digest(tuple(reversed(events)))  # by seq, as journaled
    assert journal_digest(events) != journal_digest(events[:-1])

"""server/scores.py: a stored result in the few characters the pages and the desk write it in."""

from __future__ import annotations

from rules.ruleset import load_ruleset
from rules.standings import MatchResult
from server.scores import awarded, score_text

YOUTH = load_ruleset("youth-football")  # seed 003: a walk-over counts 3-0


def _result(**kw: object) -> MatchResult:
    return MatchResult(pool="A", home="AIK P14", away="GAIS P14", **kw)  # type: ignore[arg-type]


def test_a_walkover_entered_0_0_reads_as_the_score_the_ruleset_awards() -> None:
    walkover = _result(home_goals=0, away_goals=0, outcome="walkover", winner="GAIS P14")
    assert awarded(YOUTH, walkover) == (0, 3)
    assert score_text(walkover, awarded(YOUTH, walkover)) == "0–3 w.o."
    assert awarded(YOUTH, _result(home_goals=2, away_goals=1)) is None


def test_a_shootout_and_overtime_say_how_the_match_was_decided() -> None:
    assert score_text(_result(home_goals=2, away_goals=2, outcome="shootout", winner="AIK P14", home_shootout=4,
                              away_shootout=3), None) == "2–2 (4–3 pen.)"
    assert score_text(_result(home_goals=3, away_goals=2, outcome="overtime", winner="AIK P14"), None) == "3–2 OT"
    assert score_text(_result(home_goals=1, away_goals=0), None) == "1–0"

"""A stored result as the pages and the desk write it for people: "3–1", "2–2 (4–3 pen.)", "1–0 OT", "3–0 w.o."."""

from __future__ import annotations

from rules import CourtsideError, MatchResult, Ruleset
from rules.standings.scoring import score as scored


def awarded(ruleset: Ruleset, result: MatchResult) -> tuple[int, int] | None:
    """A walk-over's or forfeit's goals as the standings count them: one entered 0-0 ("not entered") is
    the ruleset's score (seed 003: "3-0 som slutresultat"), which is what a parent should read."""
    if result.outcome not in ("walkover", "forfeit"):
        return None
    try:
        counted = scored(ruleset, result)
    except CourtsideError:  # a result the rules refuse: the page shows View.error, the row what was stored
        return None
    return counted.home_goals, counted.away_goals


def score_text(result: MatchResult, given: tuple[int, int] | None) -> str:
    """``result`` in a few characters; ``given``: its :func:`awarded` goals, for a walk-over or a forfeit."""
    home, away = given or (result.home_goals, result.away_goals)
    text = f"{home}–{away}"
    if result.outcome == "shootout":
        text += f" ({result.home_shootout}–{result.away_shootout} pen.)"
    elif result.outcome == "overtime":
        text += " OT"
    elif result.outcome in ("walkover", "forfeit"):
        text += " w.o." if result.outcome == "walkover" else " forf."
    return text


__all__ = ["awarded", "score_text"]

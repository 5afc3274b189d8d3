"""The scoreboard's words, in the sport's own terms: period names, breaks, shoot-outs, results, rounds.

Each function takes the translations of the tournament's language (:func:`rules.words.words_for`)
and plain data, never prose from the engine, so the screen, the web pages and the stream overlay
say the same thing. Sport-specific wording differs by language too (a water-polo period is a
"štvrtina" in Slovak, an ice-hockey one a "perióda"), so period names are looked up in the
sport's context (``msgctxt`` = the ruleset's ``sport``) and fall back to the plain message.
"""

from __future__ import annotations

from gettext import NullTranslations

from rules.ruleset import Ruleset

# The English words; the catalogs translate them. Kept as literals so the catalog test finds them.
_HALVES = ("1st half", "2nd half")
_PERIODS = ("1st period", "2nd period", "3rd period", "4th period")
_SHOOTOUTS = {
    "indoor hockey": "Penalty strokes",
    "hockey": "Penalty strokes",
    "water polo": "Penalty shots",
    "football": "Penalties",
    "indoor football": "Penalties",
    "futsal": "Penalties",
    "ice hockey": "Shoot-out",
}
_ROUNDS = {
    "pool": "Pool match",
    "round_robin": "Pool match",
    "round_of_32": "Round of 32",
    "round_of_16": "Round of 16",
    "playoff": "Cross-over",
    "quarter_final": "Quarter-final",
    "semi_final": "Semi-final",
    "final": "Final",
    "placement": "Placement match",
    "final_placement": "Placement match",
    "third_place": "3rd place match",
}


def in_sport(words: NullTranslations, sport: str, message: str) -> str:
    """``message`` in the sport's wording when the catalog has one, else its plain translation."""
    found = words.pgettext(sport, message)
    return found if found != message else words.gettext(message)


def period_title(words: NullTranslations, ruleset: Ruleset, kind: str, period: int) -> str:
    """"2nd half", "3rd period", "Extra time 1", "Penalty shots": the part of the match being played.

    ``kind`` is ``regular``, ``extra_time`` or ``shootout``; ``period`` counts from 1 within it.
    """
    m = ruleset.match
    if kind == "shootout":
        return shootout_title(words, ruleset)
    if kind == "extra_time":
        single = m.overtime is not None and m.overtime.periods == 1
        base = words.gettext("Extra time")
        return base if single else f"{base} {period}"
    names = _HALVES if m.period_name == "half" and m.periods <= 2 else _PERIODS
    if 1 <= period <= len(names):
        return in_sport(words, ruleset.sport, names[period - 1])
    return words.gettext("Period {n}").format(n=period)


def golden_goal(words: NullTranslations, ruleset: Ruleset) -> str | None:
    """"Golden goal" while golden-goal extra time is played; None otherwise."""
    o = ruleset.match.overtime
    return words.gettext("Golden goal") if o is not None and o.kind == "golden_goal" else None


def shootout_title(words: NullTranslations, ruleset: Ruleset) -> str:
    return in_sport(words, ruleset.sport, _SHOOTOUTS.get(ruleset.sport, "Shoot-out"))


def interval_title(words: NullTranslations, ruleset: Ruleset, after_period: int) -> str:
    """"Half-time" between halves (and after the 2nd of four periods), "Break" otherwise.

    Ice hockey's two periods have a break between them, not a half-time.
    """
    m = ruleset.match
    halves = m.period_name == "half" and m.periods == 2 and after_period == 1
    quarters = m.periods == 4 and after_period == 2
    return words.gettext("Half-time") if halves or quarters else words.gettext("Break")


def round_title(words: NullTranslations, round_name: str | None) -> str | None:
    """A tournament round in words; an organiser's own round name is shown as written."""
    if not round_name:
        return None
    known = _ROUNDS.get(round_name)
    return words.pgettext("round", known) if known else round_name.replace("_", " ")


def result_how(words: NullTranslations, ruleset: Ruleset, outcome: str, home_so: int | None,
               away_so: int | None) -> str | None:
    """How a finished match was decided, beside its score; None for a match decided in regular time."""
    if outcome == "overtime":
        gg = ruleset.match.overtime is not None and ruleset.match.overtime.kind == "golden_goal"
        return words.gettext("after golden goal") if gg else words.gettext("after extra time")
    if outcome == "shootout":
        return f"{shootout_title(words, ruleset)} {home_so if home_so is not None else 0}–" \
               f"{away_so if away_so is not None else 0}"
    if outcome == "walkover":
        return words.gettext("Walk-over")
    if outcome == "forfeit":
        return words.gettext("Forfeited")
    if outcome == "abandoned":
        return words.gettext("Abandoned: the organiser decides")
    return None


def duration(ms: int) -> str:
    """A length of time for a notice: "2 h 05 min", "7 min", "40 s" (units the same in all three languages)."""
    seconds = max(0, ms) // 1000
    if seconds >= 3600:
        return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"
    if seconds >= 60:
        return f"{seconds // 60} min"
    return f"{seconds} s"

"""The table's own words: what it refuses, prompts and notes, beside the engine's refusals.

Each is an English template under a key, as the engine's refusals are (rules/match/refusals.py), and the
template is its message id in the catalogues (rules/words/locale/*/LC_MESSAGES/courtside.po):
:func:`table_text` says it in the operator's language. A ``team`` is a side, said as the table names it
(HOME; in Swedish HEMMA); a ``label`` is a penalty kind's label, itself a message of the catalogues.
"""

from __future__ import annotations

from rules import Translate, side_text

WORDS: dict[str, str] = {
    # refusals of a press
    "no_penalties": "the {ruleset} rules have no penalties",
    "mode_nothing": "MODE: nothing to choose now",
    "not_started": "the match has not started: START starts it; hold MODE to load another match",
    "hold_next": "to end the period now, hold NEXT",
    "nothing_to_undo": "nothing to undo",
    "no_goal": "{team} has no goal to take off",
    "no_lengthening": "{team} has no penalty that can be lengthened",
    "not_over": "the match is not over: hold MODE to leave it and load the next",
    "no_more_matches": "no more matches on this court's schedule",
    # notices
    "cancelled": "cancelled",
    "horn_muted": "horn muted",
    "horn_on": "horn on",
    "loaded": "match {match}: {home} v {away}",
    "restarted": "table restarted after {down} down; {what}",
    "down_seconds": "{seconds} s",
    "down_unknown": "an unknown time",
    "was_stopped": "the clock was stopped at {clock}: press START to go on, or correct it",
    "script_went_on": "the press script goes on from {clock}, the clock running",
    "was_idle": "nothing was running",
    # what is being typed
    "typing_number": "player #{number} - GOAL or PENALTY takes it, UNDO cancels",
    "typing_clock": "clock: {clock} - NEXT sets it, UNDO cancels",
    "typing_penalty": "{team} #{player} {label} - MODE: next kind, NEXT confirms, UNDO cancels",
    "typing_length": "{team} #{player} {label}: length {minutes} min - NEXT confirms",
    # the operator's view: what the buttons do now, when nothing is being typed
    "next_pre_match": "START starts the match",
    "next_running": "STOP stops the clock; a player's number, then GOAL or PENALTY",
    "next_stopped": "START restarts the clock; hold NEXT ends the period",
    "next_interval": "START starts the next period; NEXT ends the interval now",
    "next_timeout": "the time-out runs; hold a TIME-OUT button to end it early",
    "next_shootout": "{team} shoots next: GOAL if it scores, PENALTY if it misses",
    "next_shot": "GOAL if the shot scores, PENALTY if it misses",
    "next_set_piece": "MODE: the next set piece, or it is over; START restarts the clock",
    "next_finished": "the match is over: NEXT loads the next match",
    "undo_takes": "UNDO takes back: {what}",
    "refused": "Refused: {reason}",
    "link_sent": "Server: everything sent",
    "link_waiting": "Server: {count} waiting to be sent",
    "link_offline": "Offline: {count} kept on the card, sent when the link is back",
    "link_none": "No server link: the card keeps every event",
    "journal": "Journal: {count} events on the card",
    "first_minute": "F11 or ?: the keys and holds",
}


def english(text: str) -> str:
    """No translation: the words as they are written, in English."""
    return text


def table_text(key: str, _: Translate = english, /, **params: object) -> str:
    """The sentence for ``key`` with ``params``, in the language of ``_`` (a catalogue's gettext)."""
    said = {name: side_text(str(value), _) if name == "team" else _(str(value)) if name == "label" else value
            for name, value in params.items()}
    return _(WORDS[key]).format(**said)

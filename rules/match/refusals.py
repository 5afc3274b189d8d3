"""Why a command is refused: one key per reason, its English template, and :func:`refuse`.

The engine raises ``IllegalCommand(reason, key, params)``: ``reason`` is the English
sentence, ``key`` and ``params`` (data: sides, seqs, kinds, milliseconds) let a
screen say it in the tournament's language (rules.words.state.refusal_text passes
its gettext function as ``_``; the templates are the message ids).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from rules.errors import IllegalCommand
from rules.match.clock import format_clock

Translate = Callable[[str], str]

TEMPLATES: dict[str, str] = {
    "not_started": "cannot {action}: the match has not started",
    "in_interval": "cannot {action}: the {period_name} is over and the interval is running",
    "in_shootout": "cannot {action}: the match is in the {shootout_name}",
    "match_over": "cannot {action}: the match is over",
    "clock_running": "the clock is already running",
    "clock_stopped": "the clock is already stopped",
    "goal_after_end": "cannot score a goal: the match is over; enter a goal scored before the end "
    "at the instant it was scored, or correct the score",
    "shots_taken_goal": "cannot {action}: shots of the {shootout_name} have been taken; "
    "undo them to add a goal of the match",
    "shots_taken_unlevel": "cannot {action}: shots of the {shootout_name} have been taken; they were taken on a "
    "level score: undo them first, then change the score",
    "not_a_goal": "seq {seq} is not a goal",
    "goal_already_disallowed": "the goal at seq {seq} is already disallowed",
    "unknown_penalty_kind": "no penalty kind {kind!r} in the {ruleset} rules (kinds: {known})",
    "not_a_penalty": "seq {seq} is not a penalty",
    "takes_no_length": "a {label} runs to the end of the match and takes no length",
    "fixed_length_award": "a {label} lasts {length_ms}; only a minimum penalty takes a length",
    "at_least": "a {label} is at least {length_ms}",
    "player_out": "player {player} of {team} is already out for the match",
    "penalty_over": "the {label} at seq {seq} is already over",
    "not_ended_by_table": "a {label} cannot be ended from the table; correct its time instead",
    "fixed_length": "a {label} has a fixed length; correct its time instead",
    "length_only_grows": "the {label} already lasts {length_ms}; a length only grows",
    "runs_to_end": "a {label} runs to the end of the match; undo it instead",
    "no_time_to_correct": "a {label} has no time to correct",
    "no_room": "{team} already has {limit} players short; this penalty cannot run again now",
    "unknown_set_piece": "{name!r} is not a set piece in the {ruleset} rules (set pieces: {known})",
    "set_piece_running": "a {set_piece} is already being awarded",
    "no_set_piece": "no set piece is being awarded",
    "timeout_running": "a time-out for {team} is already running",
    "no_timeout_during": "no time-out while a {set_piece} is being awarded",
    "no_timeouts_at_all": "the {ruleset} rules allow no time-outs",
    "no_timeouts_in_round": "no time-outs in {round} (only in {rounds})",
    "no_timeout_left_extra_time": "no time-out left for {team} in extra time",
    "no_timeout_left": "no time-out left for {team} in {segment}",
    "no_timeout": "no time-out is running",
    "no_possession_clock": "the {ruleset} rules have no possession clock",
    "no_shootout": "no shoot-out is being played",
    "not_your_turn": "it is {team}'s turn to shoot",
    "clock_range": "the clock must be between 0:00 and {length_ms}",
    "score_before_start": "cannot correct the score: the match has not started",
    "not_abandoned": "cannot {action}: the match was not abandoned",
    "walkover_after_start": "a walk-over is entered before the match starts; enter a forfeit instead",
    "result_set_by_rules": "cannot {action}: the result of a {outcome} is set by the rules; undo the {outcome} first",
    "not_applied": "{type} is not an event the match applies",
    "round_stage": "a {round} match is played in the {expected} stage under these rules, not {stage}",
    "on_field": "on_field must be 1 or more players a side, not {on_field}",
    "seq_not_following": "seq {seq} does not follow seq {last}",
    "seq_used": "seq {seq} is already logged as a different event",
    "no_such_event": "there is no event seq {seq} to undo",
    "already_undone": "seq {seq} is already undone",
    "later_refused": "{before}then seq {seq} ({type}) would be refused: {inner}",
    "cannot_undo": "cannot undo seq {seq}: ",
    "replay_refused": "seq {seq} ({type}) refused: {inner}",
    "unknown_round": "{round!r} is not a round of the {ruleset} rules{hint} (rounds: {known})",
    "ruleset_mismatch": "the ruleset {ruleset!r} is not the one this log was written with ({expected!r}): "
    "its rules differ",
    "no_header": "the log has no header saying its ruleset: give --rules",
}

ACTIONS: dict[str, str] = {
    "clock_started": "start the clock", "clock_stopped": "stop the clock", "goal": "score a goal",
    "goal_disallowed": "disallow the goal", "penalty_awarded": "award a penalty", "timeout_started": "call a time-out",
    "period_advanced": "end the period", "possession_reset": "reset the possession clock",
    "set_piece_started": "flag a set piece", "clock_corrected": "correct the clock",
    "score_corrected": "correct the score", "match_abandoned": "abandon the match", "forfeit": "enter a forfeit",
    "match_resumed": "resume the match", "match_replayed": "replay the match",
}

# Params that are words (translated), not data shown as is.
_WORDS = frozenset({"period_name", "shootout_name", "label", "segment", "round", "rounds"})


def _identity(text: str) -> str:
    return text


def _value(name: str, value: object, _: Translate) -> object:
    if name == "action" and isinstance(value, str):
        return _(ACTIONS.get(value, value))
    if name in ("team", "outcome") and isinstance(value, str):
        return _({"home": "HOME", "away": "AWAY", "walkover": "walk-over"}.get(value, value))
    if name == "set_piece" and isinstance(value, str):
        return _(value.replace("_", " "))
    if name in ("inner", "before") and isinstance(value, dict):
        return _nested(value, _)
    if name.endswith("_ms") and isinstance(value, int):
        return format_clock(value, tenths=False, down=True)
    if isinstance(value, list | tuple):
        return ", ".join(str(_value(name, v, _)) for v in value) or _("none")
    if name in _WORDS and isinstance(value, str):
        return _(value.replace("_", " "))
    return value


def _nested(value: Mapping[str, object], _: Translate) -> str:
    """A refusal inside another ("then seq 4 would be refused: ..."): {"key", "params", "reason"}."""
    key, params = value.get("key"), value.get("params")
    if isinstance(key, str) and key in TEMPLATES and isinstance(params, dict):
        return render(key, params, _)
    return str(value.get("reason", ""))


def render(key: str, params: Mapping[str, object], _: Translate = _identity) -> str:
    """The sentence for refusal ``key`` with ``params``, each word passed through ``_``."""
    template = TEMPLATES.get(key)
    if template is None:
        return str(params.get("reason", key))
    return _(template).format(**{name: _value(name, value, _) for name, value in params.items()})


def refuse(key: str, **params: object) -> IllegalCommand:
    """The IllegalCommand for ``key``: its English sentence, its key and its params."""
    return IllegalCommand(render(key, params), key, params)

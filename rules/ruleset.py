"""Rulesets: everything that differs between tournaments, read from TOML.

A ruleset is immutable once loaded. All durations in the model are whole
milliseconds (so sums of clock intervals are exact); in the TOML file a
duration is written either as whole seconds (``20``) or as ``"M:SS"``
(``"20:00"``), whichever reads better for the rule it encodes.

``load_ruleset("indoor-hockey")`` gives a shipped preset; ``load_ruleset(path)``
reads a user's file. A wrong file raises :class:`~rules.errors.RulesetError`
naming the file, the key path and what was expected, every problem at once.
The declarations live in :mod:`rules.ruleset_model` and are re-exported here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypeVar

from rules.errors import RulesetError, UnknownRound, UnknownRuleset
from rules.ruleset_model import (
    DECISION_CRITERIA,
    DEFAULT_ROUNDS,
    Criterion,
    FairPlay,
    LossBand,
    MatchFormat,
    Millis,
    Overtime,
    Penalties,
    PenaltyKind,
    Points,
    PossessionClock,
    RankingRules,
    Ruleset,
    Shootout,
    StageKind,
    Timeouts,
)
from rules.schema import as_data, build
from rules.tomlfile import DocumentError, decode_toml, read_bytes

__all__ = [
    "DECISION_CRITERIA",
    "DEFAULT_ROUNDS",
    "MAX_BYTES",
    "MAX_LINES",
    "PRESETS",
    "Criterion",
    "FairPlay",
    "LossBand",
    "MatchFormat",
    "Millis",
    "Overtime",
    "Penalties",
    "PenaltyKind",
    "Points",
    "PossessionClock",
    "RankingRules",
    "Ruleset",
    "Shootout",
    "StageKind",
    "Timeouts",
    "check_round",
    "load_ruleset",
    "parse_ruleset",
    "preset_text",
    "read_ruleset_file",
    "round_names",
    "ruleset_digest",
    "ruleset_settings",
    "stage_of_round",
]

PRESETS = ("indoor-hockey", "water-polo", "indoor-football", "youth-football", "ice-hockey")

MAX_BYTES = 256 * 1024
"""A ruleset file larger than this is refused unread: the presets are about 5 KB."""

MAX_LINES = 5_000
"""A ruleset file with more lines is refused: the longest preset has about 130."""

P = TypeVar("P")


def parse_part(cls: type[P], data: Any, source: str) -> P:
    """``data`` checked as one part of a ruleset (``cls``); ``source`` names it in errors."""
    value, problems = build(cls, data)
    if value is None:
        raise RulesetError(source, problems)
    return value


def parse_ruleset(data: dict[str, Any], source: str) -> Ruleset:
    """Validate a decoded TOML document; ``source`` names it in errors, with every problem found."""
    return parse_part(Ruleset, data, source)


def read_ruleset_file(path: str | Path) -> Ruleset:
    """A user's ruleset file: UTF-8 (a byte-order mark is skipped), at most MAX_BYTES and MAX_LINES."""
    source = str(path)
    try:
        data = decode_toml(read_bytes(path, MAX_BYTES), MAX_BYTES, MAX_LINES)
    except DocumentError as err:
        raise RulesetError(source, [("", str(err))]) from None
    return parse_ruleset(data, source)


def preset_text(name: str) -> str:
    if name not in PRESETS:
        raise UnknownRuleset(f"no preset named {name!r}; presets are: {', '.join(PRESETS)}")
    from importlib import resources

    return resources.files("rules.presets").joinpath(f"{name}.toml").read_text(encoding="utf-8")


_PRESETS_READ: dict[str, Ruleset] = {}


def load_ruleset(name_or_path: str | Path) -> Ruleset:
    """A shipped preset by name, or a ruleset file by path."""
    if isinstance(name_or_path, str) and name_or_path in PRESETS:
        # A preset never changes while the program runs, and a ruleset is immutable: read it once.
        if name_or_path not in _PRESETS_READ:
            data = decode_toml(preset_text(name_or_path), MAX_BYTES, MAX_LINES)
            _PRESETS_READ[name_or_path] = parse_ruleset(data, f"preset {name_or_path}")
        return _PRESETS_READ[name_or_path]
    path = Path(name_or_path)
    try:
        found = path.exists()
    except OSError:  # a name too long for the file system, say: it cannot be a file either
        found = False
    if not found:
        shown = str(name_or_path) if len(str(name_or_path)) <= 100 else str(name_or_path)[:100] + "..."
        raise UnknownRuleset(f"{shown}: neither a preset ({', '.join(PRESETS)}) nor an existing file")
    return read_ruleset_file(path)


def round_names(ruleset: Ruleset) -> tuple[str, ...]:
    """The rounds a match or a tournament stage may name under this ruleset."""
    return tuple(ruleset.rounds)


def check_round(ruleset: Ruleset, name: str) -> str:
    """``name`` if the ruleset knows the round; else :class:`UnknownRound` with the names it could be."""
    if name in ruleset.rounds:
        return name
    import difflib  # only a wrong name pays for it

    close = difflib.get_close_matches(name, list(ruleset.rounds), n=3, cutoff=0.6)
    plain = name.lower().replace(" ", "_").replace("-", "_")
    if plain in ruleset.rounds and plain not in close:
        close.insert(0, plain)
    hint = f"did you mean {' or '.join(map(repr, close))}? " if close else ""
    raise UnknownRound(
        f"{name!r} is not a round of ruleset {ruleset.name}; {hint}its rounds are: {', '.join(ruleset.rounds)}"
    )


def stage_of_round(ruleset: Ruleset, name: str) -> StageKind:
    """The stage a round is played in (a final is a knock-out); the round is checked first."""
    return ruleset.rounds[check_round(ruleset, name)]


def ruleset_settings(ruleset: Ruleset) -> dict[str, Any]:
    """Every setting as plain data (durations in ms), in declaration order: what a digest covers.

    The ranking settings added after match logs were first written (``mutual``, ``fair_play``)
    are left out while they keep their defaults, so a stored log's digest still names its preset; the
    schedule's estimate of a stopped clock's stoppages (``match.stoppages``) is left out always: it only
    checks a tournament's slot, and a match plays alike whatever it says."""
    data: dict[str, Any] = as_data(ruleset)
    data["match"].pop("stoppages", None)
    ranking = data.get("ranking")
    if isinstance(ranking, dict):
        for key, default in _LATER_DEFAULTS.items():
            if key in ranking and ranking[key] == default:
                del ranking[key]
    return data


_LATER_DEFAULTS: dict[str, Any] = {"mutual": "points", "fair_play": None}


def ruleset_digest(ruleset: Ruleset) -> str:
    """A stable SHA-256 of the canonical settings: two files that play alike digest alike.

    Comments, key order and "20:00" versus 1200 do not change it; any setting does.
    """
    import hashlib
    import json

    canonical = json.dumps(ruleset_settings(ruleset), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()

"""Reading a tournament file, and the ruleset it names.

:func:`parse_tournament` takes the file's text, :func:`read_tournament_file` its path.
Bytes are checked before parsing (size, lines, UTF-8; a byte-order mark is skipped),
then every field (:mod:`rules.schema`, all field problems at once in one error), then
every cross-reference (:mod:`rules.tournament.checks`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rules.errors import RulesetError, TournamentError, UnknownRuleset
from rules.ruleset import PRESETS, Ruleset, load_ruleset
from rules.schema import build
from rules.tomlfile import DocumentError, decode_toml, read_bytes
from rules.tournament.checks import check_against_ruleset, check_references
from rules.tournament.model import Tournament

MAX_BYTES = 4 * 1024 * 1024
"""A tournament file larger than this is refused unread (2,000 teams take about 200 KB)."""

MAX_LINES = 100_000
"""A tournament file with more lines is refused."""


def parse_tournament(text: str, source: str) -> Tournament:
    """Read a tournament file's TOML text; ``source`` names the file in every error."""
    return validate_tournament(decoded_text(text, source), source)


def read_tournament_file(path: str | Path) -> Tournament:
    """A tournament file by path: refused fast when larger than MAX_BYTES, not UTF-8 or not TOML."""
    return validate_tournament(decoded_file(path), str(path))


def decoded_text(text: str, source: str) -> dict[str, Any]:
    """A tournament file's TOML text as data, its size and syntax checked; ``source`` names the file."""
    try:
        return decode_toml(text, MAX_BYTES, MAX_LINES)
    except DocumentError as err:
        raise TournamentError(source, "", str(err)) from None


def decoded_file(path: str | Path) -> dict[str, Any]:
    """A tournament file as data, refused unread when larger than MAX_BYTES, and when not UTF-8 or not TOML."""
    try:
        return decode_toml(read_bytes(path, MAX_BYTES), MAX_BYTES, MAX_LINES)
    except DocumentError as err:
        raise TournamentError(str(path), "", str(err)) from None


def validate_tournament(data: dict[str, Any], source: str) -> Tournament:
    tournament, problems = build(Tournament, data)
    if tournament is None:
        key, message = problems[0]
        if len(problems) > 1:
            message += "; also " + "; ".join(f"{k}: {m}" for k, m in problems[1:20])
            if len(problems) > 20:
                message += f"; and {len(problems) - 20} more"
        raise TournamentError(source, key, message)
    check_references(tournament, source)
    return tournament


def ruleset_path(t: Tournament, source: str) -> str | Path:
    """The preset name, or the ruleset file's path read relative to the tournament file."""
    if t.ruleset in PRESETS:
        return t.ruleset
    path = Path(t.ruleset)
    return path if path.is_absolute() else Path(source).parent / path


def load_tournament_ruleset(t: Tournament, source: str) -> Ruleset:
    """The ruleset the file names, checked against the file (slots long enough, rounds it knows)."""
    try:
        ruleset = load_ruleset(ruleset_path(t, source))
    except UnknownRuleset as err:
        raise TournamentError(source, "ruleset", str(err)) from None
    except RulesetError:
        raise  # names the ruleset file itself, key by key
    check_against_ruleset(t, ruleset, source)
    return ruleset


def load_tournament(path: str | Path) -> tuple[Tournament, Ruleset]:
    """A tournament file and the ruleset it names, checked against each other: what a shell starts from."""
    tournament = read_tournament_file(path)
    return tournament, load_tournament_ruleset(tournament, str(path))

"""The first line of a match log that stands alone: which ruleset, stage, round, teams and match.

With it ``courtside replay --events FILE`` needs no other flag, and the server can
check that a log belongs to the match it claims (docs/events.md, "The header").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, get_args

from rules.errors import EventError, IllegalCommand
from rules.record import Record
from rules.ruleset import Ruleset, StageKind, ruleset_digest

_DIGEST = re.compile(r"[0-9a-f]{64}")
MAX_HEADER_TEXT = 200  # characters of a team name, match id, court or ruleset reference


def _text(value: object, *, optional: bool) -> str | None:
    if value is None:
        return None if optional else "required"
    if not isinstance(value, str):
        return f"text is required, not {type(value).__name__} {value!r}"
    if not 1 <= len(value) <= MAX_HEADER_TEXT or not value.isprintable() or not value.strip():
        return f"1 to {MAX_HEADER_TEXT} printable characters, not blank"
    return None


class LogHeader(Record):
    """What match a log belongs to. ``ruleset`` is what the table loaded (a preset name or a file)."""

    ruleset: str
    ruleset_digest: str
    stage: StageKind = "round_robin"
    round: str | None = None
    home: str | None = None
    away: str | None = None
    match_id: str | None = None
    court: str | None = None
    on_field: int | None = None

    def __post_init__(self) -> None:
        problems: dict[str, str | None] = {
            "ruleset": _text(self.ruleset, optional=False),
            "ruleset_digest": None if isinstance(self.ruleset_digest, str) and _DIGEST.fullmatch(self.ruleset_digest)
            else "64 lowercase hex digits (sha256) are required",
            "stage": None if self.stage in get_args(StageKind) and isinstance(self.stage, str)
            else f"{self.stage!r} is not a stage ({', '.join(get_args(StageKind))})",
            "round": _text(self.round, optional=True),
            "home": _text(self.home, optional=True),
            "away": _text(self.away, optional=True),
            "match_id": _text(self.match_id, optional=True),
            "court": _text(self.court, optional=True),
            "on_field": None if self.on_field is None
            or (type(self.on_field) is int and 1 <= self.on_field <= 30) else "a whole number from 1 to 30",
        }
        for field, problem in problems.items():
            if problem is not None:
                raise EventError("header", field, problem)

    @classmethod
    def for_match(
        cls, ruleset: Ruleset, *, ruleset_ref: str | None = None, stage: StageKind = "round_robin",
        round: str | None = None, home: str | None = None, away: str | None = None, match_id: str | None = None,
        court: str | None = None, on_field: int | None = None,
    ) -> LogHeader:
        """The header of a new log; ``ruleset_ref`` defaults to the ruleset's name (a preset)."""
        return cls(
            ruleset=ruleset_ref or ruleset.name, ruleset_digest=ruleset_digest(ruleset), stage=stage, round=round,
            home=home, away=away, match_id=match_id, court=court, on_field=on_field,
        )

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of the header; fields left empty are omitted."""
        return {k: v for k, v in vars(self).items() if v is not None}

    @classmethod
    def from_dict(cls, data: object) -> LogHeader:
        """Check and build a header; a fault raises EventError naming the field."""
        if not isinstance(data, dict):
            raise EventError("header", "header", "a JSON object is required")
        known = cls.__record_fields__
        for key in data:
            if key not in known:
                raise EventError("header", str(key), "unknown key")
        for key in ("ruleset", "ruleset_digest"):
            if key not in data:
                raise EventError("header", key, "required key is missing")
        return cls(**data)

    def check_ruleset(self, ruleset: Ruleset) -> None:
        """Refuse a ruleset that is not the one the log was written with (its digest differs)."""
        digest = ruleset_digest(ruleset)
        if digest != self.ruleset_digest:
            raise IllegalCommand(
                f"the ruleset {ruleset.name!r} (digest {digest[:12]}) is not the one this log was written with "
                f"({self.ruleset!r}, digest {self.ruleset_digest[:12]}): its rules differ",
                "ruleset_mismatch", {"ruleset": ruleset.name, "expected": self.ruleset},
            )

    def load_ruleset(self, load: Callable[[str], Ruleset]) -> Ruleset:
        """The ruleset the header names, loaded by ``load`` (e.g. rules.ruleset.load_ruleset) and checked."""
        ruleset = load(self.ruleset)
        self.check_ruleset(ruleset)
        return ruleset

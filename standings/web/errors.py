"""Refusals the web part gives: a desk change the rules or the state do not allow, a bad form."""

from __future__ import annotations

from rules.errors import CourtsideError


class DeskRefused(CourtsideError, ValueError):
    """The organiser's change is refused; nothing stored changes. The message says why."""


class NeedsConfirmation(DeskRefused):
    """A result that changes later matches or places: nothing is stored until the organiser confirms.
    ``lines`` says what it would change, a sentence each."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        super().__init__("this result changes what follows; confirm to store it: " + "; ".join(lines))


class FormError(CourtsideError, ValueError):
    """A desk form field is missing or malformed; names the field and what was expected."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        super().__init__(f"{field}: {message}")


class AccountError(CourtsideError, ValueError):
    """An account cannot be created or changed (name taken, password too short)."""

"""Errors of the table program; each names where the problem is and why (rules.errors tree)."""

from __future__ import annotations

from rules import CourtsideError, FileLineError


class ButtonMapError(CourtsideError, ValueError):
    """A button map is wrong: ``source`` names the file, ``key`` the TOML key, then the reason."""

    def __init__(self, source: str, key: str, message: str) -> None:
        self.source = source
        self.key = key
        self.message = message
        super().__init__(f"{source}: {key}: {message}" if key else f"{source}: {message}")


class PressScriptError(FileLineError):
    """A press script line is wrong: names the file, the line and the reason."""


class JournalError(CourtsideError, OSError):
    """A match journal cannot be read or written (names the file and why)."""


class PinsError(CourtsideError, RuntimeError):
    """The GPIO pins cannot be opened (no pin library for this board, or not a Pi)."""

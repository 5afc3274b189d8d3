"""The one exception tree of the rules core.

Every error the core raises derives from :class:`CourtsideError`; each leaf also
subclasses the builtin it is closest to, so callers that only know Python's
builtins still catch it (``except ValueError``).
"""

from __future__ import annotations


class CourtsideError(Exception):
    """Root of every error raised by courtside."""


class RulesetError(CourtsideError, ValueError):
    """A ruleset file is malformed or contradicts itself.

    ``problems`` lists each fault as ``(key_path, message)``; ``source`` names the
    file (or preset) it came from.
    """

    def __init__(self, source: str, problems: list[tuple[str, str]]) -> None:
        self.source = source
        self.problems = list(problems)
        lines = [f"{source}: {key}: {message}" if key else f"{source}: {message}" for key, message in problems]
        super().__init__("\n".join(lines))


class UnknownRuleset(CourtsideError, LookupError):
    """A ruleset name that is neither a shipped preset nor an existing file."""


class FileLineError(CourtsideError, ValueError):
    """A line of an input file is wrong: ``source`` names the file, ``line`` the line (or None)."""

    def __init__(self, source: str, line: int | None, message: str) -> None:
        self.source = source
        self.line = line
        self.message = message
        where = f"{source}, line {line}" if line is not None else source
        super().__init__(f"{where}: {message}")


class ResultsError(FileLineError):
    """A results or decisions file is malformed; names the file, line and reason."""


class TournamentError(CourtsideError, ValueError):
    """A tournament file is malformed; names the file, the key and the reason."""

    def __init__(self, source: str, key: str, message: str) -> None:
        self.source = source
        self.key = key
        self.message = message
        super().__init__(f"{source}: {key}: {message}" if key else f"{source}: {message}")


class ScheduleError(CourtsideError, ValueError):
    """The schedule's constraints cannot all be met; says which and why."""


class IllegalCommand(CourtsideError, ValueError):
    """An operator command the match state or the ruleset does not allow.

    The match is left exactly as it was; ``reason`` is the sentence shown to
    the table official ("no time-out left for HOME in this half").
    """

    def __init__(self, reason: str, key: str = "refused", params: dict[str, object] | None = None) -> None:
        self.reason = reason
        # Screens translate the refusal from its key and params (rules.words.state.refusal_text);
        # ``reason`` stays the English sentence for logs and the command line.
        self.key = key
        self.params: dict[str, object] = dict(params or {})
        super().__init__(reason)


class EventLogError(FileLineError):
    """An event log line is malformed; names the line number and the reason.

    ``offset`` is the byte offset (UTF-8) where the bad line starts, when known, so a
    journal whose last write was torn can be cut back to its last good line.
    """

    def __init__(self, source: str, line: int | None, message: str, offset: int | None = None) -> None:
        self.offset = offset
        super().__init__(source, line, message)


class EventError(CourtsideError, ValueError):
    """An event (or command) built with a wrong field: ``field`` names it, ``message`` says why.

    Raised when the event is made, so a journal the table writes can always be read back.
    """

    def __init__(self, event_type: str, field: str, message: str) -> None:
        self.event_type = event_type
        self.field = field
        self.message = message
        super().__init__(f"{event_type}: {field}: {message}")


class ProtocolError(CourtsideError, ValueError):
    """An MQTT message that breaks the protocol (rules/protocol.py): ``field`` names the part that is wrong."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}" if field else message)


def whole_number(field: str, value: object, *, low: int = 0) -> int:
    """``value`` if it is a whole number from ``low`` to 2**53 (what JSON carries exactly), else ProtocolError."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise ProtocolError(field, f"a whole number is required, not {type(value).__name__}")
    if value < low or value > 2**53:
        raise ProtocolError(field, f"{value} is out of range: a whole number of {low} or more is required")
    return value


class UnknownLanguage(CourtsideError, LookupError):
    """A language with no shipped catalog (rules/words): the message names the ones there are."""


class UnknownRound(CourtsideError, ValueError):
    """A round name the ruleset does not know; the message lists the names it could be."""


class DemoError(CourtsideError, RuntimeError):
    """A part of ``courtside demo`` (broker, service, a table) did not start, stop or finish; says which and why."""


class StateDataError(CourtsideError, ValueError):
    """A match state read back from JSON (``MatchState.from_dict``) has a wrong key or value; ``where`` names it."""

    def __init__(self, where: str, message: str) -> None:
        self.where = where
        self.message = message
        super().__init__(f"{where}: {message}")

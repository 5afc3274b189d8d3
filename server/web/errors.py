"""What the web part says besides the desk's refusals (server.desk.DeskError): a result to confirm first,
an account that cannot be made, a change the account's role does not allow."""

from __future__ import annotations

from rules import CourtsideError


class NeedsConfirmation(CourtsideError, ValueError):
    """A result that changes later matches or places: nothing is stored until the organiser confirms.
    ``lines`` says what it would change, a sentence each."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        super().__init__("this result changes what follows; confirm to store it: " + "; ".join(lines))


class AccountError(CourtsideError, ValueError):
    """An account cannot be created or changed (name taken, password too short)."""


class NotYourRole(CourtsideError, PermissionError):
    """The account's role does not allow this change (a ``desk`` account replacing a stored result, moving a
    match): nothing was stored; the message says what the role may do."""

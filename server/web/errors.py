"""What the web part says besides the desk's refusals (server.desk.DeskError, server.desk_commands): an account
that cannot be made."""

from __future__ import annotations

from rules import CourtsideError


class AccountError(CourtsideError, ValueError):
    """An account cannot be created or changed (name taken, password too short)."""

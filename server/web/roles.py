"""What each desk role may change, checked where a desk command is turned into a write (ServiceBackend._step).

An ``organiser`` does everything. A ``desk`` account (server.web.accounts) enters results of matches that have
none, walk-overs and decisions (lots, penalty competitions); whatever replaces a stored result, moves a match,
settles a conflict or an abandoned match, or rules on a card is an organiser's. Whether a match has a result is
read again in the transaction that stores one (``server.desk.record_result(first_only=True)``): a table's result
arriving meanwhile is never replaced by a desk account.
"""

from __future__ import annotations

from server.web.accounts import ORGANISER
from server.web.errors import NotYourRole
from server.web.inputs import CorrectResult, DeskCommand, MoveMatch, RecordDecision, RuleSanction, SettleConflict
from server.web.view import View

_ORGANISERS_ONLY = {MoveMatch: "moving a match", SettleConflict: "settling a conflict",
                    RuleSanction: "ruling on a card"}


def first_result_only(command: DeskCommand, view: View) -> bool:
    """True when the command's role may only enter a match's first result; raises :class:`NotYourRole` when the
    role may not make the change at all (nothing is stored)."""
    if command.role == ORGANISER or isinstance(command, RecordDecision):
        return False
    if isinstance(command, CorrectResult):
        row = view.by_number.get(command.number)
        if command.abandoned:
            what = "settling an abandoned match"
        elif row is None or row.recorded is None:
            return True
        else:
            what = f"replacing match {command.number}'s result"
    else:
        what = _ORGANISERS_ONLY.get(type(command), "this change")
    raise NotYourRole(f"{what} is an organiser's: the {command.role} role enters results of matches that have "
                      "none, walk-overs and decisions")

"""What waits for the desk (server.web.desk_lists): a tie's ways to be decided, and the facts of a class."""

from __future__ import annotations

from server.web.desk_lists import decision_methods, desk_lists, in_class
from tests.service_support import HOCKEY
from tests.web_day import sample_day


def test_a_tie_is_decided_at_the_desk_only_by_a_method_its_ruleset_ranks_by() -> None:
    with sample_day(12) as day:
        v = day.view()
        assert decision_methods(v, "A") == ["lots"]  # Swedish youth football: lots, never a penalty competition
        # Without classes everything is the desk's: the sample day's conflict (match 2's table corrected its 0-0)
        assert in_class(v, "", stage="A") and in_class(v, "", number=1)
        assert [c.number for c in desk_lists(v, "").conflicts] == [c.number for c in v.data.conflicts] != []
        assert desk_lists(v, "P13").conflicts == []  # a class the file does not have lists nothing
    with sample_day(0, example=HOCKEY) as day:
        assert decision_methods(day.view(), "A") == ["penalty_competition"]  # indoor hockey: never lots

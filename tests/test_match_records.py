"""The engine's records behave as the frozen keyword-only dataclasses they replaced, without importing dataclasses."""

from __future__ import annotations

import dataclasses
import subprocess
import sys

import pytest

from rules.errors import EventError
from rules.match import Applied, Goal, MatchState, PenaltyAwarded
from rules.match.fold import Core
from rules.match.penalties import Penalty
from rules.match.records import MatchRecord


def test_import_rules_match_does_not_import_dataclasses_inspect_or_pydantic() -> None:
    heavy = "('dataclasses', 'inspect', 'pydantic')"
    code = f"import sys, rules.match; print(sorted(m for m in {heavy} if m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_dataclasses_functions_see_the_fields_in_order_with_their_defaults() -> None:
    goal = Goal(at=0, team="home")
    assert dataclasses.is_dataclass(goal)
    assert dataclasses.is_dataclass(Goal)
    fields = dataclasses.fields(PenaltyAwarded)
    assert [f.name for f in fields] == ["at", "seq", "team", "kind", "player", "length"]
    assert [f.default for f in fields][1:] == [0, dataclasses.MISSING, dataclasses.MISSING, None, None]
    assert "type" not in {f.name for f in fields}  # a ClassVar, as in a dataclass
    assert [f.name for f in dataclasses.fields(MatchState)][:3] == ["at", "phase", "period"]


def test_asdict_and_replace_as_for_a_dataclass() -> None:
    goal = Goal(at=5, team="away", player="9")
    assert dataclasses.asdict(goal) == {"at": 5, "seq": 0, "team": "away", "player": "9"}
    assert dataclasses.replace(goal, seq=3) == goal.replace(seq=3) == Goal(at=5, seq=3, team="away", player="9")
    assert list(vars(Goal(player="9", team="away", at=5))) == ["at", "seq", "team", "player"]


def test_frozen_equal_hashable_and_printable() -> None:
    goal = Goal(at=5, team="home")
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'at'"):
        goal.at = 6  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del goal.team
    assert goal == Goal(at=5, team="home") and goal != Goal(at=5, team="away")
    assert goal != PenaltyAwarded(at=5, team="home", kind="minor")
    assert len({goal, Goal(at=5, team="home")}) == 1
    assert repr(goal) == "Goal(at=5, seq=0, team='home', player=None)"


def test_wrong_keywords_raise_type_errors_naming_them() -> None:
    with pytest.raises(TypeError, match="unexpected keyword argument 'score'"):
        Goal(at=5, team="home", score=1)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="missing 1 required keyword-only argument: 'team'"):
        Goal(at=5)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="unexpected keyword argument 'score'"):
        Goal(at=5, team="home").replace(score=1)
    with pytest.raises(TypeError):
        Goal(5, "home")  # type: ignore[call-arg,arg-type]


def test_replace_checks_the_new_values_again() -> None:
    with pytest.raises(EventError) as err:
        Goal(at=5, team="home").replace(team="hme")
    assert err.value.field == "team"


def test_a_default_factory_gives_each_record_its_own_value() -> None:
    goal = Goal(at=0, team="home")
    a = Applied(event=goal, kind="accepted", message_key="applied.goal")
    b = Applied(event=goal, kind="accepted", message_key="applied.goal")
    assert a.params == {} and a.params is not b.params


def test_the_folded_core_is_mutable_and_unhashable() -> None:
    core = Core()
    core.home = 2
    assert core.home == 2 and core != Core() and core.clone() == core
    with pytest.raises(TypeError):
        hash(core)


def test_class_patterns_match_by_keyword() -> None:
    assert MatchRecord.__match_args__ == Goal.__match_args__ == ()
    match Goal(at=5, team="away"):
        case Goal(team="away", at=at):
            assert at == 5
        case _:
            pytest.fail("a goal for the away side")


def test_replace_keeps_unchanged_values_and_leaves_the_original() -> None:
    p = Penalty(seq=3, team="home", kind="minor", player="4", length=120_000, start=None)
    q = p.replace(start=60_000)
    assert (p.start, q.start, q.length, q.reduces) == (None, 60_000, 120_000, True)
    assert q == Penalty(seq=3, team="home", kind="minor", player="4", length=120_000, start=60_000)

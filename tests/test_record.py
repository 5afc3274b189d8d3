"""rules.record: frozen, keyword-only records with defaults, equality, repr and copies with changes, that behave
as the dataclasses they replaced without importing dataclasses."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from typing import ClassVar

import pytest

from rules.errors import EventError
from rules.match import Applied, Goal, MatchState, PenaltyAwarded
from rules.match.fold import Core
from rules.match.penalties import Penalty
from rules.record import Record, field, is_record, record_fields


class Band(Record):
    margin: int
    points: int = 0
    names: list[str] = field(default_factory=list)
    LIMIT: ClassVar[int] = 5


class Wide(Band):
    extra: bool = False
    note: str = field(default="", compare=False)


class Pair(Record, kw_only=False):
    first: str
    second: int = 0


def test_construction_by_keyword_with_defaults_and_fresh_factories() -> None:
    a, b = Band(margin=2), Band(margin=2)
    assert (a.margin, a.points, a.names) == (2, 0, [])
    assert a.names is not b.names
    assert record_fields(Band) == [("margin", True), ("points", False), ("names", False)]
    assert [name for name, _ in record_fields(Wide)] == ["margin", "points", "names", "extra", "note"]


def test_a_missing_or_unknown_field_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="missing 1 required keyword-only argument: 'margin'"):
        Band()  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="unexpected keyword argument 'colour'"):
        Band(margin=1, colour="red")  # type: ignore[call-arg]


def test_records_are_frozen() -> None:
    band = Band(margin=1)
    with pytest.raises(AttributeError, match="cannot assign to field 'margin'"):
        band.margin = 3  # type: ignore[misc]
    with pytest.raises(AttributeError, match="cannot delete field 'points'"):
        del band.points


def test_equality_hash_repr_and_replace() -> None:
    assert Band(margin=1, points=2) == Band(margin=1, points=2) != Band(margin=1, points=3)
    assert Band(margin=1) != Wide(margin=1)
    assert repr(Band(margin=1)) == "Band(margin=1, points=0, names=[])"
    moved = Band(margin=1, points=2).replace(points=4)
    assert moved == Band(margin=1, points=4) and moved.replace(margin=9).margin == 9
    assert hash(Wide(margin=1).replace(names=("a",))) == hash(Wide(margin=1, names=("a",)))  # type: ignore[arg-type]
    assert is_record(Band) and is_record(moved) and not is_record(object())


def test_a_field_left_out_of_equality_and_hash() -> None:
    assert Wide(margin=1, note="a") == Wide(margin=1, note="b")
    assert hash(Wide(margin=1, names=(), note="a")) == hash(Wide(margin=1, names=(), note="b"))  # type: ignore[arg-type]
    assert [f.compare for f in dataclasses.fields(Wide)] == [True, True, True, True, False]


def test_a_record_declared_not_keyword_only_takes_its_fields_in_order() -> None:
    assert Pair("a", 2) == Pair(first="a", second=2) != Pair("a")
    assert Pair.__match_args__ == ("first", "second")
    match Pair("a", 2):
        case Pair(first, second):
            assert (first, second) == ("a", 2)
    with pytest.raises(TypeError):
        Pair("a", 2, 3)  # type: ignore[call-arg]


def test_the_core_imports_neither_dataclasses_nor_inspect_nor_pydantic() -> None:
    heavy = "('dataclasses', 'inspect', 'pydantic')"
    code = f"import sys, rules.match, rules.standings, rules.tournament, rules.live, rules.result; " \
           f"print(sorted(m for m in {heavy} if m in sys.modules))"
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
    assert Record.__match_args__ == Goal.__match_args__ == ()
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


def test_what_a_cached_property_keeps_is_no_field() -> None:
    from functools import cached_property

    class Pitch(Record):
        name: str
        size: int = 7

        @cached_property
        def label(self) -> str:
            return f"{self.name} ({self.size} v {self.size})"

    asked, fresh = Pitch(name="Plan 1"), Pitch(name="Plan 1")
    assert asked.label == "Plan 1 (7 v 7)"
    assert asked == fresh and hash(asked) == hash(fresh)  # whether or not it was asked
    bigger = asked.replace(size=11)
    assert bigger == Pitch(name="Plan 1", size=11) and bigger.label == "Plan 1 (11 v 11)"  # worked out again

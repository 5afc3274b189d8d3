"""Value-level mutations of a decoded TOML document, for the ruleset and tournament fuzz suites.

One to three changes at random places of a valid document: a value replaced by a
troublesome one (NASTY_VALUES of tests/fuzz_support.py, plus numbers, dates and
shapes TOML can carry: inf, nan, 2**63, thousands of digits' worth of magnitude,
time-zone offsets, year 9999, deep nesting), a key deleted, an unknown key added, a
list item repeated.
"""

from __future__ import annotations

import copy
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, date, datetime, time, timedelta, timezone
from typing import Any

from hypothesis import strategies as st

from tests.fuzz_support import NASTY_VALUES

Path = tuple[str | int, ...]

TOML_VALUES: list[Any] = [
    0, -1, 1, 2, 11, 101, 2**31, 2**63 - 1, -(2**63), 10**18, True, False,
    0.0, -0.0, 0.5, 1e308, float("inf"), float("-inf"), float("nan"),
    [], [[[[[[[[[[]]]]]]]]]], ["x"] * 3, [1, "a"], {}, {"x": 1}, {"name": "\x00"},
    datetime(2026, 5, 16, 9, 0), datetime(2026, 5, 16, 9, 0, tzinfo=timezone(timedelta(hours=2))),
    datetime(9999, 12, 31, 23, 59), datetime(1, 1, 1), date(2026, 5, 16), time(18, 30),
    time(18, 30, tzinfo=UTC), "2026-05-16T09:00", "2026-05-16T09:00+02:00", "9999-12-31T23:59",
    "18:30", "25:00", "20:00", "0:00", "-1:00", "1e400", "semi_final", "semifinal", "final", "1A", "best 1st",
    "winner SF1", "3B/C",
]


def paths(doc: Any, at: Path = ()) -> list[Path]:
    """Every key path of ``doc``, tables and lists included (the root too)."""
    out: list[Path] = [at]
    if isinstance(doc, dict):
        for key, value in doc.items():
            out += paths(value, (*at, key))
    elif isinstance(doc, list):
        for i, value in enumerate(doc):
            out += paths(value, (*at, i))
    return out


def _parent(doc: Any, path: Path) -> Any:
    for step in path[:-1]:
        doc = doc[step]
    return doc


@st.composite
def value_mutation(draw: st.DrawFn, doc: dict[str, Any]) -> dict[str, Any]:
    doc = copy.deepcopy(doc)
    for _ in range(draw(st.integers(1, 3))):
        where = draw(st.sampled_from(paths(doc)))
        kind = draw(st.sampled_from(["value", "value", "value", "delete", "unknown", "repeat"]))
        if not where:
            where = (draw(st.sampled_from(sorted(doc))),) if doc else ()
            if not where:
                continue
        parent = _parent(doc, where)
        key = where[-1]
        if kind == "value":
            # a copy: the shared TOML_VALUES must not be changed (or made to contain itself) by later steps
            parent[key] = copy.deepcopy(draw(st.one_of(
                st.sampled_from(TOML_VALUES), st.sampled_from(NASTY_VALUES), st.integers(), st.text(max_size=30),
            )))
        elif kind == "delete":
            del parent[key]
        elif kind == "unknown" and isinstance(parent, dict):
            parent[draw(st.sampled_from(["extra", "Name", "name ", "\x00", "teams", "round"]))] = 1
        elif kind == "repeat" and isinstance(parent, list):
            parent.insert(int(key), copy.deepcopy(parent[int(key)]))
    return doc


@contextmanager
def toml_file(data: bytes) -> Iterator[str]:
    """``data`` as a temporary .toml file, read by name as the commands read theirs; removed afterwards."""
    fd, name = tempfile.mkstemp(suffix=".toml")
    try:
        os.write(fd, data)
        os.close(fd)
        yield name
    finally:
        os.unlink(name)

"""Fuzzing the ruleset reader: the shipped presets mutated at the byte and the value level.

Whatever the input, reading it either gives a ruleset that keeps every promise the
docs make (every number within its bound, durations whole milliseconds up to a day,
plain-text names, rounds it knows, points in order) or raises RulesetError naming the
file; never a traceback, never a hang. The run length is set by
COURTSIDE_FUZZ_EXAMPLES (tests/fuzz_support.py); the long run is

    COURTSIDE_FUZZ_EXAMPLES=20000 .venv/bin/pytest -q -p no:cacheprovider tests/test_fuzz_ruleset.py
"""

from __future__ import annotations

import dataclasses
import re
import tomllib
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from rules.errors import RulesetError
from rules.ruleset import PRESETS, Ruleset, parse_ruleset, preset_text, read_ruleset_file, ruleset_digest
from rules.schema import MAX_INT, MAX_TEXT
from tests.fuzz_support import FUZZ, byte_mutation
from tests.toml_fuzz import toml_file, value_mutation

TEXTS = {name: preset_text(name) for name in PRESETS}
DOCS = {name: tomllib.loads(text) for name, text in TEXTS.items()}
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
DAY_MS = 86_400_000


def _leaves(obj: Any, path: str = "") -> list[tuple[str, Any]]:
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return [leaf for f in dataclasses.fields(obj) for leaf in _leaves(getattr(obj, f.name), f"{path}.{f.name}")]
    if isinstance(obj, list | tuple):
        return [leaf for i, x in enumerate(obj) for leaf in _leaves(x, f"{path}[{i}]")]
    if isinstance(obj, dict):
        return [(f"{path}.{k}", k) for k in obj] + [leaf for k, x in obj.items() for leaf in _leaves(x, f"{path}.{k}")]
    return [(path, obj)]


def keeps_the_promises(r: Ruleset) -> None:
    for path, value in _leaves(r):
        assert not isinstance(value, float), path  # no float survives: durations are whole ms
        if isinstance(value, int) and not isinstance(value, bool):
            assert abs(value) <= MAX_INT, path
        if isinstance(value, str):
            assert not _CONTROL.search(value) and len(value) <= MAX_TEXT, path
    fmt = r.match
    assert 1 <= fmt.periods <= 10 and len(fmt.intervals) == fmt.periods - 1
    for ms in (fmt.period_length, *fmt.intervals, fmt.tenths_below, fmt.late_press_grace):
        assert 0 <= ms <= DAY_MS
    assert fmt.period_length > 0
    assert "knockout" in fmt.level_allowed_in or fmt.overtime is not None or fmt.shootout is not None
    assert r.points.loss <= r.points.draw <= r.points.win
    assert set(r.timeouts.only_in_rounds or ()) <= set(r.rounds)
    assert r.name and r.ranking.criteria
    for kind in r.penalties.kinds.values():
        assert kind.label and (kind.length is not None or kind.player_out_for_match)
        assert kind.escalates_to is None or kind.escalates_to in r.penalties.kinds
    assert len(ruleset_digest(r)) == 64


@given(st.sampled_from(PRESETS).flatmap(lambda name: byte_mutation(TEXTS[name])))
@FUZZ
def test_bytes_are_read_or_refused_cleanly(data: bytes) -> None:
    with toml_file(data) as name:
        try:
            ruleset = read_ruleset_file(name)
        except RulesetError as err:
            assert err.source == name and str(err).startswith(name) and err.problems
            return
        keeps_the_promises(ruleset)


@given(st.sampled_from(PRESETS).flatmap(lambda name: value_mutation(DOCS[name])))
@FUZZ
def test_values_are_read_or_refused_cleanly(doc: dict[str, Any]) -> None:
    try:
        ruleset = parse_ruleset(doc, "mutated.toml")
    except RulesetError as err:
        assert err.source == "mutated.toml" and err.problems
        for key, message in err.problems:
            assert message and len(message) < 600, (key, message)
        return
    keeps_the_promises(ruleset)


"""Fuzzing the tournament reader: the shipped example tournaments mutated at the byte and the value level.

Whatever the input, reading it (and checking it against its ruleset) either gives a
tournament that keeps every promise the docs make, and that the draw and the
schedule can work with, or raises a CourtsideError naming the file; never a
traceback, never a hang. The run length is set by COURTSIDE_FUZZ_EXAMPLES
(tests/fuzz_support.py); the long run is

    COURTSIDE_FUZZ_EXAMPLES=20000 .venv/bin/pytest -q -p no:cacheprovider tests/test_fuzz_tournament.py
"""

from __future__ import annotations

import contextlib
import re
import tomllib
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from rules.errors import CourtsideError, TournamentError
from rules.ruleset import check_round, load_ruleset
from rules.tournament import Tournament, build_schedule, pool_teams, read_tournament_file, validate_tournament
from rules.tournament.checks import check_against_ruleset
from rules.tournament.placeholders import canonical, parse_placeholder
from rules.tournament.stages import stage_order
from tests.fuzz_support import FUZZ, SPORTS, byte_mutation, example
from tests.toml_fuzz import toml_file, value_mutation

TEXTS = {sport: example(f"{sport}.toml") for sport in SPORTS}
DOCS = {sport: tomllib.loads(text) for sport, text in TEXTS.items()}
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def keeps_the_promises(t: Tournament) -> None:
    names = [team.name for team in t.teams]
    assert len(set(names)) == len(names) >= 2
    for name in names:
        assert name and name == name.strip() and not _CONTROL.search(name) and parse_placeholder(name) is None
    assert t.schedule.start.tzinfo is None and 2000 <= t.schedule.start.year <= 2199
    stages = [p.name for p in t.pools] + [m.name for m in t.matches] + [r.name for r in t.rankings]
    assert len(set(stages)) == len(stages)
    assert sorted(stage_order(t)) == sorted(stages)
    for ranking in t.rankings:
        slots = [canonical(x) for x in ranking.teams]
        assert len(set(slots)) == len(slots)
    if t.final_ranking:
        assert len(t.final_ranking) == len(t.teams)


def usable(t: Tournament, source: str) -> None:
    """An accepted file checks against its ruleset, and its draw and schedule end in a result or a refusal."""
    ruleset = load_ruleset(t.ruleset) if t.ruleset in SPORTS else None
    if ruleset is None:
        return
    try:
        check_against_ruleset(t, ruleset, source)
    except TournamentError as err:
        assert str(err).startswith(source)
        return
    for match in t.matches:
        assert check_round(ruleset, match.round) == match.round
    with contextlib.suppress(CourtsideError):  # a schedule the constraints do not allow is a refusal, in words
        build_schedule(t, ruleset, pool_teams(t, source))


@given(st.sampled_from(SPORTS).flatmap(lambda sport: byte_mutation(TEXTS[sport])))
@FUZZ
def test_bytes_are_read_or_refused_cleanly(data: bytes) -> None:
    with toml_file(data) as name:
        try:
            t = read_tournament_file(name)
        except TournamentError as err:
            assert err.source == name and str(err).startswith(name)
            return
        keeps_the_promises(t)
        usable(t, name)


@given(st.sampled_from(SPORTS).flatmap(lambda sport: value_mutation(DOCS[sport])))
@FUZZ
def test_values_are_read_or_refused_cleanly(doc: dict[str, Any]) -> None:
    try:
        t = validate_tournament(doc, "mutated.toml")
    except TournamentError as err:
        assert err.source == "mutated.toml" and len(str(err)) < 5000
        return
    keeps_the_promises(t)
    usable(t, "mutated.toml")

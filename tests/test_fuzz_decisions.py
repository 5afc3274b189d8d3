"""Fuzzing the decisions reader, alone and against a tournament: refused cleanly or kept to its promises.

A decisions file read without error has, on every line, a pool, a method the standings
know, two or more distinct, well-formed team names and no tie decided twice; checked
against a tournament, every decision names one of its pools or rankings and that
stage's teams. Anything else is a CourtsideError naming the file.
"""

from __future__ import annotations

import re

from hypothesis import given

from rules.errors import CourtsideError
from rules.files import decode_text
from rules.ruleset import DECISION_CRITERIA
from rules.standings import Decision
from rules.standings.csvfile import MAX_NAME
from rules.standings.decisions import read_decisions_csv
from rules.tournament import parse_tournament, pool_teams
from rules.tournament.decisions import best_names, check_decisions
from tests.fuzz_support import DECISIONS, FUZZ, byte_mutation, example, outcome, value_mutation

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
YOUTH = parse_tournament(example("youth-football.toml"), "youth-football.toml")
ENTRY = pool_teams(YOUTH, "youth-football.toml")


def read(text: str) -> list[Decision] | None:
    try:
        numbered = read_decisions_csv(text, "decisions.csv")
    except CourtsideError as err:
        assert str(err).startswith("decisions.csv")
        outcome(err)
        return None
    decisions = [d for _, d in numbered]
    seen: set[tuple[str, frozenset[str]]] = set()
    for d in decisions:
        assert d.pool and not _CONTROL.search(d.pool) and len(d.pool) <= MAX_NAME
        assert d.method in DECISION_CRITERIA
        assert len(d.order) >= 2 and len(set(d.order)) == len(d.order)
        for team in d.order:
            assert team and not _CONTROL.search(team) and ">" not in team and len(team) <= MAX_NAME
        assert (d.pool, d.teams) not in seen
        seen.add((d.pool, d.teams))
    try:
        check_decisions(YOUTH, ENTRY, decisions, "decisions.csv", [line for line, _ in numbered])
    except CourtsideError as err:
        assert str(err).startswith("decisions.csv")
        outcome(err)
        return decisions
    outcome(None)
    stages = {p.name for p in YOUTH.pools} | {r.name for r in YOUTH.rankings} | set(best_names(YOUTH))
    everyone = {t.name for t in YOUTH.teams} | {t for teams in ENTRY.values() for t in teams}
    for d in decisions:
        assert d.pool in stages and set(d.order) <= (set(ENTRY.get(d.pool, ())) or everyone)
    return decisions


@given(byte_mutation(DECISIONS))
@FUZZ
def test_bytes_are_read_or_refused_cleanly(data: bytes) -> None:
    try:
        text = decode_text(data, "decisions.csv")
    except CourtsideError as err:
        assert str(err).startswith("decisions.csv")
        outcome(err)
        return
    read(text)


@given(value_mutation(DECISIONS))
@FUZZ
def test_values_are_read_or_refused_cleanly(text: str) -> None:
    read(text)


def test_the_unmutated_example_is_read() -> None:
    decisions = read(example("youth-football-decisions.csv"))
    assert decisions is not None and decisions[0].pool == "QFL"

"""Fuzzing the results reader: valid example files mutated at the byte and the value level.

Whatever the input, reading it either gives results that keep every promise the docs
make (names, bounds, outcomes a ruleset can produce, meetings) or is refused with a
CourtsideError naming the file; never a traceback or a hang. The run length is set
by COURTSIDE_FUZZ_EXAMPLES (tests/fuzz_support.py).
"""

from __future__ import annotations

import re
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from rules.errors import CourtsideError
from rules.files import decode_text
from rules.ruleset import Ruleset, load_ruleset
from rules.standings import MatchResult, parse_results_csv, rank_pools
from rules.standings.csvfile import MAX_NAME
from rules.standings.possible import impossible
from rules.standings.results import MAX_GOALS, MAX_SHOOTOUT_GOALS, OUTCOMES
from tests.fuzz_support import FUZZ, POOL_RESULTS, RESULTS, SPORTS, byte_mutation, outcome, value_mutation

RULESETS = {sport: load_ruleset(sport) for sport in SPORTS}
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def keeps_the_promises(results: list[MatchResult], ruleset: Ruleset | None) -> None:
    meetings: Counter[tuple[str, frozenset[str]]] = Counter()
    for r in results:
        for name in (r.pool, r.home, r.away):
            assert name and not _CONTROL.search(name) and ">" not in name and len(name) <= MAX_NAME
            assert name == name.strip()
        assert r.home != r.away and r.outcome in OUTCOMES
        assert 0 <= r.home_goals <= MAX_GOALS and 0 <= r.away_goals <= MAX_GOALS
        for shots in (r.home_shootout, r.away_shootout):
            assert shots is None or 0 <= shots <= MAX_SHOOTOUT_GOALS
        if ruleset is not None:
            assert impossible(ruleset.match, r, "round_robin") is None
            meetings[(r.pool, frozenset(r.teams))] += 1
    if ruleset is not None:
        assert max(meetings.values(), default=0) <= ruleset.ranking.meetings


def read(text: str, ruleset: Ruleset | None) -> list[MatchResult] | None:
    try:
        if ruleset is None:
            return parse_results_csv(text, "results.csv")
        return parse_results_csv(
            text,
            "results.csv",
            meetings=ruleset.ranking.meetings,
            level_allowed="round_robin" in ruleset.match.level_allowed_in,
            check=lambda r: impossible(ruleset.match, r, "round_robin"),
        )
    except CourtsideError as err:
        assert str(err).startswith("results.csv")
        outcome(err)
        return None


@given(st.sampled_from(sorted(RESULTS)).flatmap(lambda name: byte_mutation(RESULTS[name])))
@FUZZ
def test_bytes_are_read_or_refused_cleanly(data: bytes) -> None:
    try:
        text = decode_text(data, "results.csv")
    except CourtsideError as err:
        assert str(err).startswith("results.csv")
        outcome(err)
        return
    results = read(text, None)
    if results is not None:
        outcome(None)
        keeps_the_promises(results, None)


@given(
    st.sampled_from(sorted(POOL_RESULTS)).flatmap(
        lambda name: st.tuples(st.just(name), value_mutation(POOL_RESULTS[name]))
    )
)
@FUZZ
def test_values_are_read_or_refused_cleanly_and_ranked_without_a_traceback(case: tuple[str, str]) -> None:
    name, text = case
    sport = name if name in RULESETS else "indoor-hockey"
    ruleset = RULESETS[sport]
    results = read(text, ruleset)
    if results is None:
        return
    outcome(None)
    keeps_the_promises(results, ruleset)
    try:
        standings = rank_pools(ruleset, results)
    except CourtsideError:
        return
    for table in standings.pools.values():
        assert sorted(row.rank for row in table.rows) == [row.rank for row in table.rows]
        assert {row.team for row in table.rows} == {t for r in results if r.pool == table.pool for t in r.teams}


def test_the_unmutated_examples_are_read() -> None:
    for name, text in RESULTS.items():
        assert read(text, None), name
    for name, text in POOL_RESULTS.items():
        assert read(text, RULESETS.get(name, RULESETS["indoor-hockey"])), name

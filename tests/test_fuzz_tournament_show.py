"""Fuzzing `courtside tournament show` with each example tournament's results and decisions mutated.

The results and decisions readers and the progression (rules/tournament/progression.py)
must end every input in exit 0 with the tournament's state, or 2 with one clear line;
never a traceback or a hang.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.fuzz_support import DECISIONS, FUZZ, RESULTS, SPORTS, byte_mutation, outcome, value_mutation
from tests.fuzz_support import EXAMPLES as RUNS
from tests.test_fuzz_standings_cli import ROOT, run

EXAMPLES = ROOT / "rules" / "examples"

cases = st.sampled_from(SPORTS).flatmap(
    lambda sport: st.tuples(
        st.just(sport),
        st.one_of(byte_mutation(RESULTS[sport]), value_mutation(RESULTS[sport]).map(str.encode)),
        st.one_of(st.none(), byte_mutation(DECISIONS), value_mutation(DECISIONS).map(str.encode)),
    )
)


@given(cases, st.sampled_from(["text", "json"]))
@settings(FUZZ, max_examples=max(20, RUNS // 3))  # each example builds a whole tournament: a third as many
def test_any_results_end_in_the_state_or_one_clear_error(case: tuple[str, bytes, bytes | None], fmt: str) -> None:
    sport, results, decided = case
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "results.csv"
        path.write_bytes(results)
        argv = ["tournament", "show", str(EXAMPLES / f"{sport}.toml"), "--results", str(path), "--format", fmt]
        if decided is not None:
            (Path(tmp) / "decisions.csv").write_bytes(decided)
            argv += ["--decisions", str(Path(tmp) / "decisions.csv")]
        code, out, err = run(argv)
    assert code in (0, 2), (code, err)
    assert "Traceback" not in err
    outcome(None if code == 0 else ValueError(err))
    assert (code == 0) == bool(out)
    if code == 2:
        assert err.startswith("courtside: ") and err.count("\n") == 1


def test_the_shipped_results_show() -> None:
    for sport in SPORTS:
        code, _, err = run(["tournament", "show", str(EXAMPLES / f"{sport}.toml"),
                              "--results", str(EXAMPLES / f"{sport}-results.csv")])
        assert (code, err) == (0, ""), sport

"""Fuzzing `courtside standings` end to end: any file and any arguments end in exit 0 or a clear 2.

The command is run in-process (courtside.cli.main) on files written from mutated
examples, with arguments drawn from the valid ones and from nonsense. It must exit 0
with tables, or 2 with one "courtside: ..." line naming the problem (argparse's own
usage errors also exit 2); never a traceback, never a hang.
"""

from __future__ import annotations

import contextlib
import io
import tempfile
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from courtside.cli import main
from tests.fuzz_support import (
    DECISIONS,
    FUZZ,
    NASTY_VALUES,
    POOL_RESULTS,
    SPORTS,
    byte_mutation,
    outcome,
    value_mutation,
)

ROOT = Path(__file__).resolve().parent.parent
RULES = [*SPORTS, *(str(ROOT / "docs" / "rulesets" / f"{n}.toml") for n in ("uefa", "iihf")), "nope", "", "/dev/null",
         str(ROOT / "README.md")]


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exit_:  # argparse: --help, or a usage error
            code = exit_.code if isinstance(exit_.code, int) else 2
    return code, out.getvalue(), err.getvalue()


files = st.one_of(
    st.sampled_from(sorted(POOL_RESULTS)).flatmap(lambda name: byte_mutation(POOL_RESULTS[name])),
    st.sampled_from(sorted(POOL_RESULTS)).flatmap(lambda name: value_mutation(POOL_RESULTS[name]).map(str.encode)),
)
decisions = st.one_of(st.none(), byte_mutation(DECISIONS), value_mutation(DECISIONS).map(str.encode))
extras = st.lists(
    st.one_of(st.sampled_from(["--format", "json", "text", "--decisions", "--rules", "--results", "-h", "--x"]),
              st.sampled_from(NASTY_VALUES[:30])),
    max_size=3,
)


@given(st.sampled_from(RULES), files, decisions, extras, st.sampled_from(["text", "json"]))
@FUZZ
def test_any_input_ends_in_tables_or_one_clear_error(
    rules: str, results: bytes, decided: bytes | None, extra: list[str], fmt: str
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "results.csv"
        path.write_bytes(results)
        argv = ["standings", "--rules", rules, "--results", str(path), "--format", fmt]
        if decided is not None:
            (Path(tmp) / "decisions.csv").write_bytes(decided)
            argv += ["--decisions", str(Path(tmp) / "decisions.csv")]
        code, out, err = run([*argv, *extra])
    assert code in (0, 2), (code, err)
    assert "Traceback" not in err
    outcome(None if code == 0 else ValueError(err))
    if code == 2 and err.startswith("courtside: "):
        assert err.count("\n") >= 1
    if code == 0 and not extra:
        assert out


def test_the_examples_run() -> None:
    pools = str(ROOT / "rules" / "examples" / "indoor-hockey-pools.csv")
    code, out, err = run(["standings", "--rules", "indoor-hockey", "--results", pools])
    assert (code, err) == (0, "") and "Pool A (indoor-hockey)" in out


EURO = ROOT / "docs" / "rulesets"
FAIR_PLAY = (EURO / "euro-2024-fair-play.csv").read_text(encoding="utf-8")


@given(st.one_of(byte_mutation(FAIR_PLAY), value_mutation(FAIR_PLAY).map(str.encode)),
       st.sampled_from(["text", "json"]))
@FUZZ
def test_any_fair_play_file_ends_in_tables_or_one_clear_error(fair_play: bytes, fmt: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "fair-play.csv"
        path.write_bytes(fair_play)
        code, out, err = run(["standings", "--rules", str(EURO / "uefa-euro-2024.toml"), "--results",
                              str(EURO / "euro-2024-groups.csv"), "--fair-play", str(path), "--format", fmt])
    assert code in (0, 2), (code, err)
    assert "Traceback" not in err
    outcome(None if code == 0 else ValueError(err))
    assert (code == 0) == bool(out)

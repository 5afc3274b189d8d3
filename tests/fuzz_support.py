"""Shared pieces of the fuzz suites (tests/test_fuzz_*.py): seeds, mutations and the run length.

Every suite starts from the valid files that ship in rules/examples/ and mutates them
at the byte level (flip, insert, delete, duplicate, truncate; a byte-order mark, NUL,
CR) and at the value level (one CSV cell replaced by a value from a list of the
troublesome ones: huge and negative numbers, thousands of digits, control characters,
'>' and empty names, other scripts, very long text).

The normal suite runs a short campaign. A long campaign is the same tests with more
examples:

    COURTSIDE_FUZZ_EXAMPLES=20000 .venv/bin/pytest -q -p no:cacheprovider tests/test_fuzz_*.py

(docs/reliability.md records what the long runs tried and found).
"""

from __future__ import annotations

import csv
import io
import os
from importlib import resources

from hypothesis import HealthCheck, currently_in_test_context, event, settings
from hypothesis import strategies as st

EXAMPLES = int(os.environ.get("COURTSIDE_FUZZ_EXAMPLES", "60"))

FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=2000,  # a "hang": any one input taking two seconds is a failure
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=EXAMPLES <= 100,  # the normal suite's short run is the same every time
    database=None,
)

SPORTS = ("indoor-hockey", "water-polo", "indoor-football", "youth-football", "ice-hockey")


def example(name: str) -> str:
    return resources.files("rules.examples").joinpath(name).read_text(encoding="utf-8")


RESULTS = {sport: example(f"{sport}-results.csv") for sport in SPORTS}


def _pool_rows(sport: str) -> str:
    """The example's results of its pools only: what `courtside standings` takes."""
    from rules.tournament import parse_tournament  # here: only the seeds need a tournament

    pools = {p.name for p in parse_tournament(example(f"{sport}.toml"), sport).pools}
    lines = RESULTS[sport].splitlines(keepends=True)
    return lines[0] + "".join(line for line in lines[1:] if line.split(",", 1)[0] in pools)


POOL_RESULTS = {sport: _pool_rows(sport) for sport in SPORTS}
POOL_RESULTS["indoor-hockey-pools"] = example("indoor-hockey-pools.csv")
RESULTS["indoor-hockey-pools"] = POOL_RESULTS["indoor-hockey-pools"]


def _decisions() -> str:
    """The youth-football decisions with a pool's and a comparison's decision added, all valid."""
    from rules.tournament import parse_tournament, pool_teams

    t = parse_tournament(example("youth-football.toml"), "youth-football.toml")
    entry = pool_teams(t, "youth-football.toml")
    a, b = entry["A"], entry["B"]
    return example("youth-football-decisions.csv") + f"A,lots,{a[0]}>{a[1]}>{a[2]}\nbest 3rd,lots,{a[3]}>{b[3]}\n"


DECISIONS = _decisions()

NASTY_VALUES = [
    "", " ", "0", "-1", "150", "151", "1e3", "0x10", "１", "99999999999999999999", "9" * 5000, "1.5", "nan", "inf",
    "\x00", "A\x00B", "\x1b[31m", "\u0085", "\u202e", "\ufeff", "a>b", ">", ">>", "x" * 101, "x" * 100000,
    "Köln", "Ko\u0308ln", "東京", "🏒", '"', '""', "a,b", "a\nb", "\r", "\t", "shootout", "overtime", "walkover",
    "forfeit", "regular", "Walkover", "lots", "penalty_competition", "A", "B", "SF1", "F",
]


@st.composite
def byte_mutation(draw: st.DrawFn, text: str) -> bytes:
    """``text`` as UTF-8 with a few byte-level changes."""
    data = bytearray(text.encode("utf-8"))
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["flip", "insert", "delete", "duplicate", "truncate", "bom", "special"]))
        at = draw(st.integers(0, max(0, len(data) - 1)))
        if kind == "flip" and data:
            data[at] = draw(st.integers(0, 255))
        elif kind == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=8))
        elif kind == "delete" and data:
            del data[at : at + draw(st.integers(1, 16))]
        elif kind == "duplicate" and data:
            end = min(len(data), at + draw(st.integers(1, 200)))
            data[at:at] = data[at:end] * draw(st.integers(1, 50))
        elif kind == "truncate":
            del data[at:]
        elif kind == "bom":
            data[0:0] = draw(st.sampled_from([b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff"]))
        else:
            data[at:at] = draw(st.sampled_from([b"\x00", b"\r", b"\r\n", b'"', b",", b"\n", b"\xc3", b"\xed\xa0\x80"]))
    return bytes(data)


@st.composite
def value_mutation(draw: st.DrawFn, text: str) -> str:
    """``text`` (CSV) with a few cells replaced by troublesome values, rows dropped or repeated."""
    rows = list(csv.reader(io.StringIO(text)))
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["cell", "cell", "cell", "drop", "repeat", "swap"]))
        r = draw(st.integers(0, len(rows) - 1))
        if kind == "cell" and rows[r]:
            c = draw(st.integers(0, len(rows[r]) - 1))
            rows[r][c] = draw(st.one_of(st.sampled_from(NASTY_VALUES), st.text(max_size=20), st.integers().map(str)))
        elif kind == "drop" and len(rows) > 1:
            del rows[r]
        elif kind == "repeat":
            rows.insert(r, list(rows[r]))
        elif kind == "swap" and len(rows[r]) > 1:
            rows[r][0], rows[r][-1] = rows[r][-1], rows[r][0]
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


_KINDS = (
    "usage: ", "UTF-16", "not UTF-8", "control character", "characters long", "'>'", "no match has more than",
    "whole number", "more cells", "missing column", "unknown column", "appear twice", "not readable as CSV",
    "the file is empty", "lines;", "is empty", "empty team name", "cannot play itself", "already on line",
    "entered more often", "cannot end level", "may end level", "no overtime", "no shoot-out", "golden-goal",
    "cannot end", "shoot-out", "winner", "outcome", "method", "names a team twice", "at least two",
    "already decided", "not a pool or ranking", "is a match", "not a team", "neither a preset", "not in that pool",
    "has no results", "does not play in", "before its teams are known", "carried forward", "ruleset",
)


def outcome(error: Exception | None) -> None:
    """Record what became of an input in hypothesis' statistics (--hypothesis-show-statistics)."""
    if not currently_in_test_context():
        return
    if error is None:
        event("accepted")
        return
    text = str(error)
    event("refused: " + next((kind for kind in _KINDS if kind in text), "other"))

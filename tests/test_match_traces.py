"""Golden traces: recorded logs per sport replayed to the state worked out from the rules."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from courtside.cli import main

TRACES = Path(__file__).parent / "traces"
ALL = sorted(TRACES.glob("*/*.jsonl"))


def _subset(expected: Any, actual: Any, where: str) -> None:
    """Every key given in ``expected`` matches ``actual``; lists match item by item."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{where}: expected an object, got {actual!r}"
        for key, value in expected.items():
            assert key in actual, f"{where}.{key}: missing"
            _subset(value, actual[key], f"{where}.{key}")
    elif isinstance(expected, list):
        assert isinstance(actual, list) and len(actual) == len(expected), f"{where}: {actual!r}"
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            _subset(e, a, f"{where}[{i}]")
    else:
        assert actual == expected, f"{where}: expected {expected!r}, got {actual!r}"


def test_at_least_three_traces_per_sport() -> None:
    per_sport: dict[str, int] = {}
    for path in ALL:
        per_sport[path.parent.name] = per_sport.get(path.parent.name, 0) + 1
    assert set(per_sport) == {"indoor-hockey", "water-polo", "indoor-football", "youth-football", "ice-hockey"}
    assert min(per_sport.values()) >= 3


@pytest.mark.parametrize("trace", ALL, ids=[f"{p.parent.name}/{p.stem}" for p in ALL])
def test_trace(trace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = json.loads(trace.with_suffix(".json").read_text(encoding="utf-8"))
    assert spec["rule"], "each trace names the rule it shows"
    argv = ["replay", "--format", "json", "--rules", spec["rules"], "--events", str(trace),
            "--at", str(spec["at"] / 1000), "--stage", spec.get("stage", "round_robin")]
    if spec.get("round"):
        argv += ["--round", spec["round"]]
    if spec.get("on_field"):
        argv += ["--on-field", str(spec["on_field"])]
    assert main(argv) == 0, capsys.readouterr().err
    _subset(spec["state"], json.loads(capsys.readouterr().out), trace.stem)

"""``courtside demo``: the README's first command shows real standings with reasons."""

from __future__ import annotations

import pytest

from courtside.cli import main


def test_demo_ranks_both_example_pools_with_reasons(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    assert "Pool A (indoor-hockey)" in out and "Pool B (indoor-hockey)" in out
    rows = [line for line in out.splitlines() if line[:3].strip().lstrip("=").isdigit()]
    assert len(rows) == 8
    assert any("ahead on goal difference" in row for row in rows)

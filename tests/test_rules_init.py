"""``rules``: the one place a shell imports from. Every name resolves, means one thing, and costs nothing until used."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

import rules

PACKAGES = ("rules.errors", "rules.ruleset", "rules.match", "rules.standings", "rules.tournament", "rules.words")


def _public(module_name: str) -> dict[str, object]:
    module = importlib.import_module(module_name)
    names = getattr(module, "__all__", [n for n in vars(module) if not n.startswith("_")])
    return {name: getattr(module, name) for name in names}


@pytest.mark.parametrize("name", rules.__all__)
def test_every_exported_name_resolves(name: str) -> None:
    assert getattr(rules, name) is not None


def test_no_name_means_two_things_across_the_packages() -> None:
    # Before the renames, Match, MatchState, Ranking and Team each named two different things.
    seen: dict[str, tuple[str, object]] = {}
    clashes = []
    for package in PACKAGES:
        for name, value in _public(package).items():
            if isinstance(value, type) and name in seen and seen[name][1] is not value:
                clashes.append(f"{name}: {seen[name][0]} and {package}")
            seen.setdefault(name, (package, value))
    assert clashes == []


def test_each_exported_name_is_the_object_of_its_package() -> None:
    for package in PACKAGES:
        for name, value in _public(package).items():
            if name in rules.__all__:
                assert getattr(rules, name) is value, f"rules.{name} is not {package}.{name}"


def test_the_shell_names_are_there() -> None:
    for name in ("load_ruleset", "load_tournament", "Match", "Goal", "MatchState", "rank_pools", "rank_pool",
                 "Fixture", "TeamEntry", "PlacementRanking", "RankingRules", "FixtureProgress", "check_round"):
        assert name in rules.__all__


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'Team'"):
        rules.Team  # noqa: B018  (the old, ambiguous name)


def test_import_rules_loads_no_part_until_a_name_is_used() -> None:
    probe = "import sys, rules; print(sorted(m for m in sys.modules if m.startswith('rules.') or m == 'pydantic'))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
    probe = "import sys; from rules import load_ruleset; print('rules.standings' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_all_lists_exactly_the_lazy_table() -> None:
    assert sorted(rules.__all__) == sorted(rules._MODULE_OF)

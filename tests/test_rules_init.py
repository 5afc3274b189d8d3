"""``rules``: the one place a shell imports from. Every name resolves, means one thing, and costs nothing until used."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

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


SHELLS = ("firmware", "display", "server", "courtside")
ROOT = Path(rules.__file__).resolve().parent.parent


def _shell_imports() -> list[tuple[str, str, str]]:
    """(where, module, name) of every `from rules... import name` in the shells."""
    found = []
    for shell in SHELLS:
        for path in sorted((ROOT / shell).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("rules"):
                    found += [(f"{path.relative_to(ROOT)}:{node.lineno}", node.module or "", a.name)
                              for a in node.names]
    return found


def test_the_api_is_what_the_shells_use_and_they_use_it() -> None:
    imports = _shell_imports()
    used = {name for _, module, name in imports if module == "rules"}
    assert sorted(set(rules.__all__) - used) == [], "exported, but no shell uses it: drop it from rules/__init__"
    assert sorted(used - set(rules.__all__) - {m.split(".")[1] for m in sys.modules if m.startswith("rules.")}) == []
    around = [f"{where}: from {module} import {name}" for where, module, name in imports
              if module != "rules" and name in rules.__all__]
    assert around == [], "import these from rules"


def test_the_type_checkers_list_is_the_lazy_map() -> None:
    tree = ast.parse((ROOT / "rules" / "__init__.py").read_text(encoding="utf-8"))
    checked = next(n for n in tree.body if isinstance(n, ast.If))
    typed = {(n.module, a.name) for n in ast.walk(checked) if isinstance(n, ast.ImportFrom) for a in n.names
             if a.asname == a.name}
    assert typed == {(module, name) for name, module in rules._MODULE_OF.items()}

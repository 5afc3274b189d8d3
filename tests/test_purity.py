"""rules/ is the pure core: it imports without the table's libraries and reads no clock."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

RULES = Path(__file__).resolve().parent.parent / "rules"

# Imports a pure core must not make: the other parts, hardware/network/screen libraries,
# and anything that reads the wall clock or does I/O on its own (a draw uses random.Random(seed), which is pure).
FORBIDDEN_MODULES = {
    "firmware", "display", "server", "courtside",
    "pygame", "paho", "gpiozero", "socket", "subprocess", "threading", "asyncio", "time",
}
FORBIDDEN_CALLS = {"now", "utcnow", "today", "monotonic", "perf_counter", "sleep", "urlopen"}


def test_rules_imports_without_pygame_paho_or_gpiozero() -> None:
    # A meta-path finder that refuses those packages stands in for a machine without them.
    code = (
        "import sys\n"
        "class Refuse:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in {'pygame', 'paho', 'gpiozero'}:\n"
        "            raise ImportError('not installed: ' + name)\n"
        "        return None\n"
        "sys.meta_path.insert(0, Refuse())\n"
        "import pkgutil, importlib, rules\n"
        "for m in pkgutil.walk_packages(rules.__path__, 'rules.'):\n"
        "    importlib.import_module(m.name)\n"
        "print('ok')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def _imports(path: Path) -> Iterator[tuple[int, str]]:
    """Every module ``path`` imports, by line: at the top, inside a function, or by name (import_module)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.lineno, node.module
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr == "import_module" and node.args and isinstance(node.args[0], ast.Constant)):
            yield node.lineno, str(node.args[0].value)


def test_rules_sources_import_nothing_impure_and_read_no_clock() -> None:
    offences: list[str] = []
    for path in sorted(RULES.rglob("*.py")):
        where = path.relative_to(RULES.parent)
        offences += [f"{where}:{line}: imports {name}" for line, name in _imports(path)
                     if name.split(".")[0] in FORBIDDEN_MODULES]
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        offences += [f"{where}:{node.lineno}: calls .{node.func.attr}()" for node in ast.walk(tree)
                     if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                     and node.func.attr in FORBIDDEN_CALLS]
    assert offences == []


# The shells' back edges: each shell imports rules/ and what it drives (the table draws with display/), never
# a shell beside it, and none imports the command line (courtside/), which wires them all together.
BACK_EDGES = {
    "display": {"firmware", "server", "courtside"},
    "server": {"firmware", "display", "courtside"},
    "firmware": {"server", "courtside"},
}


def test_the_shells_import_inward_only() -> None:
    offences = [
        f"{path.relative_to(RULES.parent)}:{line}: imports {name}"
        for shell, forbidden in BACK_EDGES.items()
        for path in sorted((RULES.parent / shell).rglob("*.py"))
        for line, name in _imports(path)
        if name.split(".")[0] in forbidden
    ]
    assert offences == []


def test_the_fitness_check_sees_an_import_inside_a_function_and_by_name(tmp_path: Path) -> None:
    source = tmp_path / "shell.py"
    source.write_text("import importlib\n\ndef f():\n    from server.store import Store\n"
                      "    return importlib.import_module('courtside.cli')\n", encoding="utf-8")
    assert [name for _, name in _imports(source)] == ["importlib", "server.store", "courtside.cli"]


def test_the_table_start_imports_no_validation_library() -> None:
    # pydantic alone cost about 50 ms of every start; the table imports rules.match and the rulesets.
    code = (
        "import sys, rules.match, rules.ruleset, rules.tournament, rules.standings\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in {'pydantic', 'pydantic_core', 'jsonschema'}))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"

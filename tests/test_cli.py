"""The ``courtside`` command itself: cheap start, --version, python -m, and help for every argument."""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections.abc import Iterator

import pytest

from courtside.cli import COMMANDS, build_parser, chosen, main


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, check=False, timeout=60)


def test_help_lists_every_command_without_importing_any() -> None:
    probe = (
        "import sys; from courtside.cli import build_parser\n"
        "try:\n    build_parser(['--help']).parse_args(['--help'])\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith(('courtside.commands.', 'rules.', 'pydantic'))))"
    )
    done = _run("-c", probe)
    assert done.returncode == 0, done.stderr
    listing, _, loaded = done.stdout.rpartition("\n[")
    assert loaded.strip() == "]", f"--help imported [{loaded}"
    listed = {line.split()[0] for line in listing.splitlines() if line.startswith("    ")}
    assert set(COMMANDS) <= listed


def test_a_chosen_command_is_the_only_one_imported() -> None:
    done = _run(
        "-c",
        "import sys; from courtside.cli import build_parser; build_parser(['rules', 'list'])\n"
        "print(sorted(m for m in sys.modules if m.startswith('courtside.commands.')))",
    )
    assert done.stdout.strip() == "['courtside.commands.rules']", done.stderr


def test_the_chosen_command_is_the_first_word_that_is_not_an_option() -> None:
    assert chosen(["--version"]) is None
    assert chosen(["tournament", "show", "x.toml"]) == "tournament"


def test_python_dash_m_courtside_runs_the_same_command() -> None:
    done = _run("-m", "courtside", "rules", "list")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[0] == "indoor-hockey"


def test_version_prints_the_package_version() -> None:
    from importlib.metadata import version

    done = _run("-m", "courtside", "--version")
    assert done.returncode == 0
    assert done.stdout.strip() == f"courtside {version('courtside')}"


def test_an_unknown_command_is_refused_with_the_known_ones(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["rulez"])
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'rulez'" in err and "'rules'" in err


def _arguments(parser: argparse.ArgumentParser, path: str) -> Iterator[tuple[str, argparse.Action]]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _arguments(sub, f"{path} {name}")
        elif not isinstance(action, argparse._HelpAction):
            yield path, action


@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_argument_of_every_command_has_help(name: str) -> None:
    missing = [
        f"{where}: {action.dest}"
        for where, action in _arguments(build_parser([name]), f"courtside {name}")
        if not action.help
    ]
    assert missing == [], "arguments without help (issue 8: each says what it wants)"


@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_file_argument_says_what_kind_of_file(name: str) -> None:
    vague = [
        f"{where}: {action.dest}"
        for where, action in _arguments(build_parser([name]), f"courtside {name}")
        if ("file" in action.dest or "FILE" in str(action.metavar or ""))
        and not any(kind in (action.help or "") for kind in ("TOML", "CSV", "JSON", "log", "file"))
    ]
    assert vague == []

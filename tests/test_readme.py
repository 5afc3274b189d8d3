"""Every `courtside ...` command README.md shows runs exactly as printed and exits 0.

The commands are read from README.md's code blocks (indented four spaces, or fenced
with ```), one per line; a line is a command when its first word is ``courtside`` or
``.venv/bin/courtside``. Each runs in bash from the repository root with
``.venv/bin`` first on PATH, as a newcomer's shell would after the set-up commands.

To keep a block out (a long-running server, a command that needs the Pi's
hardware), put this line, on its own, just before the block:

    <!-- readme-test: skip (why) -->

The same comment at the end of one command line skips that line only. Everything
else must run: when the README changes, this test follows it.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
SKIP = "<!-- readme-test: skip"
_COMMAND = re.compile(r"^(?:\.venv/bin/)?courtside(?:\s|$)")


def _blocks(text: str) -> list[tuple[int, list[tuple[int, str]], bool]]:
    """Code blocks as (first line number, [(line number, text)], skipped)."""
    lines = text.splitlines()
    blocks: list[tuple[int, list[tuple[int, str]], bool]] = []
    i = 0
    previous = ""  # the last non-blank line outside a block
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            start, body = i + 1, []
            i += 1
            while i < len(lines) and not lines[i].startswith("```"):
                body.append((i + 1, lines[i]))
                i += 1
            blocks.append((start, body, previous.strip().startswith(SKIP)))
            previous, i = "", i + 1
            continue
        if line.startswith("    ") and (i == 0 or not lines[i - 1].strip()):
            start, body = i + 1, []
            while i < len(lines) and (lines[i].startswith("    ") or not lines[i].strip()):
                body.append((i + 1, lines[i][4:]))
                i += 1
            blocks.append((start, body, previous.strip().startswith(SKIP)))
            previous = ""
            continue
        if line.strip():
            previous = line
        i += 1
    return blocks


def readme_commands(text: str) -> list[tuple[int, str]]:
    """The commands README.md shows, with their line numbers, skipped ones left out."""
    found: list[tuple[int, str]] = []
    for _, body, skipped in _blocks(text):
        if skipped:
            continue
        for number, line in body:
            command = line.strip()
            if _COMMAND.match(command) and SKIP not in command:
                found.append((number, command))
    return found


COMMANDS = readme_commands(README.read_text(encoding="utf-8"))


def test_the_readme_shows_commands() -> None:
    assert len(COMMANDS) >= 5


@pytest.mark.parametrize(("line", "command"), COMMANDS, ids=[f"README.md:{n}" for n, _ in COMMANDS])
def test_each_readme_command_runs_as_printed(line: int, command: str) -> None:
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{ROOT / '.venv' / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    done = subprocess.run(
        ["bash", "-c", command], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, f"README.md line {line}: {command}\n{done.stderr[-2000:]}"
    assert "Traceback" not in done.stderr


def test_the_extraction_reads_both_kinds_of_block_and_the_skip_marker() -> None:
    text = "\n".join([
        "Intro", "",
        "    courtside rules list              # the presets",
        "    courtside demo  <!-- readme-test: skip (opens a window) -->",
        "",
        "<!-- readme-test: skip (a server) -->",
        "```",
        "courtside server --port 8080",
        "```",
        "```sh",
        ".venv/bin/courtside --version",
        "python3 -m venv .venv",
        "```",
    ])
    assert readme_commands(text) == [(3, "courtside rules list              # the presets"),
                                     (11, ".venv/bin/courtside --version")]

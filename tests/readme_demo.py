"""README.md's main command as a newcomer meets it: a fresh virtual environment made by exactly the README's
install line in a fresh copy of the project, then the README's demo command (``--speed 0 --headless``, so it
plays as fast as the tables go) to its final ranking, stopped with Ctrl-C as the demo then asks.

It fails on a non-zero exit, a traceback, or a line of the README's sample output that the demo did not
print in that order (ports, folders and the desk's password aside). .ci/run runs it; it needs only the
standard library, so it runs before anything is installed. tests/test_demo_autoplay.py compares the sample
with its own run through :func:`sample_mismatch`.

    python3 tests/readme_demo.py
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
SHOWCASE = "the tournament is over: its pages stay up at "
BUDGET_S = 900  # the install and a whole tournament at speed 0
_VARYING = [
    (re.compile(r"127\.0\.0\.1:\d+"), "127.0.0.1:PORT"),
    (re.compile(r"/tmp/courtside-demo-\w+"), "/tmp/courtside-demo-FOLDER"),
    (re.compile(r"password \S+\)"), "password PASSWORD)"),
    (re.compile(r"(\d+ times real time|as fast as the tables go)"), "PACE"),
]


def main_command(readme: str) -> tuple[str, list[str]]:
    """The README's set-up line: its install part (a shell line) and its demo command (argv)."""
    line = next(x.strip() for x in readme.splitlines() if "courtside demo" in x and "pip install" in x)
    install, _, demo = line.rpartition(" && ")
    return install, shlex.split(demo)


def sample_output(readme: str) -> list[str]:
    """The demo's output as the README shows it (the block after its 'what the demo prints' marker)."""
    lines = readme.splitlines()
    start = next(i for i, x in enumerate(lines) if "readme-test: skip (what the demo prints" in x) + 1
    block = []
    for n, x in enumerate(lines[start:], start):
        blank_inside = not x.strip() and n + 1 < len(lines) and lines[n + 1].startswith("    ")
        if not x.startswith("    ") and not blank_inside:
            break
        block.append(x[4:])
    return block


def _plain(line: str) -> str:
    for pattern, token in _VARYING:
        line = pattern.sub(token, line)
    return line.rstrip()


def sample_mismatch(readme: str, out: str) -> str | None:
    """None when every line of the README's sample (but "...") is in ``out`` in order; else the first missing."""
    printed = [_plain(x) for x in out.splitlines()]
    at = 0
    for wanted in sample_output(readme):
        if wanted.strip() == "...":
            continue
        plain = _plain(wanted)
        try:
            at = printed.index(plain, at) + 1
        except ValueError:
            return f"README.md shows {wanted!r}, which the demo did not print (after line {at})"
    return None


def run(workdir: Path) -> str:
    readme = README.read_text(encoding="utf-8")
    install, demo = main_command(readme)
    copy = workdir / "courtside"
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for name in files.decode().split("\0"):
        if name and (ROOT / name).is_file():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, copy / name)
    print(f"readme-demo: {install}", flush=True)
    subprocess.run(["bash", "-c", install], cwd=copy, check=True, timeout=BUDGET_S,
                   stdout=subprocess.DEVNULL)
    argv = [a for a in demo]
    if "--speed" in argv:
        argv[argv.index("--speed") + 1] = "0"
    argv.append("--headless")
    print(f"readme-demo: {' '.join(argv)}", flush=True)
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "VIRTUAL_ENV")}
    process = subprocess.Popen(argv, cwd=copy, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    timer = threading.Timer(BUDGET_S, process.kill)
    timer.start()
    lines = []
    try:
        assert process.stdout is not None
        for line in process.stdout:
            lines.append(line)
            if line.startswith(SHOWCASE):
                process.send_signal(signal.SIGINT)
        err = process.stderr.read() if process.stderr is not None else ""
        status = process.wait(60)
    finally:
        timer.cancel()
    out = "".join(lines)
    if status != 0 or "Traceback" in err:
        raise SystemExit(f"readme-demo: the README's main command failed (status {status}):\n{out[-3000:]}\n"
                         f"{err[-3000:]}")
    mismatch = sample_mismatch(readme, out)
    if mismatch is not None:
        raise SystemExit(f"readme-demo: {mismatch}\nit printed:\n{out}")
    return out


if __name__ == "__main__":
    with tempfile.TemporaryDirectory(prefix="courtside-readme-") as folder:
        printed = run(Path(folder))
    print(printed.rstrip().splitlines()[-1])
    print("readme-demo: the README's install line and main command work as written", flush=True)
    sys.exit(0)

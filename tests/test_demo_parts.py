"""courtside.demo.parts: the demo's child processes stop with their whole group, and say why they died."""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

import pytest

from courtside.demo.parts import Part, Parts, courtside_argv, wait_until
from rules.errors import DemoError

# A child that starts a grandchild and ignores nothing: both must be gone after stop().
PARENT = """
import subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
open(sys.argv[1], "w").write(str(child.pid))
time.sleep(600)
"""

# A child that ignores SIGTERM: stop() must fall back to SIGKILL.
STUBBORN = """
import signal, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
open(sys.argv[1], "w").write("ready")
time.sleep(600)
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is gone for our purposes: it holds no port and runs nothing.
    stat = Path(f"/proc/{pid}/stat")
    return stat.exists() and stat.read_text().split(")")[-1].split()[0] != "Z"


def test_stop_ends_the_child_and_its_grandchild(tmp_path: Path) -> None:
    marker = tmp_path / "pid"
    part = Part("parent", [sys.executable, "-c", PARENT, str(marker)], tmp_path / "parent.log")
    part.start()
    wait_until(marker.exists, 20, "the grandchild started", part)
    wait_until(lambda: marker.read_text() != "", 20, "the pid written", part)
    grandchild = int(marker.read_text())
    assert part.pid is not None and os.getpgid(grandchild) == part.pid  # one group: the child's session
    part.stop()
    assert not part.running()
    wait_until(lambda: not _alive(grandchild), 10, "the grandchild gone")


def test_a_child_that_ignores_sigterm_is_killed(tmp_path: Path) -> None:
    marker = tmp_path / "ready"
    part = Part("stubborn", [sys.executable, "-c", STUBBORN, str(marker)], tmp_path / "s.log")
    part.start()
    wait_until(marker.exists, 20, "ready", part)
    started = time.monotonic()
    part.stop(timeout=1.0)
    assert part.poll() == -signal.SIGKILL
    assert time.monotonic() - started < 10


def test_parts_stop_in_reverse_order_and_a_dead_part_is_reported_with_its_log(tmp_path: Path) -> None:
    parts = Parts()
    sleeper = parts.start(Part("sleeper", [sys.executable, "-c", "import time; time.sleep(600)"], tmp_path / "a.log"))
    broken = parts.start(Part("broken", [sys.executable, "-c", "import sys; print('no database'); sys.exit(3)"],
                              tmp_path / "b.log"))
    with pytest.raises(DemoError, match=r"broken stopped \(status 3\) before it answered:\nno database"):
        wait_until(lambda: False, 30, "it answered", broken)
    assert len(parts) == 2
    parts.stop_all()
    assert len(parts) == 0 and not sleeper.running()


class Unreaped(Part):
    """A part the kernel does not let end after SIGKILL (a write to a stalled disk): what stop() then raises."""

    def stop(self, timeout: float = 10.0) -> None:
        super().stop(timeout)
        raise DemoError(f"{self.name} did not end within 60 s of SIGKILL: is its disk stalled?")


def test_a_part_that_cannot_be_stopped_does_not_keep_the_others_running(tmp_path: Path) -> None:
    """Seen at a loaded Ctrl-C: a table's stop failed and the standings service, started before it, was left
    running after the demo had ended."""
    parts = Parts()
    service = parts.start(Part("the service", [sys.executable, "-c", "import time; time.sleep(600)"],
                               tmp_path / "service.log"))
    parts.start(Unreaped("the table", [sys.executable, "-c", "import time; time.sleep(600)"], tmp_path / "t.log"))
    with pytest.raises(DemoError, match="the table did not end"):
        parts.stop_all()
    assert len(parts) == 0 and not service.running()


def test_courtside_argv_runs_this_courtside(tmp_path: Path) -> None:
    part = Part("rules", courtside_argv("rules", "list"), tmp_path / "rules.log")
    part.start()
    assert part.wait(60) == 0
    part.stop()
    assert "water-polo" in (tmp_path / "rules.log").read_text(encoding="utf-8")

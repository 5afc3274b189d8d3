"""The demo's child processes (the standings service, the referee tables): started in a session
of their own, logged to a file each, and stopped by the demo, never left behind.

Each child gets its own session (process group) so a Ctrl-C in the terminal reaches only the
demo, which then stops the parts in order (tables first, then the service) with SIGTERM, and
SIGKILL for one that does not stop in time. The whole group is signalled, so a grandchild
(uvicorn's worker, a helper) goes too.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO

from rules import DemoError

STOP_TIMEOUT_S = 10.0
KILLED_TIMEOUT_S = 60.0


_MAIN = "import sys; from courtside.cli import main; sys.exit(main(sys.argv[1:]))"


def courtside_argv(*args: str) -> list[str]:
    """The same ``courtside`` this demo runs, in the same Python (the venv's), whatever is on PATH."""
    return [sys.executable, "-c", _MAIN, *args]


class Part:
    """One child process of the demo."""

    def __init__(self, name: str, argv: Sequence[str], log: Path, env: dict[str, str] | None = None,
                 pass_fds: Sequence[int] = ()) -> None:
        self.name = name
        self.pass_fds = tuple(pass_fds)  # sockets the demo bound for it
        self.argv = list(argv)
        self.log = log
        self._env = {**os.environ, **(env or {})}
        self._process: subprocess.Popen[bytes] | None = None
        self._log_file: IO[bytes] | None = None

    def start(self) -> None:
        self.log.parent.mkdir(parents=True, exist_ok=True)
        self._log_file = self.log.open("ab")
        self._process = subprocess.Popen(
            self.argv, stdin=subprocess.DEVNULL, stdout=self._log_file, stderr=subprocess.STDOUT,
            env=self._env, start_new_session=True, pass_fds=self.pass_fds,
        )

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process else None

    def poll(self) -> int | None:
        """The exit status once it has ended, else None."""
        return self._process.poll() if self._process else None

    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def wait(self, timeout: float | None = None) -> int:
        if self._process is None:
            raise DemoError(f"{self.name} was never started")
        return self._process.wait(timeout)

    def tail(self, lines: int = 15) -> str:
        """The end of its log, for an error message that says why it stopped."""
        try:
            text = self.log.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    def stop(self, timeout: float = STOP_TIMEOUT_S) -> None:
        """SIGTERM to its process group, SIGKILL if it is not gone within ``timeout``; idempotent."""
        process = self._process
        if process is not None and process.poll() is None:
            self._signal(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout)
            except subprocess.TimeoutExpired:
                self._signal(process.pid, signal.SIGKILL)
                try:
                    # A killed process ends as soon as the kernel lets it (a write to a busy disk finishing), but
                    # not always within 10 s: a table did not, with two test suites loading the machine
                    # (2026-12-07). It is waited for, as nothing of the demo may outlive it.
                    process.wait(KILLED_TIMEOUT_S)
                except subprocess.TimeoutExpired:
                    raise DemoError(f"{self.name} (pid {process.pid}) did not end within {KILLED_TIMEOUT_S:.0f} s "
                                    "of SIGKILL: is its disk stalled?") from None
        if process is not None:
            # The leader is gone; a straggler of its group (a grandchild) must not outlive the demo.
            self._signal(process.pid, signal.SIGKILL)
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None

    def cut_power(self) -> bool:
        """SIGKILL now, as a power cut would, then start it again with the same arguments (its journal or
        database is where it comes back from); the tournament-day test's faults. False, and nothing done,
        when it had already ended by itself."""
        process = self._process
        if process is None or process.poll() is not None:
            return False
        self._signal(process.pid, signal.SIGKILL)
        if process.wait() != -signal.SIGKILL:
            return False  # it ended by itself just before
        if self._log_file is not None:
            self._log_file.close()
        self.start()
        return True

    @staticmethod
    def _signal(pgid: int, sig: signal.Signals) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pgid, sig)


class Parts:
    """Every part the demo started, stopped in the reverse order of their start."""

    def __init__(self) -> None:
        self._parts: list[Part] = []

    def start(self, part: Part) -> Part:
        part.start()
        self._parts.append(part)
        return part

    def forget(self, part: Part) -> None:
        """A part that ended by itself and was stopped (a table whose script is played)."""
        part.stop()
        if part in self._parts:
            self._parts.remove(part)

    def stop_all(self) -> None:
        """Every part, the last started first; one that cannot be stopped does not keep the others running (the
        first such error is raised once all are tried)."""
        failed: DemoError | None = None
        while self._parts:
            try:
                self._parts.pop().stop()
            except DemoError as err:
                failed = failed or err
        if failed is not None:
            raise failed

    def __len__(self) -> int:
        return len(self._parts)


def wait_until(check: object, timeout: float, what: str, part: Part | None = None, every: float = 0.1) -> None:
    """Poll ``check()`` until it is true; fail with ``what`` (and the part's log) on timeout or if the part died."""
    assert callable(check)
    deadline = time.monotonic() + timeout
    while True:
        if check():
            return
        if part is not None and part.poll() is not None:
            raise DemoError(f"{part.name} stopped (status {part.poll()}) before {what}:\n{part.tail()}")
        if time.monotonic() > deadline:
            log = f":\n{part.tail()}" if part is not None else ""
            raise DemoError(f"{what} did not happen within {timeout:.0f} s{log}")
        time.sleep(every)

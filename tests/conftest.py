"""Real components for the tests: a Mosquitto broker per test, SQLite and PostgreSQL databases, SDL dummy.

Fixtures (anyone may add one; keep each small):

- ``mosquitto``: a factory. ``broker = mosquitto()`` starts ``/usr/sbin/mosquitto -c CONF`` on a
  free port with a plain configuration (anonymous, no persistence); ``mosquitto(conf=TEXT)`` uses
  your configuration, where ``{port}``, ``{tls_port}`` and ``{dir}`` (a temporary folder for the
  broker's files) are filled in. ``broker.url`` is ``mqtt://127.0.0.1:PORT``; ``broker.stop()``,
  ``broker.start()`` (same port) and ``broker.restart()`` work mid-test; every broker is stopped by
  its pid at the end of the test.
- ``db_url``: parametrised over ``sqlite`` (a file in tmp_path) and ``postgresql`` (a freshly
  created database on 127.0.0.1:5432, dropped afterwards; skipped only if PostgreSQL is unreachable).
- ``pg_url``: the PostgreSQL case alone (tests that need several processes on one database).
- ``free_port``: a TCP port nothing listens on right now.

pygame tests: SDL's dummy video and audio drivers are set here, before anything imports pygame.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.ports import free_port as pick_free_port

if TYPE_CHECKING:
    from server.store import Store

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
PG_ADMIN = "host=127.0.0.1 port=5432 user=postgres dbname=test connect_timeout=3"

PLAIN_CONF = """\
listener {port} 127.0.0.1
allow_anonymous true
persistence false
max_queued_messages 100000
log_dest stderr
log_type error
log_type warning
"""


def _listening(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.settimeout(0.2)
        return s.connect_ex(("127.0.0.1", port)) == 0


class Broker:
    """One Mosquitto process on fixed ports (kept across stop/start so clients can reconnect)."""

    def __init__(self, conf: str, workdir: Path) -> None:
        self.port = pick_free_port()
        self.tls_port = pick_free_port()
        self.dir = workdir
        self.conf_path = workdir / "mosquitto.conf"
        text = conf.format(port=self.port, tls_port=self.tls_port, dir=workdir)
        if os.geteuid() == 0:  # as root mosquitto drops to its own user, who cannot read the test's files
            text += "\nuser root\n"
        self.conf_path.write_text(text)
        self.log_path = workdir / "mosquitto.log"
        self.process: subprocess.Popen[bytes] | None = None
        self.host = "127.0.0.1"

    @property
    def url(self) -> str:
        return f"mqtt://{self.host}:{self.port}"

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    def start(self, timeout: float = 10.0) -> None:
        assert self.process is None, "broker already running"
        log = self.log_path.open("ab")
        self.process = subprocess.Popen([MOSQUITTO, "-c", str(self.conf_path)], stdout=log, stderr=log)
        log.close()
        deadline = time.monotonic() + timeout
        while not _listening(self.port):
            if self.process.poll() is not None:
                self.process = None
                raise RuntimeError(f"mosquitto exited at start: {self.log_path.read_text(errors='replace')}")
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("mosquitto did not listen in time")
            time.sleep(0.02)

    def stop(self) -> None:
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait()
        self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()


@pytest.fixture
def mosquitto(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[..., Broker]]:
    if not os.path.exists(MOSQUITTO):
        pytest.skip("mosquitto is not installed (.ci/run installs it)")
    started: list[Broker] = []

    def start(conf: str = PLAIN_CONF, *, run: bool = True) -> Broker:
        broker = Broker(conf, tmp_path_factory.mktemp("mosquitto"))
        started.append(broker)
        if run:
            broker.start()
        return broker

    yield start
    for broker in started:
        broker.stop()


@pytest.fixture
def free_port() -> int:
    return pick_free_port()


def _pg_admin() -> object | None:
    try:
        import psycopg
    except ImportError:
        return None
    try:
        return psycopg.connect(PG_ADMIN, autocommit=True)
    except psycopg.OperationalError:
        return None


@contextlib.contextmanager
def _postgres_database() -> Iterator[str]:
    admin = _pg_admin()
    if admin is None:
        pytest.skip("PostgreSQL is not reachable on 127.0.0.1:5432")
    name = f"courtside_{uuid.uuid4().hex[:12]}"
    with admin:  # type: ignore[attr-defined]
        admin.execute(f'CREATE DATABASE "{name}"')  # type: ignore[attr-defined]
        try:
            yield f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')  # type: ignore[attr-defined]


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'courtside.db'}"
        return
    with _postgres_database() as url:
        yield url


@pytest.fixture
def pg_url() -> Iterator[str]:
    with _postgres_database() as url:
        yield url


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    """The service's store of the indoor-hockey example on each database (a module may define its own)."""
    from server.plan import load_plan
    from server.store import Store as Opened  # the name above is the type, for the checkers only

    opened = Opened.open(db_url, load_plan(Path(__file__).resolve().parent.parent / "rules" / "examples"
                                          / "indoor-hockey.toml"))
    yield opened
    opened.close()


CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]


@pytest.fixture(scope="module")
def chromium() -> Iterator[object]:
    """Debian's Chromium driven by Playwright (no browser download); one per test module."""
    playwright = pytest.importorskip("playwright.sync_api")
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Long campaigns (marked slow) run only when asked for: ``pytest -m slow``."""
    if "slow" in (config.getoption("-m") or ""):
        return
    skip = pytest.mark.skip(reason="a long campaign: run it with -m slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def table_runtime_directory(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test's tables (and the ones its subprocesses start) keep their RAM heartbeat in a folder of
    their own, not in /dev/shm/courtside-<uid>/, where killed tables would leave them behind."""
    monkeypatch.setenv("RUNTIME_DIRECTORY", str(tmp_path_factory.mktemp("runtime")))

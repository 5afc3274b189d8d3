"""``courtside demo``: a whole venue on one machine, as on a real tournament day.

An MQTT broker (embedded amqtt unless ``--broker`` names one), the standings service with its
web pages (``courtside server``, SQLite in a temporary folder) and one referee table per court
(``courtside table``, mock pins), all talking through the broker. The parts are the product's
own commands run as child processes, so the demo shows exactly what a venue runs, and stopping
a child process stops everything it started.

Without ``--autoplay`` the tables wait for the keyboard (court 1's window) until Ctrl-C; with
it, :mod:`courtside.demo.autoplay` plays the tournament through press scripts.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import struct
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date, timedelta
from importlib import resources
from pathlib import Path
from types import FrameType
from typing import TextIO

from courtside.demo.broker import EmbeddedBroker
from courtside.demo.calendar import first_day, moved_to
from courtside.demo.organiser import create_desk_account
from courtside.demo.parts import Part, Parts, courtside_argv, wait_until
from courtside.demo.progress import ServiceApi
from rules import PRESETS, DemoError, parse_cup, read_text

SEED_TOURNAMENTS = PRESETS  # rules/examples/NAME.toml: one tournament per preset
SERVICE_START_TIMEOUT_S = 90.0


@dataclass
class DemoOptions:
    tournament: str = "indoor-hockey"
    broker: str | None = None
    headless: bool = False
    autoplay: bool = False
    speed: float = 1.0
    seed: int = 1
    http_port: int | None = None
    lan: bool = False  # the pages listen on every address: phones on the venue's network open them (plain HTTP)
    keep: Path | None = None  # keep the working folder (database, journals, logs, results.csv) here
    db_url: str | None = None  # the service's database (default: SQLite in the working folder)
    server_args: tuple[str, ...] = ()  # more of `courtside server`'s options (--trusted-lan, ...)
    out: TextIO = field(default_factory=lambda: sys.stdout)


def tournament_file(name_or_path: str) -> Path:
    """A seed tournament by name (rules/examples/NAME.toml), or a tournament file."""
    path = Path(name_or_path)
    if path.is_file():
        return path
    if name_or_path in SEED_TOURNAMENTS:
        return Path(str(resources.files("rules.examples").joinpath(f"{name_or_path}.toml")))
    raise DemoError(
        f"--tournament {name_or_path}: neither a file nor a seed tournament ({', '.join(SEED_TOURNAMENTS)})"
    )


def has_screen() -> bool:
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


class Stopped(Exception):
    """Ctrl-C or SIGTERM: stop every part and leave."""


@contextmanager
def stop_on_signals() -> Iterator[None]:
    """SIGINT and SIGTERM raise :class:`Stopped` in the main thread, once, so one path stops everything."""

    raised = False

    def handler(signum: int, frame: FrameType | None) -> None:
        nonlocal raised
        if raised:
            return  # a second Ctrl-C must not interrupt the stopping of the parts
        raised = True
        raise Stopped(signal.Signals(signum).name)

    previous = {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


def listening_socket(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host:port`` (0: a free port the OS picks) and listening."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(2048)
    except OSError as err:
        sock.close()
        raise DemoError(f"--http-port {port}: the demo's pages cannot be served on {host}:{port} ({err.strerror}); "
                        "give another port or leave it out for a free one") from err
    sock.set_inheritable(True)
    return sock


class Venue:
    """The running demo: its folder, broker, service and tables."""

    def __init__(self, options: DemoOptions) -> None:
        self.options = options
        original = tournament_file(options.tournament)
        text = read_text(str(original))
        parse_cup(text, str(original))  # a bad file is refused here, naming it, before anything starts
        self.parts = Parts()
        self.broker: EmbeddedBroker | None = None
        self.workdir = Path(tempfile.mkdtemp(prefix="courtside-demo-"))
        # The service and the tables read one copy, moved to begin tomorrow (courtside.demo.calendar).
        self.file = self.workdir / original.name
        self.first_day = first_day(text)  # as the file has it
        self.played_on = date.today() + timedelta(days=1)
        self.file.write_text(moved_to(text, self.played_on, original), encoding="utf-8")
        # Bound here and handed to the service: a port only chosen here could be taken by another program
        # before the service binds it, and the demo's pages would then be someone else's.
        self.http_socket = listening_socket("0.0.0.0" if options.lan else "127.0.0.1", options.http_port or 0)
        self.http_port: int = self.http_socket.getsockname()[1]
        self.web = f"http://127.0.0.1:{self.http_port}/"
        self.api = ServiceApi(self.web)
        self.broker_url = options.broker or ""
        self.db_url = options.db_url or f"sqlite:///{self.workdir / 'courtside.db'}"
        self.show_window = False  # court 1's scoreboard in a window (a screen, and not --headless)
        self.desk_password = ""  # the organiser's, made when the service is up
        self.service: Part | None = None

    def moved(self) -> str:
        """Which day the demo plays the tournament on, in words (its dates are moved, courtside.demo.calendar)."""
        if self.first_day is None or self.first_day == self.played_on:
            return f"the tournament is played from {self.played_on:%A %d %B %Y}"
        return (f"the tournament's first day ({self.first_day.isoformat()} in its file) is played tomorrow, "
                f"{self.played_on:%A %d %B %Y}: every date in it moved by {(self.played_on - self.first_day).days} "
                "days, so the schedule lies ahead")

    def say(self, text: str) -> None:
        self.options.out.write(text + "\n")
        self.options.out.flush()

    def start(self) -> None:
        """Broker, then the service; returns once the service answers on its web address."""
        if not self.options.broker:
            self.broker = EmbeddedBroker()
            self.broker.start()
            self.broker_url = self.broker.url
        host = "0.0.0.0" if self.options.lan else "127.0.0.1"
        argv = courtside_argv("server", "--tournament", str(self.file), "--broker", self.broker_url, "--db",
                              self.db_url, "--http", f"{host}:{self.http_port}",
                              "--http-fd", str(self.http_socket.fileno()))
        argv += list(self.options.server_args)
        if self.options.lan and "--trusted-lan" not in argv:
            argv.append("--trusted-lan")  # no TLS on a club's own network: the desk's session cookie is not Secure
        if self.broker is not None:
            argv += ["--group", ""]  # amqtt has no shared subscriptions ($share/...); one service needs none
        service = self.service = self.parts.start(Part(
            "the standings service", argv,
            self.workdir / "logs" / "service.log", pass_fds=(self.http_socket.fileno(),),
        ))
        # Kept open here as well: a service started again (a power cut in the tournament-day test) is handed the
        # same socket, and a phone connecting meanwhile waits in its queue instead of being refused.
        wait_until(self.api.ready, SERVICE_START_TIMEOUT_S, "the standings service answered on " + self.web, service)
        self.desk_password = create_desk_account(self.db_url)

    def lan_addresses(self) -> list[str]:
        """The pages' addresses for phones on the venue's network: this machine's own IPv4 addresses (read from
        its network interfaces, nothing sent), then its name."""
        names = [*interface_addresses(), socket.gethostname()]
        return [f"http://{name}:{self.http_port}/" for name in names]

    def table(self, court: str, rules: str | None, *, script: Path | None = None, window: bool = False) -> Part:
        """One referee table (mock pins) for ``court``, its journal kept across its matches; ``rules`` None: each
        match by its class's ruleset, as the tournament file says (a cup's court plays several classes)."""
        argv = courtside_argv(
            "table", *(("--rules", rules) if rules else ()), "--court", court, "--tournament", str(self.file),
            "--pins", "mock",
            "--journal", str(self.workdir / "journal" / _safe(court)), "--broker", self.broker_url,
        )
        if script is not None:
            argv += ["--script", str(script), "--speed", f"{self.options.speed:g}"]
        if not window:
            argv.append("--headless")
        # One laptop, one window: court 1's official reads the compact line at the foot of its scoreboard (and
        # F11's keys); the simulated officials need no view of their own.
        argv += ["--buttons", str(self._button_map("line" if window else "none"))]
        name = f"the table of {court}"
        return self.parts.start(Part(name, argv, self.workdir / "logs" / f"table-{_safe(court)}.log"))

    def _button_map(self, form: str) -> Path:
        """The shipped button map, the official's view shown as ``form`` (firmware/buttons.toml, [operator])."""
        from firmware.buttonmap import default_text

        path = self.workdir / f"buttons-{form}.toml"
        if not path.exists():
            path.write_text(default_text().replace('view = "web"', f'view = "{form}"'), encoding="utf-8")
        return path

    def follower(self, court: str, size: str = "1280x720") -> Part:
        """A screen-only node drawing ``court`` from the broker in a window: it stays open while the
        autoplay's tables come and go between matches."""
        argv = courtside_argv("display", "follow", "--court", court, "--broker", self.broker_url,
                              "--tournament", str(self.file), "--size", size)
        return self.parts.start(Part(f"the scoreboard of {court}", argv, self.workdir / "logs" / "scoreboard.log"))

    def stop(self) -> None:
        """Every part, tables first, then the service, then the broker; the folder unless kept."""
        try:
            self.parts.stop_all()
        finally:
            self.http_socket.close()
            self.api.close()
            if self.broker is not None:
                self.broker.stop()
                self.broker = None
            if self.options.keep is not None:
                self.options.keep.mkdir(parents=True, exist_ok=True)
                shutil.copytree(self.workdir, self.options.keep, dirs_exist_ok=True)
            shutil.rmtree(self.workdir, ignore_errors=True)


def interface_addresses() -> list[str]:
    """This machine's IPv4 addresses but loopback, as its interfaces hold them (Linux: SIOCGIFADDR; elsewhere
    none, and the demo prints the machine's name alone)."""
    try:
        import fcntl
    except ImportError:
        return []
    found = []
    for _, name in socket.if_nameindex():
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe, contextlib.suppress(OSError):
            packed = fcntl.ioctl(probe.fileno(), 0x8915, struct.pack("256s", name.encode()[:15]))  # SIOCGIFADDR
            address = socket.inet_ntoa(packed[20:24])
            if not address.startswith("127."):
                found.append(address)
    return found


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in name.lower()).strip("-") or "court"

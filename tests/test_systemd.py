"""systemd/: every unit passes ``systemd-analyze verify`` and install.sh sets up a table, a screen-only
node and a server below a temporary prefix, the same way twice."""

from __future__ import annotations

import configparser
import hashlib
import os
import re
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SYSTEMD = REPO / "systemd"
UNITS = sorted(p.name for p in SYSTEMD.glob("*.service"))
INSTALL = SYSTEMD / "install.sh"
TOURNAMENT = REPO / "rules" / "examples" / "indoor-hockey.toml"

needs_analyze = pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze not installed")


def _unit(name: str) -> dict[str, list[str]]:
    """The [Service]/[Unit]/[Install] keys of a unit, each with all its values (keys repeat)."""
    values: dict[str, list[str]] = {}
    text = re.sub(r"\s*\\\n\s*", " ", (SYSTEMD / name).read_text(encoding="utf-8"))
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith(("#", "[")):
            key, _, value = line.partition("=")
            values.setdefault(key, []).append(value)
    return values


@pytest.fixture(scope="module")
def verify_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A root where the units' referenced paths exist: the venv's courtside and the state directory.

    verify refuses an ExecStart whose binary is missing, and --root needs the system's own units
    (sysinit.target and friends) inside that root too.
    """
    root = tmp_path_factory.mktemp("root")
    exe = root / "opt/courtside/venv/bin/courtside"
    exe.parent.mkdir(parents=True)
    exe.write_text("#!/bin/sh\n", encoding="utf-8")
    exe.chmod(0o755)
    (root / "var/lib/courtside").mkdir(parents=True)
    for role in ("table", "server", "display"):
        (root / f"var/lib/courtside/{role}.env").write_text("", encoding="utf-8")
    (root / "usr/lib/systemd").mkdir(parents=True)
    shutil.copytree("/usr/lib/systemd/system", root / "usr/lib/systemd/system", symlinks=True)
    (root / "etc/systemd/system").mkdir(parents=True)
    for name in UNITS:
        shutil.copy(SYSTEMD / name, root / "etc/systemd/system" / name)
    return root


def test_the_three_units_ship() -> None:
    assert UNITS == ["courtside-display.service", "courtside-server.service", "courtside-table.service"]


@needs_analyze
@pytest.mark.parametrize("name", UNITS)
def test_unit_passes_systemd_analyze_verify_without_a_warning(verify_root: Path, name: str) -> None:
    done = subprocess.run(
        ["systemd-analyze", "verify", f"--root={verify_root}", f"/etc/systemd/system/{name}"],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert done.returncode == 0, done.stderr
    # Unknown keys and bad values are only warnings for verify: none may appear.
    assert done.stderr.strip() == "", done.stderr


@needs_analyze
def test_verify_fails_when_the_program_is_missing(verify_root: Path, tmp_path: Path) -> None:
    """The check above is real: the same unit without its binary is refused."""
    root = tmp_path / "root"
    shutil.copytree(verify_root, root, symlinks=True)
    (root / "opt/courtside/venv/bin/courtside").unlink()
    done = subprocess.run(
        ["systemd-analyze", "verify", f"--root={root}", "/etc/systemd/system/courtside-table.service"],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert done.returncode != 0
    assert "/opt/courtside/venv/bin/courtside" in done.stderr


def test_table_unit_is_a_watched_console_appliance_that_reaches_gpio_and_the_screen() -> None:
    unit = _unit("courtside-table.service")
    assert unit["Type"] == ["notify"] and unit["Restart"] == ["always"]
    assert unit["WatchdogSec"] and unit["User"] == ["courtside"]
    assert set(unit["SupplementaryGroups"][0].split()) >= {"gpio", "video", "input", "audio"}
    assert unit["TTYPath"] == ["/dev/tty1"] and "getty@tty1.service" in unit["Conflicts"][0]
    allowed = " ".join(unit["DeviceAllow"])
    for device in ("char-gpiochip", "/dev/gpiomem", "char-drm", "char-input", "/dev/tty1"):
        assert device in allowed
    assert unit["DevicePolicy"] == ["closed"] and "PrivateDevices" not in unit
    assert unit["NoNewPrivileges"] == ["yes"] and unit["ProtectSystem"] == ["strict"]
    assert unit["StateDirectory"] == ["courtside"]
    assert "--pins native" in unit["ExecStart"][0] and "/var/lib/courtside/journal" in unit["ExecStart"][0]


def test_server_unit_is_notify_with_watchdog_and_no_devices() -> None:
    unit = _unit("courtside-server.service")
    assert unit["Type"] == ["notify"] and unit["Restart"] == ["always"] and unit["WatchdogSec"]
    assert unit["PrivateDevices"] == ["yes"]
    assert "--db ${COURTSIDE_DB}" in unit["ExecStart"][0]


def test_display_unit_follows_one_court() -> None:
    unit = _unit("courtside-display.service")
    assert "display follow --court ${COURTSIDE_COURT}" in unit["ExecStart"][0]
    assert "--tournament ${COURTSIDE_TOURNAMENT}" in unit["ExecStart"][0]
    assert unit["Restart"] == ["always"] and "gpio" not in unit["SupplementaryGroups"][0]


def _install(prefix: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(INSTALL), "--prefix", str(prefix), "--no-apt", "--no-venv", *args],
        capture_output=True, text=True, timeout=120, check=False, env={**os.environ, **(env or {})},
    )


def _tree(prefix: Path) -> dict[str, str]:
    """Every file and link below the prefix with its content hash and mode (the source copy left out)."""
    out: dict[str, str] = {}
    for path in sorted(prefix.rglob("*")):
        rel = path.relative_to(prefix).as_posix()
        if rel.startswith("opt/courtside/src/"):
            continue
        if path.is_symlink():
            out[rel] = "-> " + os.readlink(path)
        elif path.is_file():
            out[rel] = f"{stat.S_IMODE(path.stat().st_mode):o} " + hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def _env(path: Path) -> dict[str, str]:
    parser = configparser.ConfigParser(delimiters=("=",), interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string("[env]\n" + path.read_text(encoding="utf-8"))
    return dict(parser["env"])


def test_install_table_below_a_prefix_twice_gives_the_same_tree(tmp_path: Path) -> None:
    prefix = tmp_path / "pi"
    password = tmp_path / "pw"
    password.write_text("s3cret/:@x\n", encoding="utf-8")
    buttons = tmp_path / "buttons.toml"
    buttons.write_text("# the venue's map\n", encoding="utf-8")
    args = ("--role", "table", "--court", "Hall 1", "--tournament", str(TOURNAMENT), "--buttons", str(buttons),
            "--broker", "mqtts://central.example:8883", "--broker-user", "table-hall-1",
            "--broker-password-file", str(password))
    first = _install(prefix, *args)
    assert first.returncode == 0, first.stderr
    state = prefix / "var/lib/courtside"
    assert _env(state / "table.env") == {
        "COURTSIDE_COURT": "Hall 1", "COURTSIDE_RULES": "indoor-hockey",
        "COURTSIDE_TOURNAMENT_ARGS": "--tournament /var/lib/courtside/tournament.toml",
        "COURTSIDE_BROKER": "mqtts://central.example:8883",
    }
    assert (state / "tournament.toml").read_bytes() == TOURNAMENT.read_bytes()
    assert (state / "buttons.toml").read_text(encoding="utf-8") == "# the venue's map\n"
    assert (state / "journal").is_dir()
    creds = state / "mqtt.env"
    assert stat.S_IMODE(creds.stat().st_mode) == 0o600
    # The account rides in the broker URL (the programs' --broker), percent-encoded, root-only.
    assert _env(creds) == {"COURTSIDE_BROKER": "mqtts://table-hall-1:s3cret%2F%3A%40x@central.example:8883"}
    unit = prefix / "etc/systemd/system/courtside-table.service"
    assert unit.read_bytes() == (SYSTEMD / "courtside-table.service").read_bytes()
    wants = prefix / "etc/systemd/system/multi-user.target.wants/courtside-table.service"
    assert wants.is_symlink() and os.readlink(wants) == "/etc/systemd/system/courtside-table.service"
    assert (prefix / "opt/courtside/src/pyproject.toml").is_file()
    before = _tree(prefix)

    # Run again with only the role: settings, credentials and the operator's map are kept.
    (state / "buttons.toml").write_text("# edited at the venue\n", encoding="utf-8")
    before["var/lib/courtside/buttons.toml"] = _tree(prefix)["var/lib/courtside/buttons.toml"]
    second = _install(prefix, "--role", "table")
    assert second.returncode == 0, second.stderr
    assert _tree(prefix) == before
    assert "wrote" not in second.stdout


def test_without_a_map_the_table_gets_the_shipped_default(tmp_path: Path) -> None:
    prefix = tmp_path / "pi"
    done = _install(prefix, "--role", "table", "--court", "2", "--rules", "ice-hockey")
    assert done.returncode == 0, done.stderr
    shipped = (REPO / "firmware" / "buttons.toml").read_bytes()
    assert (prefix / "var/lib/courtside/buttons.toml").read_bytes() == shipped
    env = _env(prefix / "var/lib/courtside/table.env")
    assert env["COURTSIDE_RULES"] == "ice-hockey" and env["COURTSIDE_TOURNAMENT_ARGS"] == ""  # friendly matches


def test_install_server_with_destdir_and_sqlite_default(tmp_path: Path) -> None:
    prefix = tmp_path / "srv"
    done = subprocess.run(
        ["bash", str(INSTALL), "--role", "server", "--tournament", str(TOURNAMENT), "--no-apt", "--no-venv"],
        capture_output=True, text=True, timeout=120, check=False, env={**os.environ, "DESTDIR": str(prefix)},
    )
    assert done.returncode == 0, done.stderr
    env = _env(prefix / "var/lib/courtside/server.env")
    assert env["COURTSIDE_DB"] == "sqlite:////var/lib/courtside/courtside.db"
    # Behind the shipped Caddy: the service on loopback, believing the front's forwarded addresses only.
    assert env["COURTSIDE_HTTP"] == "127.0.0.1:8080"
    assert env["COURTSIDE_SERVER_ARGS"] == "--trusted-proxy 127.0.0.1"
    assert (prefix / "etc/systemd/system/multi-user.target.wants/courtside-server.service").is_symlink()
    assert (prefix / "etc/caddy/Caddyfile").read_text() == (SYSTEMD / "Caddyfile").read_text()
    front = _env(prefix / "etc/default/caddy-courtside")
    assert front == {"COURTSIDE_SITE": "courtside.local", "COURTSIDE_TLS": "internal",
                     "COURTSIDE_UPSTREAM": "127.0.0.1:8080"}
    assert "EnvironmentFile=/etc/default/caddy-courtside" in (
        prefix / "etc/systemd/system/caddy.service.d/courtside.conf").read_text()
    assert (prefix / "etc/mosquitto/conf.d/courtside.conf").exists()
    assert (prefix / "etc/mosquitto/courtside/acl").stat().st_mode & 0o077 == 0


def test_install_server_with_a_public_name_a_broker_account_and_then_a_trusted_lan(tmp_path: Path) -> None:
    prefix = tmp_path / "srv"
    secret = tmp_path / "pw"
    secret.write_text("the service's broker password\n")
    base = ["--role", "server", "--tournament", str(TOURNAMENT), "--no-apt", "--no-venv"]
    done = _install(prefix, *base, "--site", "scores.example.org", "--tls", "desk@example.org",
                    "--broker-user", "courtside-server", "--broker-password-file", str(secret))
    assert done.returncode == 0, done.stderr
    env = _env(prefix / "var/lib/courtside/server.env")
    assert env["COURTSIDE_SERVER_ARGS"] == "--trusted-proxy 127.0.0.1 --broker-user courtside-server"
    assert "password" not in (prefix / "var/lib/courtside/server.env").read_text().lower().replace(
        "no password here", "")
    stored = prefix / "etc/courtside/broker-password"
    assert stored.read_text() == "the service's broker password\n" and stored.stat().st_mode & 0o077 == 0
    dropin = (prefix / "etc/systemd/system/courtside-server.service.d/broker.conf").read_text()
    assert "LoadCredential=broker-password:/etc/courtside/broker-password" in dropin
    assert not (prefix / "var/lib/courtside/mqtt.env").exists()
    assert _env(prefix / "etc/default/caddy-courtside")["COURTSIDE_SITE"] == "scores.example.org"
    # Again, on a trusted LAN: no front, the desk over plain HTTP, the broker account kept.
    again = _install(prefix, *base, "--trusted-lan")
    assert again.returncode == 0, again.stderr
    assert "WARNING: --trusted-lan" in again.stdout
    env = _env(prefix / "var/lib/courtside/server.env")
    assert env["COURTSIDE_HTTP"] == "0.0.0.0:8080"
    assert env["COURTSIDE_SERVER_ARGS"] == "--trusted-lan --broker-user courtside-server"


def test_dry_run_changes_nothing(tmp_path: Path) -> None:
    prefix = tmp_path / "dry"
    done = _install(prefix, "--role", "display", "--court", "Pool 1", "--tournament", str(TOURNAMENT), "--dry-run")
    assert done.returncode == 0, done.stderr
    assert "would write:" in done.stdout and "would run: systemctl" in done.stdout
    assert not prefix.exists()


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (("--role", "scoreboard"), "--role must be"),
        (("--role", "table"), "--court is required"),
        (("--role", "server"), "--tournament is required"),
        (("--role", "display", "--court", "1"), "--tournament is required for a screen-only node"),
        (("--role", "table", "--court", "1", "--tournament", "/nonexistent.toml"), "no such file"),
        (("--role", "table", "--bogus"), "unknown option: --bogus"),
    ],
)
def test_bad_arguments_are_refused_with_the_reason_before_anything_is_written(
    tmp_path: Path, args: tuple[str, ...], reason: str
) -> None:
    prefix = tmp_path / "bad"
    done = _install(prefix, *args)
    assert done.returncode == 2
    assert reason in done.stderr
    assert not (prefix / "etc").exists()


def test_apt_below_a_prefix_is_refused(tmp_path: Path) -> None:
    done = subprocess.run(
        ["bash", str(INSTALL), "--role", "display", "--court", "1", "--prefix", str(tmp_path / "x")],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert done.returncode == 2 and "--no-apt" in done.stderr


def test_table_unit_waits_for_neither_network_nor_time() -> None:
    """The scoreboard comes up before the venue's Wi-Fi or network time does (hardware.md, "Boot straight to the
    scoreboard"): ordering after network-online.target waited up to NetworkManager's minute."""
    unit = _unit("courtside-table.service")
    ordered = " ".join(unit.get("After", []) + unit.get("Wants", []) + unit.get("Requires", []))
    assert "network-online.target" not in ordered and "time-sync.target" not in ordered
    assert "getty@tty1.service" in ordered and unit["WantedBy"] == ["multi-user.target"]


def test_install_table_sets_the_watchdog_and_the_boot_to_the_console(tmp_path: Path) -> None:
    prefix = tmp_path / "pi"
    done = _install(prefix, "--role", "table", "--court", "1", "--rules", "indoor-hockey")
    assert done.returncode == 0, done.stderr
    conf = configparser.ConfigParser()
    conf.read(prefix / "etc/systemd/system.conf.d/courtside-watchdog.conf")
    manager = dict(conf["Manager"])
    assert manager == {"runtimewatchdogsec": "15s", "rebootwatchdogsec": "2min"}
    if shutil.which("systemd-analyze"):  # each value a timespan systemd reads
        for value in manager.values():
            subprocess.run(["systemd-analyze", "timespan", value], capture_output=True, check=True, timeout=30)
    default = prefix / "etc/systemd/system/default.target"
    assert default.is_symlink() and os.readlink(default).endswith("/multi-user.target")
    server = _install(tmp_path / "srv", "--role", "server", "--tournament", str(TOURNAMENT))
    assert server.returncode == 0, server.stderr
    assert not (tmp_path / "srv/etc/systemd/system.conf.d").exists()  # the Pi's own settings: the table's only


def test_read_only_root_is_refused_below_a_prefix_and_without_a_data_partition(tmp_path: Path) -> None:
    below = _install(tmp_path / "pi", "--role", "table", "--court", "1", "--rules", "indoor-hockey",
                     "--read-only-root")
    assert below.returncode == 2 and "not below a prefix" in below.stderr
    on_this_machine = subprocess.run(
        ["bash", str(INSTALL), "--role", "table", "--court", "1", "--rules", "indoor-hockey", "--read-only-root",
         "--no-apt", "--no-venv", "--dry-run"], capture_output=True, text=True, timeout=120, check=False)
    probe = subprocess.run(["findmnt", "-n", "-o", "TARGET", "--target", "/var/lib/courtside"],
                           capture_output=True, text=True, check=False)
    if probe.stdout.strip() == "/var/lib/courtside":
        pytest.skip("this machine has /var/lib/courtside as a partition of its own")
    assert on_this_machine.returncode == 2
    assert "/var/lib/courtside is not its own partition" in on_this_machine.stderr
    assert "a power cut would lose the journal" in on_this_machine.stderr


def test_install_says_where_python3_lgpio_comes_from_when_debian_lacks_it() -> None:
    policy = subprocess.run(["apt-cache", "policy", "python3-lgpio"], capture_output=True, text=True, check=False)
    if shutil.which("apt-cache") is None or re.search(r"Candidate: \d", policy.stdout):
        pytest.skip("this machine's archives have python3-lgpio (Raspberry Pi OS)")
    done = subprocess.run(
        ["bash", str(INSTALL), "--role", "table", "--court", "1", "--rules", "indoor-hockey", "--no-venv",
         "--dry-run"], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "python3-lgpio is not in this system's package archives" in done.stdout
    assert "archive.raspberrypi.com" in done.stdout
    install = next(line for line in done.stdout.splitlines() if "apt-get install" in line)
    assert "python3-lgpio" not in install and "libgpiod2" in install  # the rest is installed

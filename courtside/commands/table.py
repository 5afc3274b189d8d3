"""``courtside table``: the referee table program on the Pi (buttons, horn, journal, screen).

Top-level imports stay light (argparse only): ``courtside --help`` must not load
gpiozero or pygame. Everything is imported inside :func:`run`.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


def _speed(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 <= value <= 100_000:
        raise argparse.ArgumentTypeError(f"{text!r}: give 0 (as fast as possible) or a speed-up up to 100000")
    return value


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "table", help="run the referee table: buttons, horn, journal and screen",
        description="The referee table program. Every accepted event is journaled (fsynced) before it is shown; "
        "after a power cut it restarts where it was. With --script it plays a press script through the mock pins, "
        "exits after its last line and prints the final match state as `courtside replay` does.",
    )
    parser.add_argument("--rules", metavar="NAME_OR_FILE",
                        help="a preset name or a ruleset file (default: the tournament file's, else indoor-hockey)")
    parser.add_argument("--court", required=True, metavar="ID",
                        help="this table's court: its name in the tournament file or its number (1, 2, ...)")
    parser.add_argument("--tournament", metavar="FILE", help="the tournament file: this court's schedule")
    parser.add_argument("--buttons", metavar="MAP.toml", help="the button map (default: the 12-button table)")
    parser.add_argument("--pins", choices=("auto", "mock", "native"), default="auto",
                        help="GPIO pins: native (the board's library; lgpio on a Pi 5), mock (gpiozero's "
                        "MockFactory) or auto: native on a Raspberry Pi, else mock (default)")
    parser.add_argument("--journal", metavar="DIR", type=Path,
                        help="where the match journals live (default: $STATE_DIRECTORY/journal under systemd, "
                        "else ~/.local/state/courtside/journal)")
    parser.add_argument("--operator-port", type=int, metavar="PORT",
                        help="serve the official's view on this port (0: a free one, logged), whatever the button "
                             "map's [operator] says; the map's view = \"web\" serves it on the map's port")
    parser.add_argument("--headless", action="store_true", help="no screen: print what changes as lines of text")
    parser.add_argument("--script", metavar="PRESSES", help="play this press script (docs/press-scripts.md)")
    parser.add_argument("--speed", type=_speed, default=None, metavar="N",
                        help="run the table's clock N times faster (0: as fast as possible; default 1, "
                        "or 0 with --script)")
    parser.add_argument("--broker", metavar="URL",
                        help="the venue's MQTT broker (mqtt://host:1883): events go to the standings service")
    parser.add_argument("--format", choices=("text", "json"), default="text",
                        help="how the final state is printed after a script (as courtside replay)")
    parser.add_argument("--check-wiring", action="store_true",
                        help="test the wiring on the Pi: show each button (name, GPIO, physical pin) as it is "
                        "pressed; a machine without GPIO is refused (with --script: rehearsed on mock pins)")
    parser.add_argument("--log-level", choices=("debug", "info", "warning"), default="info",
                        help="how much the table logs to stderr (journald under systemd; default: info)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from firmware.main import main

    return main(args)

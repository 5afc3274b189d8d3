"""``courtside table``'s body: options in, a running table out (see courtside/commands/table.py)."""

from __future__ import annotations

import argparse
import json
import logging
import signal
import sys
from pathlib import Path
from typing import Any

from firmware.logs import setup_logging
from firmware.screen import HeadlessScreen, Screen
from rules import read_text

log = logging.getLogger("courtside.table")


def on_a_pi() -> bool:
    try:
        return "Raspberry Pi" in Path("/proc/device-tree/model").read_text(encoding="ascii", errors="replace")
    except OSError:
        return False


def tournament_language(path: str) -> str:
    """The screen's language: the tournament file's ``language`` (a bad file is refused here, not run headless)."""
    from rules import parse_cup

    return parse_cup(read_text(path), path).language


def _screen(args: argparse.Namespace, scripted: bool) -> Screen:
    if args.headless:
        if scripted:  # stdout is for the final state; the running commentary goes with the logs
            return HeadlessScreen(sys.stderr)
        return HeadlessScreen()
    language = tournament_language(args.tournament) if getattr(args, "tournament", None) else None
    try:
        from firmware.buttonmap import load_button_map
        from firmware.pygame_screen import PygameScreen

        return PygameScreen(load_button_map(args.buttons), language)
    except Exception as err:  # no display, no pygame: a table without a screen still keeps the match
        log.warning("no screen (%s): running headless", err)
        return HeadlessScreen(sys.stderr if scripted else sys.stdout)


def _link(args: argparse.Namespace) -> Any:
    """The MQTT link (firmware/link.py, issue 11) when ``--broker`` is given.

    Contract: ``firmware.link.make_link(args)`` returns an object with the methods of
    ``firmware.loop.Link``; ``args`` has ``broker``, ``court``, ``journal``, ``tournament``.
    """
    if not getattr(args, "broker", None):
        return None
    import importlib

    return importlib.import_module("firmware.link").make_link(args)


def main(args: argparse.Namespace) -> int:
    from firmware.script import parse_script
    from firmware.table import TableOptions, final_state, open_table

    setup_logging(args.log_level)
    presses = parse_script(read_text(args.script), args.script) if args.script else None
    if presses is not None and args.pins == "native":
        from firmware.errors import PinsError

        raise PinsError("--script drives gpiozero's mock pins: use --pins mock (or leave --pins out)")
    pins = args.pins if args.pins != "auto" else ("native" if on_a_pi() and presses is None else "mock")
    speed = args.speed if args.speed is not None else (0.0 if presses is not None else 1.0)
    if args.check_wiring:
        from firmware.wiring import check_wiring

        return check_wiring(args.buttons, pins, presses, args.script or "script")
    if args.journal is None:
        from firmware.table import default_journal_dir

        args.journal = default_journal_dir()  # the link keeps its outbox beside the journals
    from firmware.journal import file_system_in_ram

    in_ram = file_system_in_ram(Path(args.journal))
    if in_ram is not None:
        log.warning("the journal folder %s is on %s, in RAM: a power cut loses the match; put it on the card's "
                    "data partition (hardware.md, Read-only root)", args.journal, in_ram)
    opts = TableOptions(rules=args.rules, court=args.court, tournament=args.tournament, buttons=args.buttons,
                        pins=pins, journal=args.journal, speed=speed, script=presses,
                        script_source=args.script or "script")
    table = open_table(opts, screen=_screen(args, presses is not None), link=_link(args))
    _stop_on_signals(table.loop)
    page = _operator_page(table.button_map, getattr(args, "operator_port", None))
    if page is not None:
        table.loop.operator_sinks.append(page)
    try:
        table.loop.run()
        if presses is not None:
            state = final_state(table)
            if args.format == "json":
                json.dump(state.to_dict(), sys.stdout, indent=2, ensure_ascii=False)
                sys.stdout.write("\n")
            else:
                from rules import state_text

                print(state_text(state, table.loop.ruleset))
    finally:
        table.close()
        table.loop.screen.close()
        if page is not None:
            page.close()
    return 0


def _operator_page(button_map: Any, port: int | None) -> Any:
    """The official's page (firmware.operator_page) where the map says ``view = "web"`` or ``--operator-port`` asks
    for it; a port already taken is logged and the table plays on without it: the match matters more."""
    form = button_map.operator
    if port is None and form.view != "web":
        return None
    from firmware.operator_page import OperatorPage

    try:
        return OperatorPage(form.host, form.port if port is None else port)
    except OSError as err:
        log.warning("the official's view cannot be served on %s:%s (%s): the table goes on without it", form.host,
                    form.port if port is None else port, err.strerror)
        return None


def _stop_on_signals(loop: Any) -> None:
    from firmware.commands import Stop

    def stop(signum: int, _frame: object) -> None:
        loop.queue.put(Stop(reason=signal.Signals(signum).name))

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)

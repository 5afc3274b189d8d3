"""The demo from start to end: address first, parts up, play (or wait for Ctrl-C), everything down.

Whatever happens (the end, Ctrl-C, SIGTERM, a part that fails), :meth:`Venue.stop` runs and
stops every child process and the broker before the command returns, so nothing is left
running or listening and a second run right after starts clean.
"""

from __future__ import annotations

import time

from courtside.demo.organiser import ACCOUNT
from courtside.demo.venue import DemoOptions, Stopped, Venue, has_screen, stop_on_signals
from rules import DemoError

PLAIN_HTTP_LAN = ("the pages and the desk are served over plain HTTP: anyone on this network can read the desk's "
                  "password and session as they pass. Use --lan only on a network the club trusts; a tournament "
                  "runs its desk behind HTTPS (README, 'HTTPS for the desk').")


def run_demo(options: DemoOptions) -> int:
    venue = Venue(options)
    venue.show_window = not options.headless and has_screen()
    venue.say(f"courtside demo: the tournament's web pages are at {venue.web}")
    venue.say(venue.moved())
    status = 0
    finished = False
    with stop_on_signals():
        try:
            venue.start()
            where = "the embedded broker" if venue.broker is not None else "the broker"
            venue.say(f"standings service up; {where} at {venue.broker_url}; working folder {venue.workdir}")
            venue.say(f"the organiser's desk: {venue.web}desk (log in as {ACCOUNT}, password {venue.desk_password})")
            if options.lan:
                venue.say(f"on the venue's network: {' or '.join(venue.lan_addresses())} (every address of this "
                          "machine)")
                venue.say(f"warning: {PLAIN_HTTP_LAN}")
            if options.autoplay:
                _autoplay(venue)
                finished = True
                _showcase(venue)
            else:
                _keyboard(venue)
        except Stopped as why:
            venue.say(f"stopping ({why})...")
            status = 0 if finished else 130
        finally:
            venue.stop()
    if status == 130 or finished:
        venue.say("stopped: every table, the service and the broker are down.")
    return status


def _showcase(venue: Venue) -> None:
    """After the final ranking the pages and the desk stay up to be looked at, until Ctrl-C."""
    venue.say(f"the tournament is over: its pages stay up at {venue.web} (the desk too) until Ctrl-C.")
    service = venue.service
    while service is not None and service.running():
        time.sleep(0.5)
    raise DemoError(f"the standings service stopped by itself; logs in {venue.workdir}/logs")


def key_map_text() -> str:
    """The default button map's keyboard keys, grouped by action: what court 1's window answers to."""
    from firmware.buttonmap import load_button_map

    by_action: dict[str, list[str]] = {}
    for key, action in load_button_map().keys.items():
        by_action.setdefault(action, []).append(key)
    return "\n".join(f"  {action.replace('_', ' '):<14} {', '.join(keys)}" for action, keys in by_action.items())


def _autoplay(venue: Venue) -> None:
    from courtside.demo.autoplay import Autoplay

    play = Autoplay(venue)
    if venue.show_window:
        first = next(iter(play.courts), None)
        if first is not None:
            venue.follower(first)
            venue.say(f"{first}: its scoreboard is in a window (a screen-only node following the court)")
    pace = f"{venue.options.speed:g} times real time" if venue.options.speed else "as fast as the tables go"
    venue.say(f"{play.title}: {len(play.courts)} court(s), officials' seed {venue.options.seed}, {pace}")
    play.run()
    venue.say("")
    venue.options.out.write(play.finish())
    venue.options.out.flush()


def _keyboard(venue: Venue) -> None:
    """A table per court; court 1's takes the keyboard (in its window) until Ctrl-C."""
    from rules import parse_cup, read_text, ruleset_path

    cup = parse_cup(read_text(str(venue.file)), str(venue.file))
    courts = list(cup.schedule.courts)
    # A cup's tables play each match by its class's ruleset, from the file; a tournament's by its one ruleset.
    rules = None if cup.has_classes else str(ruleset_path(cup.classes[0].tournament, str(venue.file)))
    tables = [venue.table(court, rules, window=(n == 0 and venue.show_window)) for n, court in enumerate(courts)]
    if venue.show_window:
        venue.say(f"{courts[0]}: the scoreboard window is the table; its keys (F11 or ? shows them on the screen):")
        venue.say(key_map_text())
    else:
        venue.say(f"no screen (or --headless): the tables of {', '.join(courts)} run headless; "
                  "follow them on the web pages")
    venue.say("Ctrl-C stops everything.")
    while all(t.running() for t in tables):
        time.sleep(0.25)
    ended = next(t for t in tables if not t.running())
    venue.say(f"{ended.name} ended (status {ended.poll()}); stopping the demo.\n{ended.tail(5)}")

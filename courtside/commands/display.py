"""``courtside display``: the venue scoreboard without the table.

``snapshot`` draws one frame from a match state into a PNG (tests, docs, an organiser
preparing a venue); ``follow`` is a screen-only node drawing a court from its live MQTT
topic, for venues with more than one screen per court. pygame and paho are imported only
when a subcommand runs, so ``courtside --help`` stays fast on a Pi.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from courtside.commands.replay import match_instant
from rules import FileLineError


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "display", help="the venue scoreboard: draw a frame to a PNG, or follow a court over MQTT",
        description="The HDMI venue scoreboard without the table program.",
    )
    inner = parser.add_subparsers(dest="display_command", required=True, metavar="SUBCOMMAND")
    snap = inner.add_parser(
        "snapshot", help="draw one frame of a match state into a PNG, without a screen",
        description="Draw the scoreboard for a match state (as `courtside replay --format json` prints it) "
        "into a PNG. Team names, round and language come from --tournament and --match when given.",
    )
    given = snap.add_mutually_exclusive_group(required=True)
    given.add_argument("--state", metavar="STATE.json", help="the match state (replay --format json)")
    given.add_argument("--events", metavar="LOG.jsonl",
                       help="a match log: the frame at --at (default: its last event), its teams named as its "
                            "header names them")
    snap.add_argument("--at", type=match_instant, metavar="SECONDS", help="with --events: the instant to draw")
    snap.add_argument("--rules", metavar="NAME_OR_FILE", help="the ruleset (default: the tournament file's)")
    snap.add_argument("--tournament", metavar="FILE", help="the tournament file (teams, round, language)")
    snap.add_argument("--match", metavar="ID", help="the match: its schedule number or knock-out name, e.g. SF1")
    snap.add_argument("--language", metavar="LANG", help="en, sv or sk (default: the tournament's, else en)")
    snap.add_argument("--size", default="1920x1080", metavar="WxH", help="the screen's size (default 1920x1080)")
    snap.add_argument("--theme", metavar="THEME.toml", help="colours, fonts and logo (default: the shipped theme)")
    snap.add_argument("--out", required=True, metavar="FRAME.png", help="where to write the picture")
    snap.set_defaults(run=run_snapshot)

    follow = inner.add_parser(
        "follow", help="draw a court's live scoreboard from the MQTT broker (a screen-only node)",
        description="Subscribe to a court's retained live state and draw it full screen (KMS/DRM on a Pi "
        "without a desktop, a window elsewhere). Shows 'offline' while the broker or the table is away.",
    )
    follow.add_argument("--court", required=True, metavar="ID", help="the court to show, as the table names it")
    follow.add_argument("--broker", required=True, metavar="URL", help="mqtt://[user:password@]host[:port]")
    follow.add_argument("--tournament", required=True, metavar="FILE",
                        help="the tournament file (its ruleset, teams and language)")
    follow.add_argument("--id", metavar="ID", help="the tournament's id in the topics (default: the file name's stem, "
                        "as `courtside server` uses)")
    follow.add_argument("--language", metavar="LANG", help="en, sv or sk (default: the tournament's, else en)")
    follow.add_argument("--size", metavar="WxH", help="a window of this size instead of full screen")
    follow.add_argument("--theme", metavar="THEME.toml", help="colours, fonts and logo")
    follow.add_argument("--frames", type=int, metavar="N", help="stop after N frames (tests)")
    follow.add_argument("--out", metavar="FRAME.png", help="with --frames: save the last frame here")
    follow.set_defaults(run=run_follow)


def _size(text: str) -> tuple[int, int]:
    from display.snapshot import parse_size

    try:
        return parse_size(text)
    except ValueError as err:
        raise FileLineError("--size", None, str(err)) from None


def run_snapshot(args: argparse.Namespace) -> int:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")  # no window: the frame goes to a file
    from display.snapshot import load_view, log_view, render, save
    from display.theme import load_theme

    size = _size(args.size)
    theme = load_theme(args.theme) if args.theme else None
    if args.match and not args.tournament:
        raise FileLineError("--match", None, "needs --tournament (the match is looked up in its schedule)")
    if args.events is not None:
        view = log_view(args.events, args.rules, None if args.at is None else round(args.at * 1000), args.language)
    else:
        view = load_view(args.state, args.rules, args.tournament, args.match, args.language)
    save(render(view, size, theme), args.out)
    print(f"wrote {args.out} ({size[0]}x{size[1]})")
    return 0


def run_follow(args: argparse.Namespace) -> int:
    from display.follow import follow

    return follow(args)

"""A generated youth cup as one tournament file: many teams in pools of four on many pitches over several days.

    .venv/bin/python -m bench.cup --teams 2048 --courts 110 > /tmp/cup.toml

The size the benchmarks and the tests of a big site use (issue 32): clubs of four teams kept apart by the draw,
pools of four, the winners of each pool in a knock-out (a final between the two best when there are two or
more pools): one class. ``--classes N`` makes a cup of N classes instead (:func:`classes_cup_toml`): half on small
pitches, half on large ones, each class with an A and a B play-off.
"""

from __future__ import annotations

import argparse
import sys
from typing import TypedDict


def cup_toml(*, teams: int, courts: int, ruleset: str = "indoor-football", slot: str = "25:00",
             day_start: str = "09:00", day_end: str = "18:00", start: str = "2026-07-13") -> str:
    """The tournament file's text: ``teams`` (a multiple of four) in pools of four, drawn with a fixed seed."""
    if teams % 4 or teams < 8:
        raise ValueError(f"{teams} teams: a multiple of four, at least eight")
    pools = teams // 4
    lines = [
        f'name = "Generated cup of {teams} teams"',
        f'ruleset = "{ruleset}"',
        "",
        "[schedule]",
        f'start = "{start}T{day_start}"',
        "courts = [" + ", ".join(f'"Pitch {n}"' for n in range(1, courts + 1)) + "]",
        f'slot = "{slot}"',
        'min_rest = "30:00"',
        f'day_start = "{day_start}"',
        f'day_end = "{day_end}"',
        "",
        "[draw]",
        "seed = 2026",
        "",
    ]
    for n in range(teams):
        lines += ["[[teams]]", f'name = "Team {n + 1:04d}"', f'club = "Club {n // 4 + 1:03d}"', ""]
    for p in range(pools):
        lines += ["[[pools]]", f'name = "{_pool_name(p)}"', "size = 4", ""]
    lines += ["[[matches]]", 'name = "Final"', f'home = "1{_pool_name(0)}"', f'away = "1{_pool_name(1)}"',
              'round = "final"', ""]
    return "\n".join(lines)


CLASS_NAMES = ("P10", "F10", "P12", "F12", "P14", "F14", "P16", "F16", "P11", "F11", "P13", "F13", "P15", "F15")
ROUNDS = {64: "playoff", 32: "round_of_32", 16: "round_of_16", 8: "quarter_final", 4: "semi_final", 2: "final"}


class Pitches(TypedDict):
    small: int
    large: int


def pitches(courts: int) -> Pitches:
    """``courts`` pitches as :func:`classes_cup_toml` takes them: half, up to 50, small (7 v 7), the rest large."""
    small = min(50, courts // 2)
    return {"small": small, "large": courts - small}


def classes_cup_toml(*, teams: int = 2048, classes: int = 8, small: int = 50, large: int = 60,
                     start: str = "2026-07-13") -> str:
    """A cup of ``classes`` classes of ``teams // classes`` teams each (pools of four), the first half on ``small``
    7 v 7 pitches (indoor-football rules, 25-minute slots; the two youngest keep their results off the pages), the
    rest on ``large`` 11 v 11 ones (youth-football, 50 minutes): each pool's winners play an A play-off and its
    runners-up a B play-off, both knock-outs to a final."""
    per = teams // classes
    pools = per // 4
    if per % 4 or pools not in ROUNDS or classes > len(CLASS_NAMES):
        raise ValueError(f"{teams} teams in {classes} classes: pools of four, 2 to 64 pools a class")
    smalls = [f"7v7 Pitch {n}" for n in range(1, small + 1)]
    larges = [f"11v11 Pitch {n}" for n in range(1, large + 1)]
    lines = [
        f'name = "Generated cup of {teams} teams in {classes} classes"',
        "",
        "[schedule]",
        f'start = "{start}T08:00"',
        "courts = [" + ", ".join(f'"{c}"' for c in smalls + larges) + "]",
        'min_rest = "30:00"',
        'day_start = "08:00"',
        'day_end = "20:00"',
        "",
    ]
    for c in range(classes):
        name, young = CLASS_NAMES[c], c < classes // 2
        courts, ruleset = (smalls, "indoor-football") if young else (larges, "youth-football")
        lines += ["[[classes]]", f'name = "{name}"', f'ruleset = "{ruleset}"',
                  "courts = [" + ", ".join(f'"{x}"' for x in courts) + "]",
                  'slot = "25:00"' if young else 'slot = "50:00"\nknockout_slot = "60:00"',
                  f"published = {'false' if c < 2 else 'true'}", f"draw = {{ seed = {2026 + c} }}", "teams = ["]
        lines += [f'    {{ name = "Team {name} {n + 1:03d}", club = "Club {n // 4 + 1:03d}" }},' for n in range(per)]
        lines += ["]", ""]
        for p in range(pools):
            lines += ["[[classes.pools]]", f'name = "{name}-{_pool_name(p)}"', "size = 4", ""]
        for play_off, place in (("A", 1), ("B", 2)):
            lines += _knockout(name, play_off, [f"{place} {name}-{_pool_name(p)}" for p in range(pools)])
    return "\n".join(lines)


def _knockout(klass: str, play_off: str, teams: list[str]) -> list[str]:
    """A knock-out of ``teams`` (a power of two) to its final, first against last as seeded."""
    lines: list[str] = []
    size, entrants, n = len(teams), teams, 0
    while size >= 2:
        following = []
        for i in range(size // 2):
            n += 1
            stage = f"{klass}-{play_off}{n}"
            # The first round seeded first against last; each later one the winners of two neighbours.
            home, away = (entrants[i], entrants[size - 1 - i]) if size == len(teams) else \
                (entrants[2 * i], entrants[2 * i + 1])
            lines += ["[[classes.matches]]", f'name = "{stage}"', f'home = "{home}"', f'away = "{away}"',
                      f'round = "{ROUNDS[size]}"', ""]
            following.append(f"winner {stage}")
        entrants, size = following, size // 2
    return lines


def _pool_name(n: int) -> str:
    """A, B, ..., Z, AA, AB, ...: pool names as cups write them."""
    name = ""
    n += 1
    while n:
        n, rest = divmod(n - 1, 26)
        name = chr(ord("A") + rest) + name
    return name


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teams", type=int, default=2048)
    parser.add_argument("--courts", type=int, default=110)
    parser.add_argument("--day-end", default="18:00", help="the playing day's end: the matches take as many days as "
                        "the pitches and the day's length need")
    parser.add_argument("--classes", type=int, default=0, help="a cup of this many classes on small and large "
                        "pitches (--courts is then split: 50 small, the rest large)")
    args = parser.parse_args(argv)
    if args.classes:
        sys.stdout.write(classes_cup_toml(teams=args.teams, classes=args.classes, **pitches(args.courts)))
        return 0
    sys.stdout.write(cup_toml(teams=args.teams, courts=args.courts, day_end=args.day_end))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""A generated youth cup as one tournament file: many teams in pools of four on many pitches over several days.

    .venv/bin/python -m bench.cup --teams 2048 --courts 110 > /tmp/cup.toml

The size the benchmarks and the tests of a big site use (issue 32): clubs of four teams kept apart by the draw,
pools of four, the winners of each pool in a knock-out (a final between the two best when there are two or
more pools). One class: a tournament file has no classes yet.
"""

from __future__ import annotations

import argparse
import sys


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
    args = parser.parse_args(argv)
    sys.stdout.write(cup_toml(teams=args.teams, courts=args.courts, day_end=args.day_end))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

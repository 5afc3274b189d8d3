"""Start-up cost: ``import rules.match`` (what the table imports) and ``courtside --help``.

    PYTHONPYCACHEPREFIX=/tmp/courtside-pyc .venv/bin/python -m bench.bench_startup [--repeat N]

Each figure is the best and the median of ``--repeat`` fresh interpreters, after one
warm-up run of each that writes the bytecode cache; the load average is printed
before and after (the machine is shared: quote the load with the figures). Imports are read from
``python -X importtime`` (the cumulative microseconds of the top module, so the
interpreter's own start is not counted); ``courtside --help`` is wall time of the
whole process, interpreter included, beside ``python -c pass`` for scale. Bytecode
must be cacheable (PYTHONDONTWRITEBYTECODE unset; PYTHONPYCACHEPREFIX keeps the
tree clean), as it is on an installed Pi: otherwise every run compiles every module.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence

MODULES = ("rules", "rules.ruleset", "rules.match", "rules.standings", "rules.tournament", "courtside.cli")


def import_us(module: str, env: dict[str, str]) -> int:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", f"import {module}"],
        capture_output=True, text=True, check=True, env=env,
    )
    # The last line for the module itself: "import time: self | cumulative | name".
    lines = [line for line in done.stderr.splitlines() if line.rstrip().endswith(f"| {module}")]
    return int(lines[-1].split("|")[1])


# Why the core's records are rules.record.Record and not @dataclass: 42 classes of six fields (as many as
# the engine has) defined each way in a fresh interpreter, the import of what defines them apart.
RECORDS = """import sys, time
t0 = time.perf_counter()
if sys.argv[1] == "dataclass":
    import dataclasses
    make = lambda name, body: dataclasses.dataclass(frozen=True, slots=True, kw_only=True)(type(name, (), body))
else:
    from rules.record import Record
    make = lambda name, body: type(name, (Record,), body)
t1 = time.perf_counter()
for i in range(42):
    body = {"__annotations__": dict.fromkeys("abcdef", "int"), **dict.fromkeys("abcdef", 0)}
    make(f"C{i}", {**body, "__module__": "__main__"})
print((t1 - t0) * 1000, (time.perf_counter() - t1) * 1000)
"""


def define_ms(kind: str, env: dict[str, str]) -> tuple[float, float]:
    """(import ms, ms to define the 42 classes) of ``kind``: "dataclass" or "record"."""
    done = subprocess.run([sys.executable, "-c", RECORDS, kind], capture_output=True, text=True, check=True, env=env)
    imported, defined = done.stdout.split()
    return float(imported), float(defined)


def wall_ms(command: Sequence[str], env: dict[str, str]) -> float:
    began = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, check=True, env=env)
    return (time.perf_counter() - began) * 1000


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--repeat", type=int, default=20, help="fresh interpreters per figure; the best is printed")
    args = parser.parse_args(argv)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.setdefault("PYTHONPYCACHEPREFIX", "/tmp/courtside-pyc")
    for module in MODULES:  # first run writes the bytecode cache
        import_us(module, env)
    cli = [sys.executable, "-m", "courtside", "--help"]
    bare_command = [sys.executable, "-c", "pass"]
    wall_ms(cli, env)
    print(f"load average {_load()}; best / median of {args.repeat} fresh interpreters")
    for module in MODULES:
        times = [import_us(module, env) / 1000 for _ in range(args.repeat)]
        print(f"  import {module:<18} {min(times):6.1f} / {statistics.median(times):6.1f} ms")
    bare = [wall_ms(bare_command, env) for _ in range(args.repeat)]
    helped = [wall_ms(cli, env) for _ in range(args.repeat)]
    print(f"  python -c pass          {min(bare):6.1f} / {statistics.median(bare):6.1f} ms (the interpreter alone)")
    print(f"  courtside --help        {min(helped):6.1f} / {statistics.median(helped):6.1f} ms (whole process)")
    for kind in ("dataclass", "record"):
        runs = sorted((define_ms(kind, env) for _ in range(args.repeat)), key=sum)
        imported, defined = runs[len(runs) // 2]
        print(f"  42 classes, {kind:<9}    {defined:6.1f} ms, and {imported:.1f} ms to import it (median run)")
    print(f"load average {_load()}")
    return 0


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


if __name__ == "__main__":
    raise SystemExit(main())

"""Power cuts of the whole Pi: the short version of bench/power_cut.py (docs/reliability.md), and the card model
it rests on, checked against a real program's system calls (what it keeps and what it must lose)."""

from __future__ import annotations

import os
import random
import sys
import textwrap
from pathlib import Path

from bench.power_cut import Call, Card, campaign, traced_run


def test_a_table_cut_with_the_whole_machine_keeps_every_event_it_showed(tmp_path: Path) -> None:
    report = campaign(12, seed=5, workdir=tmp_path, cuts_per_match=6, second_cuts=0.4)
    assert report.cuts == 12
    assert report.problems == []
    assert report.events_shown > 0 and report.events_lost == 0 and report.events_doubled == 0
    assert report.replay_failures == 0 and report.finals_differing == 0
    assert report.images_without_journal < report.cuts  # most cuts landed where a journal was on the card
    assert report.cuts_during_recovery > 0  # and some restarts were cut again while they recovered


WRITER = textwrap.dedent("""
    import os, sys
    folder = sys.argv[1]
    os.mkdir(folder)                                           # 1: a folder, its parent not fsynced
    fd = os.open(folder + "/a", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.write(fd, b"one\\n"); os.fdatasync(fd)                  # 2: content durable, name not yet
    parent = os.open(os.path.dirname(folder), os.O_RDONLY); os.fsync(parent)
    here = os.open(folder, os.O_RDONLY); os.fsync(here)         # 3: the names durable
    os.write(fd, b"two\\n")                                    # 4: written, not fsynced
    with open(folder + "/b.tmp", "w") as f:
        f.write("new"); f.flush(); os.fsync(f.fileno())
    os.replace(folder + "/b.tmp", folder + "/b")               # 5: renamed, folder not fsynced
    sys.stderr.write("mark\\n")
    os.fsync(here)                                             # 6: the rename durable
""")


def _image_after(calls: list[Call], folder: Path, upto: int, dest: Path, seed: int = 0) -> dict[str, bytes]:
    card = Card(folder)
    for call in calls[:upto]:
        card.apply(call)
    card.image(dest, random.Random(seed))
    return {p.name: p.read_bytes() for p in dest.iterdir()} if dest.exists() else {}


def test_the_card_holds_only_what_was_fsynced_with_its_folder(tmp_path: Path) -> None:
    program = tmp_path / "writer.py"
    program.write_text(WRITER, encoding="utf-8")
    folder = tmp_path / "work" / "journal"
    folder.parent.mkdir()
    calls, _ = traced_run([sys.executable, str(program), str(folder)], tmp_path / "trace", dict(os.environ))
    syncs = [i + 1 for i, c in enumerate(calls) if c.name in ("fsync", "fdatasync")]
    mark = next(i for i, c in enumerate(calls) if c.name == "write" and c.strings and c.strings[0] == b"mark\n")
    # Before the parent's fsync the folder itself is not on the card, whatever it holds.
    assert _image_after(calls, folder, syncs[0], tmp_path / "i1") == {}
    # After the parent's fsync only: the folder, empty (its own entries are not fsynced yet).
    assert _image_after(calls, folder, syncs[1], tmp_path / "i2") == {}
    assert (tmp_path / "i2").is_dir()
    # After the folder's fsync: "a" with its fsynced line.
    assert _image_after(calls, folder, syncs[2], tmp_path / "i3") == {"a": b"one\n"}
    # A rename not yet fsynced in its folder: "b" is not there; "two" may be torn in, never more.
    for seed in range(8):
        image = _image_after(calls, folder, mark + 1, tmp_path / f"i4-{seed}", seed)
        assert set(image) == {"a"} and b"one\ntwo\n".startswith(image["a"]) and image["a"].startswith(b"one\n")
    assert _image_after(calls, folder, len(calls), tmp_path / "i5")["b"] == b"new"

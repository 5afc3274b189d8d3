"""hardware.md's wiring diagrams are drawn from the button map the firmware reads, and never drift from it.

The command (docs/wiring/make_wiring.py, schemdraw) is run as a person runs it; its pictures are
read back as SVG (their labels are text) and compared with the committed ones and with the map.
"""

from __future__ import annotations

import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from firmware.buttonmap import default_text, load_button_map
from firmware.pins import physical

ROOT = Path(__file__).resolve().parents[1]
WIRING = ROOT / "docs" / "wiring"
SVG = "{http://www.w3.org/2000/svg}"


def make(out: Path, *args: str) -> list[Path]:
    done = subprocess.run([sys.executable, str(WIRING / "make_wiring.py"), "--out", str(out), *args],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return [Path(line) for line in done.stdout.split()]


def labels(svg: Path) -> list[str]:
    """Every text in the drawing, a multi-line label's lines joined by spaces."""
    root = ET.parse(svg).getroot()
    return [" ".join(" ".join(t.itertext()).split()) for t in root.iter(f"{SVG}text")]


def test_the_committed_diagrams_are_what_the_command_draws_from_the_shipped_map(tmp_path: Path) -> None:
    made = make(tmp_path)
    assert sorted(p.name for p in made) == ["buttons.svg", "outputs.svg"]
    for path in made:
        committed = WIRING / path.name
        assert committed.read_bytes() == path.read_bytes(), (
            f"docs/wiring/{path.name} is stale: run .venv/bin/python docs/wiring/make_wiring.py")


def test_every_button_and_output_is_drawn_on_its_pins(tmp_path: Path) -> None:
    m = load_button_map()
    buttons, outputs = make(tmp_path)
    texts = labels(buttons)
    for spec in m.buttons:
        assert spec.name in texts
        assert f"GPIO {spec.pin}" in texts and str(physical(spec.pin)) in texts
    assert "cable: 13 cores + shield (to GND at the Pi only)" in texts
    out = labels(outputs)
    assert m.horn is not None and m.horn.pin is not None and m.buzzer is not None and m.buzzer.pin is not None
    assert m.shutdown is not None
    for gpio in (m.horn.pin, m.buzzer.pin, m.shutdown):
        assert f"GPIO {gpio}" in out and str(physical(gpio)) in out
    assert "relay module that switches from 3.3 V" in out
    assert "NPN: 2N2222 or BC337" in out and "1 kΩ" in out
    # One pin, one job: the buzzer and the shutdown button are drawn on different pins.
    assert out.count("GPIO 21") == 1 and out.count("GPIO 20") == 1


def test_a_venues_map_draws_its_own_pins(tmp_path: Path) -> None:
    venue = tmp_path / "venue.toml"
    venue.write_text(default_text().replace("pin = 22", "pin = 19", 1), encoding="utf-8")
    buttons, _ = make(tmp_path / "out", "--buttons", str(venue))
    texts = labels(buttons)
    assert "GPIO 19" in texts and str(physical(19)) in texts
    assert "GPIO 22" not in texts


def test_hardware_md_shows_the_diagrams_and_its_pin_table_matches_the_map() -> None:
    text = (ROOT / "hardware.md").read_text(encoding="utf-8")
    assert "docs/wiring/buttons.svg" in text and "docs/wiring/outputs.svg" in text
    assert "docs/wiring/make_wiring.py" in text
    rows = {m.group(1): (int(m.group(2)), int(m.group(3)))
            for m in re.finditer(r"^\| `?([a-z_ ()]+?)`? \| (\d+) \| (\d+) \|", text, re.MULTILINE)}
    m = load_button_map()
    for spec in m.buttons:
        assert rows[spec.name] == (spec.pin, physical(spec.pin)), spec.name
    assert m.horn is not None and m.horn.pin is not None and m.buzzer is not None and m.buzzer.pin is not None
    assert m.shutdown is not None
    assert rows["horn relay (output)"] == (m.horn.pin, physical(m.horn.pin))
    assert rows["buzzer (output)"] == (m.buzzer.pin, physical(m.buzzer.pin))
    assert rows["shutdown button"] == (m.shutdown, physical(m.shutdown))
    pins = [bcm for bcm, _ in rows.values()]
    assert len(pins) == len(set(pins)), "a GPIO listed for two things"

"""Draw hardware.md's wiring diagrams from the button map the firmware reads (firmware/buttons.toml).

The pins come from the map itself (``firmware.buttonmap.load_button_map``) and the header's
physical numbers from ``firmware.pins.HEADER``, so a pin moved in the map moves in the
drawing the next time this runs, and the test (tests/test_docs_wiring.py) fails until the
committed pictures are rebuilt. Drawn with schemdraw (pure Python, in the dev extra).

    .venv/bin/python docs/wiring/make_wiring.py                    # docs/wiring/*.svg from the shipped map
    .venv/bin/python docs/wiring/make_wiring.py --buttons venue.toml --out /tmp/wiring
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import schemdraw
import schemdraw.elements as elm

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from firmware.buttonmap import ButtonMap, load_button_map
from firmware.pins import GROUND_PINS, physical

schemdraw.use("svg")
schemdraw.svgconfig.text = "text"  # labels stay text: searchable, and the test reads them

FONT = 11
STEP = 1.4  # between two buttons' wires on the header drawing
POWER_5V, POWER_3V3 = 2, 1  # physical pins of 5 V and 3.3 V on the header
BOX_GROUND_PIN = GROUND_PINS[0]


def _pin(gpio: int) -> elm.IcPin:
    return elm.IcPin(name=f"GPIO {gpio}", pin=str(physical(gpio)), side="right", anchorname=f"g{gpio}",
                     pinlblsize=FONT - 2, lblsize=FONT)


def _outline(d: schemdraw.Drawing, low: tuple[float, float], high: tuple[float, float], style: str) -> None:
    """A dashed rectangle from ``low`` (bottom left) to ``high`` (top right), in the drawing's coordinates."""
    (x0, y0), (x1, y1) = low, high
    for a, b in (((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0))):
        d.add(elm.Line(ls=style, lw=1).at(a).to(b))


def buttons(button_map: ButtonMap) -> schemdraw.Drawing:
    """The button box: every button between its GPIO pin and one common ground wire, through the cable."""
    d = schemdraw.Drawing(show=False)
    d.config(fontsize=FONT, unit=2.5, margin=1.2)
    # schemdraw stacks a side's pins from the bottom up: ground first, so it is the lowest wire.
    pins = [elm.IcPin(name="GND", pin=str(BOX_GROUND_PIN), side="right", anchorname="gnd", pinlblsize=FONT - 2,
                      lblsize=FONT)]
    pins += [_pin(b.pin) for b in reversed(button_map.buttons)]
    pi = d.add(elm.Ic(pins=pins, pinspacing=STEP, edgepadH=0.8, w=3.0, plblofst=0.1)
               .label("Raspberry Pi 40-pin header\n(BCM GPIO, physical pin)", loc="top", fontsize=FONT))
    gnd = pi.absanchors["gnd"]
    wires = [pi.absanchors[f"g{b.pin}"] for b in button_map.buttons]
    px = gnd[0]
    box_left = px + 6.0
    bus_x = box_left + 7.0
    top = max(y for _, y in wires)
    for spec, (x, y) in zip(button_map.buttons, wires, strict=True):
        d.add(elm.Line().at((x, y)).tox(box_left))
        d.add(elm.Button().right().label(spec.name, loc="top", fontsize=FONT))
        d.add(elm.Line().tox(bus_x))
        d.add(elm.Dot())
    d.add(elm.Line().at(gnd).tox(bus_x))
    d.add(elm.Line().at((bus_x, top)).toy(gnd[1]))
    d.add(elm.Dot())
    # The cable between header and box, and the box, outlined and named.
    y0, y1 = gnd[1] - 0.7, top + 1.3
    _outline(d, (px + 1.2, y0), (box_left - 1.2, y1), ":")
    d.add(elm.Label().at(((px + box_left) / 2, y1 + 0.9))
          .label(f"cable: {len(button_map.buttons) + 1} cores\n+ shield (to GND at the Pi only)", fontsize=FONT - 1))
    _outline(d, (box_left - 0.6, y0), (bus_x + 1.4, y1), "--")
    d.add(elm.Label().at(((box_left + bus_x) / 2, y1 + 0.9))
          .label(f"button box: {len(button_map.buttons)} momentary buttons\n(normally open), one ground wire",
                 fontsize=FONT - 1))
    return d


def outputs(button_map: ButtonMap) -> schemdraw.Drawing:
    """The horn's relay module, the buzzer's transistor and the clean shutdown button, each in its own row."""
    d = schemdraw.Drawing(show=False)
    d.config(fontsize=FONT, unit=2.5, margin=1.2)
    horn, buzzer = button_map.horn, button_map.buzzer
    rows: list[tuple[int, str]] = []  # top to bottom
    if horn is not None and horn.pin is not None and horn.relay:
        rows.append((horn.pin, "horn"))
    if buzzer is not None and buzzer.pin is not None:
        rows.append((buzzer.pin, "buzzer"))
    if button_map.shutdown is not None:
        rows.append((button_map.shutdown, "shutdown"))
    if not rows:
        return d
    pi = d.add(elm.Ic(pins=[_pin(gpio) for gpio, _ in reversed(rows)], pinspacing=7.5, edgepadH=1.2, w=3.0,
                      plblofst=0.1)
               .label(f"Raspberry Pi\n40-pin header\n5 V: pin {POWER_5V}\nGND: pin {GROUND_PINS[2]}",
                      loc="top", fontsize=FONT))
    five = f"5 V (pin {POWER_5V})"
    for gpio, what in rows:
        x, y = pi.absanchors[f"g{gpio}"]
        if what == "horn":
            module = d.add(elm.Ic(pins=[elm.IcPin(name="GND", side="left", anchorname="gnd"),
                                        elm.IcPin(name="IN", side="left", anchorname="inp"),
                                        elm.IcPin(name="VCC", side="left", anchorname="vcc"),
                                        elm.IcPin(name="COM", side="right", anchorname="com"),
                                        elm.IcPin(name="NO", side="right", anchorname="no")],
                                  pinspacing=0.9, w=4.6, edgepadH=0.5)
                           .anchor("inp").at((x + 4.5, y))
                           .label("relay module\nthat switches\nfrom 3.3 V", loc="bottom", fontsize=FONT - 1))
            d.add(elm.Line().at((x, y)).to(module.absanchors["inp"]))
            vcc, gnd = module.absanchors["vcc"], module.absanchors["gnd"]
            d.add(elm.Line().at(vcc).left(1.2))
            d.add(elm.Line().up(0.6))
            d.add(elm.Vdd().label(five, fontsize=FONT - 1))
            d.add(elm.Line().at(gnd).left(1.2))
            d.add(elm.Line().down(0.6))
            d.add(elm.Ground())
            no, com = module.absanchors["no"], module.absanchors["com"]
            d.add(elm.Line().at(no).right(1.0))
            d.add(elm.Motor().right().label("horn (12 V)", loc="top", fontsize=FONT - 1))
            end = d.add(elm.Line().right(1.0))
            d.add(elm.Battery().at(end.end).down().toy(com[1] - 1.6).reverse()
                  .label("12 V supply\n(not the Pi's)", loc="bottom", ofst=0.3, fontsize=FONT - 1))
            d.add(elm.Line().tox(com[0] + 1.0))
            d.add(elm.Line().toy(com[1]))
            d.add(elm.Line().tox(com[0]))
        elif what == "buzzer":
            d.add(elm.Line().at((x, y)).right(1.0))
            d.add(elm.Resistor().right().label("1 kΩ", loc="top", fontsize=FONT - 1))
            q = d.add(elm.BjtNpn(circle=True).anchor("base").label("NPN: 2N2222\nor BC337", loc="right",
                                                                   fontsize=FONT - 1))
            d.add(elm.Line().at(q.emitter).down(0.5))
            d.add(elm.Ground())
            d.add(elm.Line().at(q.collector).up(0.4))
            d.add(elm.RBox(w=1.4, h=0.7).up().label("buzzer\n(active, 5 V)", loc="bottom", fontsize=FONT - 1))
            d.add(elm.Line().up(0.3))
            d.add(elm.Vdd().label(five, fontsize=FONT - 1))
        else:
            d.add(elm.Line().at((x, y)).right(1.5))
            d.add(elm.Button().right().label("shutdown (hold)", loc="top", fontsize=FONT - 1))
            d.add(elm.Line().right(0.8))
            d.add(elm.Ground())
    return d


def build(button_map: ButtonMap, out: Path) -> list[Path]:
    """Both drawings as SVG files in ``out``; their paths."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, drawing in (("buttons", buttons(button_map)), ("outputs", outputs(button_map))):
        path = out / f"{name}.svg"
        path.write_bytes(drawing.get_imagedata("svg"))
        written.append(path)
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--buttons", help="a venue's button map (default: the shipped firmware/buttons.toml)")
    parser.add_argument("--out", default=str(Path(__file__).parent))
    args = parser.parse_args()
    for path in build(load_button_map(args.buttons), Path(args.out)):
        print(path)


if __name__ == "__main__":
    main()

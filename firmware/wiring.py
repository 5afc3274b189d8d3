"""``courtside table --check-wiring``: each button, as it is pressed, with its GPIO and physical pin.

A person wiring a box presses every button once and sees its name; a HORN press
also sounds the horn, so its relay and the screen's speakers are checked too. Ctrl-C ends it (a script ends it
after its last line).

Only real pins can be pressed by hand: on a machine without GPIO (a laptop, a server)
the check says so and exits instead of waiting for presses that cannot come; with
``--script`` it rehearses the check on gpiozero's mock pins.
"""

from __future__ import annotations

import queue
import sys
from collections.abc import Sequence

from firmware.buttonmap import load_button_map
from firmware.buttons import GpioButtons
from firmware.clock import TableClock
from firmware.commands import Command, Edge, Stop
from firmware.errors import PinsError
from firmware.horn import make_horn, output_names
from firmware.pins import board, make_factory, physical
from firmware.script import Press, ScriptPlayer, check_buttons

RUN_ON_THE_PI = "Run it on the table's Raspberry Pi, or add --script PRESSES to rehearse it on mock pins."


def _no_gpio() -> str:
    model = board()
    if model is None:
        return f"--check-wiring: this machine has no GPIO header (not a Raspberry Pi), so no button can be pressed. " \
            f"{RUN_ON_THE_PI}"
    return f"--check-wiring: --pins mock on a {model}: nobody can press a mock pin. Leave --pins out (or give " \
        "--pins native), or add --script PRESSES to rehearse the check."


def check_wiring(buttons_path: str | None, pins: str, presses: Sequence[Press] | None, source: str) -> int:
    button_map = load_button_map(buttons_path)
    if presses is not None:
        check_buttons(presses, [b.name for b in button_map.buttons], source, keys=button_map.keys)
    if presses is None and pins == "mock":
        raise PinsError(_no_gpio())
    factory = make_factory(pins, advice=RUN_ON_THE_PI)
    clock = TableClock(speed=0 if presses is not None else 1)
    q: queue.Queue[Command] = queue.Queue()
    devices = GpioButtons(button_map, factory, q.put, clock.seconds)
    horn = make_horn(button_map, factory, "", speakers=True)  # the map's own pattern: no match is loaded
    print(f"Wiring check ({button_map.source}): press each button; Ctrl-C ends.")
    for spec in button_map.buttons:
        print(f"  {spec.name:<14} GPIO {spec.pin:>2}  pin {physical(spec.pin):>2}")
    h = button_map.horn
    if h is not None and h.pin is not None and h.relay:
        print(f"  {'horn relay':<14} GPIO {h.pin:>2}  pin {physical(h.pin):>2}")
    if h is not None and h.screen:
        where = h.device or "the system's default audio output"
        print(f"  {'horn speakers':<14} {where}" if horn.speaker is not None else
              f"  {'horn speakers':<14} cannot be opened (see the warning above)")
        print(f"  {'':<14} audio outputs here ([horn] device): {'; '.join(output_names()) or 'none'}")
    if button_map.shutdown is not None:
        print(f"  {'shutdown':<14} GPIO {button_map.shutdown:>2}  pin {physical(button_map.shutdown):>2}"
              "  (the kernel's gpio-shutdown: not checked here)")
    sys.stdout.flush()
    script = ScriptPlayer(presses, devices.pin, q.put) if presses is not None else None
    seen: set[str] = set()
    try:
        while True:
            until = script.next_due() if script is not None else None
            if script is not None and until is None and q.empty():
                break
            item = clock.wait(q, until)
            if script is not None:
                script.play_due(clock.seconds())
            if isinstance(item, Stop):
                break
            if isinstance(item, Edge):
                found = button_map.button(item.button)
                assert found is not None
                what = "pressed" if item.pressed else "released"
                print(f"{found.name} (GPIO {found.pin}, pin {physical(found.pin)}): {what}", flush=True)
                if item.pressed:
                    seen.add(found.name)
                    if found.press == "horn":
                        horn.sound(clock.seconds())
            horn.tick(clock.seconds())
    except KeyboardInterrupt:
        pass
    finally:
        devices.close()
        horn.close()
    missing = [b.name for b in button_map.buttons if b.name not in seen]
    print(f"{len(seen)} of {len(button_map.buttons)} buttons seen" + (f"; not pressed: {', '.join(missing)}"
                                                                        if missing else ""))
    return 0

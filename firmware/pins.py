"""The Pi's 40-pin header and the gpiozero pin factory (``--pins mock|native``).

BCM numbers are what gpiozero and the button map use; the physical pin numbers are
what a person wiring a box counts on the header (hardware.md's wiring table).
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

from firmware.errors import PinsError

# BCM GPIO number -> physical pin on the 40-pin header (identical on the 3B+, 4, 5 and Zero 2 W).
HEADER: dict[int, int] = {
    2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 0: 27, 5: 29, 6: 31, 13: 33, 19: 35, 26: 37,
    14: 8, 15: 10, 18: 12, 23: 16, 24: 18, 25: 22, 8: 24, 7: 26, 1: 28, 12: 32, 16: 36, 20: 38, 21: 40,
}
RESERVED: dict[int, str] = {
    0: "GPIO 0 (ID_SD) is reserved for a HAT's ID EEPROM",
    1: "GPIO 1 (ID_SC) is reserved for a HAT's ID EEPROM",
}
# Ground pins beside which buttons are wired (any of them will do).
GROUND_PINS = (6, 9, 14, 20, 25, 30, 34, 39)


def pin_problem(bcm: object) -> str | None:
    """Why ``bcm`` cannot be used for a button or an output; None when it can."""
    if type(bcm) is not int:
        return f"a BCM GPIO number (whole number) is required, not {bcm!r}"
    if bcm in RESERVED:
        return RESERVED[bcm]
    if bcm not in HEADER:
        return f"GPIO {bcm} is not on the 40-pin header (BCM 2-27 are)"
    return None


def physical(bcm: int) -> int:
    return HEADER[bcm]


MODEL = Path("/proc/device-tree/model")


def board(model: Path = MODEL) -> str | None:
    """The Raspberry Pi model this runs on ("Raspberry Pi 4 Model B Rev 1.5"), or None on any other machine."""
    try:
        text = model.read_text(encoding="ascii", errors="replace").strip("\x00\n ")
    except OSError:
        return None
    return text if "Raspberry Pi" in text else None


def make_factory(kind: str, *, advice: str = "on a machine without GPIO, use --pins mock") -> Any:
    """A gpiozero pin factory: ``mock`` (MockFactory, for tests, scripts and laptops) or ``native``.

    ``native`` lets gpiozero pick the board's library: lgpio on a Pi 5 (and on a
    Pi 4 with a current Raspberry Pi OS), RPi.GPIO or pigpio on older systems. ``advice`` ends the
    error when none works: what the person should do instead.
    """
    from gpiozero import Device  # type: ignore[import-untyped]
    from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

    if kind == "mock":
        return MockFactory()
    if kind != "native":
        raise PinsError(f"--pins: {kind!r} is not mock or native")
    # gpiozero warns once per library it falls back from; those reasons belong in the one error below.
    with warnings.catch_warnings(record=True) as tried:
        warnings.simplefilter("always")
        try:
            return Device._default_pin_factory()
        except Exception as err:  # gpiozero raises BadPinFactory; any failure means the same to the operator
            reasons = "; ".join(str(w.message) for w in tried) or str(err)
            where = board() or "not a Raspberry Pi"
            raise PinsError(f"--pins native: no GPIO library works on this machine ({where}): {reasons}. {advice}") \
                from None

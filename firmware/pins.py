"""The Pi's 40-pin header and the gpiozero pin factory (``--pins mock|native``).

BCM numbers are what gpiozero and the button map use; the physical pin numbers are
what a person wiring a box counts on the header (hardware.md's wiring table).
"""

from __future__ import annotations

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


def make_factory(kind: str) -> Any:
    """A gpiozero pin factory: ``mock`` (MockFactory, for tests, scripts and laptops) or ``native``.

    ``native`` lets gpiozero pick the board's library: lgpio on a Pi 5 (and on a
    Pi 4 with a current Raspberry Pi OS), RPi.GPIO or pigpio on older systems.
    """
    from gpiozero import Device  # type: ignore[import-untyped]
    from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

    if kind == "mock":
        return MockFactory()
    if kind != "native":
        raise PinsError(f"--pins: {kind!r} is not mock or native")
    try:
        return Device._default_pin_factory()
    except Exception as err:  # gpiozero raises BadPinFactory; any failure means the same to the operator
        raise PinsError(f"--pins native: no GPIO library works on this machine ({err}); use --pins mock") from None

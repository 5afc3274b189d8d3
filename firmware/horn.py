"""The horn (a relay module on a GPIO pin) and the optional buzzer: patterns played without blocking.

The loop calls :meth:`Signal.sound` and asks :meth:`Signal.next_due` when to come back
to switch the output; nothing here sleeps. A pattern is seconds ``[on, off, on, ...]``.
"""

from __future__ import annotations

from typing import Any

from firmware.buttonmap import Output


class Signal:
    """One output (horn or buzzer). Without a pin it still counts what it sounded (headless, tests)."""

    def __init__(self, name: str, output: Output | None, factory: Any, *, pattern: tuple[float, ...] | None = None):
        self.name = name
        self.pattern = pattern or (output.pattern if output else (1.0,))
        self.device: Any = None
        if output is not None:
            from gpiozero import DigitalOutputDevice  # type: ignore[import-untyped]

            self.device = DigitalOutputDevice(output.pin, active_high=output.active_high, initial_value=False,
                                              pin_factory=factory)
        self.sounded = 0
        self.muted = False
        self._steps: list[tuple[float, bool]] = []  # (session second, on?) still to do

    def sound(self, now: float, *, automatic: bool = False) -> bool:
        """Start the pattern now (a new sound replaces one still playing); False if muted."""
        if automatic and self.muted:
            return False
        self.sounded += 1
        self._steps = []
        t = now
        for i, length in enumerate(self.pattern):
            self._steps.append((t, i % 2 == 0))
            t += length
        self._steps.append((t, False))
        self.tick(now)
        return True

    def next_due(self) -> float | None:
        return self._steps[0][0] if self._steps else None

    def tick(self, now: float) -> None:
        while self._steps and self._steps[0][0] <= now:
            _, on = self._steps.pop(0)
            if self.device is not None:
                self.device.value = on

    @property
    def is_on(self) -> bool:
        return bool(self.device.value) if self.device is not None else False

    def close(self) -> None:
        if self.device is not None:
            self.device.off()
            self.device.close()

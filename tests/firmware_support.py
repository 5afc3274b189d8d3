"""Helpers for the firmware tests: a table on gpiozero's MockFactory with a virtual clock, driven by pin."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar

from gpiozero.pins.mock import MockFactory, MockPin  # type: ignore[import-untyped]

from firmware.screen import HeadlessScreen
from firmware.table import Table, TableOptions, open_table


class Board:
    """A table under test: press its buttons by pin, move its (virtual) time, read what it shows."""

    def __init__(self, table: Table, screen: HeadlessScreen) -> None:
        self.table = table
        self.screen = screen
        self.loop = table.loop

    def at(self, seconds: float) -> Board:
        """Move the table's time to ``seconds`` and let the loop do what falls due."""
        self.loop.step()
        while True:
            due = self.loop._deadline()
            if due is None or due > seconds:
                break
            self.loop.clock.advance_to(due)
            self.loop.step()
        self.loop.clock.advance_to(seconds)
        self.loop.step()
        return self

    def pin(self, button: str) -> Any:
        return self.table.pin(button)

    def down(self, button: str) -> None:
        self.pin(button).drive_low()
        self.loop.step()

    def up(self, button: str) -> None:
        self.pin(button).drive_high()
        self.loop.step()

    def press(self, button: str, length: float = 0.1) -> None:
        start = self.loop.clock.seconds()
        self.down(button)
        self.at(start + length)
        self.up(button)

    def type(self, text: str) -> None:
        from firmware.script import keys_of

        for key in keys_of(text, self.loop.clock.seconds()):
            self.loop.queue.put(key)
        self.loop.step()

    @property
    def state(self) -> Any:
        return self.loop.session.match.state_at(self.loop.now_ms())

    @property
    def events(self) -> list[Any]:
        return [e for e in self.loop.session.match.timeline]

    def refusals(self) -> list[str]:
        return [line for line in self.screen.lines if " refused: " in line]


@contextmanager
def board(tmp_path: Path, *, factory: MockFactory | None = None, **options: Any) -> Iterator[Board]:
    screen = HeadlessScreen(echo=lambda _: None)
    opts = TableOptions(journal=tmp_path, speed=0, factory=factory or MockFactory(), **options)
    table = open_table(opts, screen=screen)
    try:
        yield Board(table, screen)
    finally:
        table.close()


class WiredDownPin(MockPin):  # type: ignore[misc]
    """A button held down through a restart: the pin is tied to ground, so the pull-up cannot raise it."""

    held: ClassVar[set[int]] = set()

    def _set_pull(self, value: str) -> None:
        if self.info.name and any(f"GPIO{n}" == self.info.name for n in self.held):
            self._pull = value
            self._change_state(False)
            return
        super()._set_pull(value)

"""GPIO buttons: gpiozero devices whose callbacks only put an :class:`Edge` on the queue, and the
:class:`ButtonTracker` the loop runs to turn edges into at most one action per press.

Debounce and hold are judged here, on the edges' own instants (session seconds), not
by gpiozero's threads: that way the one loop owns every decision, a press script at
any ``--speed`` holds a button exactly as long as it says, and a mock pin (which
gpiozero does not debounce) chatters exactly like a real contact. On a Pi the pin
library debounces too (``bounce_time``), which only removes edges we would drop.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from firmware.actions import ActionName
from firmware.buttonmap import ButtonMap, ButtonSpec
from firmware.commands import Command, Edge


class GpioButtons:
    """One gpiozero input per button of the map (pull-up, wired to ground).

    ``DigitalInputDevice`` is gpiozero's ``Button`` without its hold thread: the hold is
    timed by the loop (above), and twelve idle hold threads would only cost a join each
    when the table stops.
    """

    def __init__(self, button_map: ButtonMap, factory: Any, post: Callable[[Command], None],
                 now: Callable[[], float]) -> None:
        from gpiozero import DigitalInputDevice  # type: ignore[import-untyped]

        self.devices: dict[str, Any] = {}
        for spec in button_map.buttons:
            device = DigitalInputDevice(spec.pin, pull_up=True, bounce_time=button_map.timing.bounce,
                                        pin_factory=factory)
            name = spec.name
            # gpiozero calls these from its own thread: stamp the instant and queue it, nothing else.
            device.when_activated = lambda name=name: post(Edge(button=name, pressed=True, at=now()))
            device.when_deactivated = lambda name=name: post(Edge(button=name, pressed=False, at=now()))
            self.devices[name] = device

    def is_pressed(self, name: str) -> bool:
        return bool(self.devices[name].is_active)

    def pin(self, name: str) -> Any:
        """The gpiozero pin object of a button (a MockPin under ``--pins mock``: drive_low/drive_high)."""
        return self.devices[name].pin

    def close(self) -> None:
        for device in self.devices.values():
            device.close()


@dataclass
class _Button:
    spec: ButtonSpec
    hold_time: float | None
    down: bool = False
    down_at: float = 0.0
    last_edge: float = float("-inf")
    held: bool = False  # its hold action has fired during this press


@dataclass(frozen=True, kw_only=True)
class Action:
    """What a press or hold asks for, stamped with the instant the button went down."""

    name: ActionName
    at: float
    button: str = ""
    hold: bool = False


class ButtonTracker:
    """Edges in, actions out: one action per press, whatever the contact or the operator does.

    - chatter: an edge within ``bounce`` of the last one taken is dropped;
    - a button without a hold action acts when it goes down; one with a hold action acts
      on release if released before its hold time, else its hold action fires once at the
      hold time (destructive ones need ``long_hold``) and its release does nothing;
    - a button already down when the program starts (held across a restart) or stuck
      never acts until it has been released and pressed again.
    """

    def __init__(self, button_map: ButtonMap, is_pressed: Callable[[str], bool] | None = None) -> None:
        self.bounce = button_map.timing.bounce
        self._buttons = {s.name: _Button(spec=s, hold_time=button_map.hold_time(s)) for s in button_map.buttons}
        self._is_pressed = is_pressed
        if is_pressed is not None:
            for b in self._buttons.values():
                if is_pressed(b.spec.name):
                    b.down, b.held = True, True  # down before we looked: wait for its release

    def edge(self, edge: Edge) -> list[Action]:
        b = self._buttons.get(edge.button)
        if b is None or edge.at - b.last_edge < self.bounce:
            return []
        if edge.pressed:
            b.last_edge = edge.at
            b.down, b.down_at, b.held = True, edge.at, False
            if b.hold_time is None:
                b.held = True  # acted at once: the release has nothing left to do
                return [Action(name=b.spec.press, at=edge.at, button=b.spec.name)]
            return []
        if not b.down:
            return []  # a release of a press we never saw
        b.last_edge = edge.at
        b.down = False
        if b.held:
            return []
        return [Action(name=b.spec.press, at=b.down_at, button=b.spec.name)]

    def next_due(self) -> float | None:
        """The earliest instant a hold action falls due (None: no button is being held toward one)."""
        due = [b.down_at + b.hold_time for b in self._buttons.values()
               if b.down and not b.held and b.hold_time is not None]
        return min(due, default=None)

    def tick(self, now: float) -> list[Action]:
        """Hold actions due by ``now``; a button found up (an edge lost in chatter) counts as a short press."""
        actions = []
        for b in self._buttons.values():
            if not b.down or b.held or b.hold_time is None or now < b.down_at + b.hold_time:
                continue
            b.held = True
            if self._is_pressed is not None and not self._is_pressed(b.spec.name):
                b.down = False
                actions.append(Action(name=b.spec.press, at=b.down_at, button=b.spec.name))
                continue
            assert b.spec.hold is not None
            actions.append(Action(name=b.spec.hold, at=b.down_at + b.hold_time, button=b.spec.name, hold=True))
        return actions

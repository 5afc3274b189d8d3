"""``courtside display follow``: a screen-only node drawing a court from its retained live MQTT topic."""

from __future__ import annotations

import argparse

from rules.errors import FileLineError


def follow(args: argparse.Namespace) -> int:
    raise FileLineError("display follow", None, "not built yet")

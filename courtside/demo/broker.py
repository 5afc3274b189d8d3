"""The demo's embedded MQTT broker: amqtt in a thread of its own with its own asyncio loop.

A laptop that tries the demo has no Mosquitto; amqtt is a pure-Python broker, good enough
for a handful of tables on loopback. It listens on a free port of 127.0.0.1 only, so nothing
of the demo is reachable from the network, and stops with the demo (``stop`` waits until
the listening socket is closed, so a second run right after finds the machine clean).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import sys
import threading
from concurrent.futures import Future
from types import TracebackType
from typing import Any

from rules import DemoError

START_TIMEOUT_S = 15.0
STOP_TIMEOUT_S = 10.0
PORT_TRIES = 3


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nobody listens on right now (the OS picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        port: int = sock.getsockname()[1]
        return port


class EmbeddedBroker:
    """``with EmbeddedBroker() as broker: broker.url`` is ``mqtt://127.0.0.1:PORT``."""

    def __init__(self, host: str = "127.0.0.1", port: int | None = None) -> None:
        self.host = host
        self._chosen = port is None  # another free port may be tried if one is taken before amqtt binds it
        self.port = port if port is not None else free_port(host)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._broker: Any = None
        self._stopped: asyncio.Event | None = None

    @property
    def url(self) -> str:
        return f"mqtt://{self.host}:{self.port}"

    def start(self) -> None:
        for _ in range(PORT_TRIES - 1):
            try:
                return self._start()
            except DemoError as err:
                if not (self._chosen and "address already in use" in str(err)):
                    raise
                self.port = free_port(self.host)  # taken between free_port() and amqtt's bind: another one
        self._start()

    def _start(self) -> None:
        ready: Future[None] = Future()
        self._thread = threading.Thread(target=self._run, args=(ready,), name="demo-broker", daemon=True)
        self._thread.start()
        try:
            ready.result(timeout=START_TIMEOUT_S)
        except Exception as err:
            self.stop()
            raise DemoError(f"the embedded MQTT broker did not start on {self.host}:{self.port}: {err}") from err

    def _run(self, ready: Future[None]) -> None:
        # Imported here: amqtt is only in the demo extra, and its import is slow.
        from amqtt.broker import Broker  # type: ignore[import-untyped]

        # amqtt logs every connection at INFO; the demo's terminal is for the tournament.
        amqtt = logging.getLogger("amqtt")
        amqtt.setLevel(logging.WARNING)
        if not any(isinstance(h, OneLineHandler) for h in amqtt.handlers):
            amqtt.addHandler(OneLineHandler())
            amqtt.propagate = False
        loop = asyncio.new_event_loop()
        self._loop = loop
        asyncio.set_event_loop(loop)
        loop.set_exception_handler(_one_line)

        async def main() -> None:
            self._stopped = asyncio.Event()
            config = {
                "listeners": {"default": {"type": "tcp", "bind": f"{self.host}:{self.port}", "max_connections": 256}},
                "plugins": {"amqtt.plugins.authentication.AnonymousAuthPlugin": {"allow_anonymous": True}},
            }
            broker = Broker(config)
            try:
                await broker.start()
            except Exception as err:
                ready.set_exception(err)
                return
            self._broker = broker
            ready.set_result(None)
            await self._stopped.wait()
            await broker.shutdown()

        try:
            loop.run_until_complete(main())
        finally:
            pending = [task for task in asyncio.all_tasks(loop) if not task.done()]
            for task in pending:
                task.cancel()
            loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
            loop.close()

    def stop(self) -> None:
        """Close every client session and the listening socket; idempotent."""
        loop, stopped, thread = self._loop, self._stopped, self._thread
        if loop is not None and stopped is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop closed between the check and the call
                loop.call_soon_threadsafe(stopped.set)
        if thread is not None:
            thread.join(STOP_TIMEOUT_S)
            if thread.is_alive():
                raise DemoError(f"the embedded MQTT broker on port {self.port} did not stop within {STOP_TIMEOUT_S} s")
        self._thread = None

    def __enter__(self) -> EmbeddedBroker:
        self.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, err: BaseException | None, tb: TracebackType | None) -> None:
        self.stop()


def _one_line(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """amqtt 0.12 drops a client's session now and then when others come and go at once ("dictionary changed
    size during iteration" in its session loop); the client connects again and nothing is lost, so the
    demo's terminal gets one line, not asyncio's traceback."""
    err = context.get("exception")
    print(f"embedded broker: a client's session ended ({type(err).__name__ if err else context.get('message')}); "
          "it connects again", file=sys.stderr, flush=True)


class OneLineHandler(logging.Handler):
    """amqtt's warnings and errors as one line each on the demo's terminal. On a loaded machine it gives up
    delivering a message to a client too slow to acknowledge it ("Timeout waiting for PUBACK") and logs the
    task with its traceback; the tables send again whatever the service has not acknowledged, so nothing is
    lost, and the terminal says so in a line rather than in a library's traceback."""

    def emit(self, record: logging.LogRecord) -> None:
        err = record.exc_info[1] if record.exc_info else None
        what = record.getMessage().split(": <", 1)[0]  # not the asyncio task's repr
        why = f" ({type(err).__name__}: {err})" if err is not None else ""
        print(f"embedded broker: {what}{why}"[:300], file=sys.stderr, flush=True)

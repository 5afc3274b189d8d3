"""The demo's embedded MQTT broker: amqtt in a process of its own.

A laptop that tries the demo has no Mosquitto; amqtt is a pure-Python broker, good enough
for a handful of tables on loopback. It listens on a free port of 127.0.0.1 only, so nothing
of the demo is reachable from the network, and stops with the demo (``stop`` waits until
the process, and so its listening socket, is gone, so a second run right after finds the
machine clean).

A process, not a thread of the demo's: amqtt leaves a client's stream unclosed now and then,
and a thread's garbage is collected by whichever thread runs the collector. The stream's
finaliser, run in the demo's thread, closed the transport through the broker's running loop,
which then raced the transport's own finaliser ("Exception ignored in: _SelectorTransport.__del__",
CI 2026-12-07). In a process of its own the broker's loop and its garbage have one thread.

The demo holds the broker's stdin: end of file (the demo stopped it, or ended without stopping
it) shuts the broker down, so it never outlives the demo.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import select
import signal
import socket
import subprocess
import sys
from types import TracebackType
from typing import IO, Any

from rules import DemoError

START_TIMEOUT_S = 15.0
STOP_TIMEOUT_S = 10.0
PORT_TRIES = 3
READY = "ready"


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
        self._process: subprocess.Popen[str] | None = None

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
        # Its own session: a Ctrl-C in the terminal reaches the demo alone, which stops the broker last.
        process = self._process = subprocess.Popen(
            [sys.executable, "-m", __name__, self.host, str(self.port)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, start_new_session=True,
        )
        assert process.stdout is not None
        said = _first_line(process.stdout, START_TIMEOUT_S)
        if said != READY:
            why = said or f"no answer within {START_TIMEOUT_S:.0f} s"
            if said == "":  # its stdout ended: so does the process, which may not have been reaped yet
                with contextlib.suppress(subprocess.TimeoutExpired):
                    why = f"it ended with status {process.wait(STOP_TIMEOUT_S)} (what it printed is above)"
            self.stop()
            raise DemoError(f"the embedded MQTT broker did not start on {self.host}:{self.port}: {why}")

    def stop(self) -> None:
        """Close every client session and the listening socket; idempotent."""
        process, self._process = self._process, None
        if process is None:
            return
        for pipe in (process.stdin, process.stdout):
            if pipe is not None:
                pipe.close()  # the broker's stdin at its end: it shuts down
        try:
            process.wait(STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:  # a broker that does not close in time has nothing the demo still needs
            process.kill()
            process.wait()

    def __enter__(self) -> EmbeddedBroker:
        self.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, err: BaseException | None, tb: TracebackType | None) -> None:
        self.stop()


def _first_line(pipe: IO[str], timeout: float) -> str | None:
    """The broker's first line ("ready" or why it failed); "" if its stdout ended first, None if it said nothing
    within ``timeout``."""
    readable, _, _ = select.select([pipe], [], [], timeout)
    return pipe.readline().strip() if readable else None


def serve(host: str, port: int) -> int:
    """The broker process: listen, say "ready" on stdout, run until stdin ends or SIGTERM."""
    # Imported here: amqtt is only in the demo extra, and its import is slow.
    from amqtt.broker import Broker  # type: ignore[import-untyped]

    quiet_amqtt()

    async def main() -> int:
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(_one_line)
        stopped = asyncio.Event()
        config = {
            "listeners": {"default": {"type": "tcp", "bind": f"{host}:{port}", "max_connections": 256}},
            "plugins": {"amqtt.plugins.authentication.AnonymousAuthPlugin": {"allow_anonymous": True}},
        }
        broker = Broker(config)
        try:
            await broker.start()
        except Exception as err:
            print(err, flush=True)
            return 1
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stopped.set)
        loop.add_reader(sys.stdin.fileno(), _until_end, loop, stopped)
        print(READY, flush=True)
        os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # the demo reads one line; anything else is the terminal's
        await stopped.wait()
        await broker.shutdown()
        return 0

    return asyncio.run(main())  # which cancels amqtt's tasks left over, and closes the loop


def _until_end(loop: asyncio.AbstractEventLoop, stopped: asyncio.Event) -> None:
    """The demo writes nothing; its end of the pipe closed (it stopped the broker or ended) stops the broker."""
    if not os.read(sys.stdin.fileno(), 512):
        loop.remove_reader(sys.stdin.fileno())
        stopped.set()


def quiet_amqtt() -> None:
    """amqtt logs every connection at INFO; the demo's terminal is for the tournament."""
    amqtt = logging.getLogger("amqtt")
    amqtt.setLevel(logging.WARNING)
    if not any(isinstance(h, OneLineHandler) for h in amqtt.handlers):
        amqtt.addHandler(OneLineHandler())
        amqtt.propagate = False


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


if __name__ == "__main__":
    sys.exit(serve(sys.argv[1], int(sys.argv[2])))

"""Serve the pages from the service's process: uvicorn in a thread of its own, beside the service's loop.

``courtside server --http HOST:PORT`` calls :func:`start_web`; ``stop()`` ends it with the service.
Behind a reverse proxy (Caddy, TLS), pass the proxy's address in ``trusted_proxies``: X-Forwarded-For
and X-Forwarded-Proto are believed from those addresses only, so the login back-off and the stream
limits see each client's address, and nobody else can claim another's. The limits on what a client may
hold (:mod:`server.web.limits`) apply in any case.
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from typing import Any

import uvicorn

from rules import CourtsideError
from server.service import Service
from server.web import create_app
from server.web.limits import CONNECTIONS, REQUEST_TIMEOUT, uvicorn_options
from server.web.service_backend import ServiceBackend


class WebServer:
    def __init__(self, server: uvicorn.Server, thread: threading.Thread) -> None:
        self.server, self.thread = server, thread

    @property
    def protocol(self) -> Any:
        """The connections' class, whose counts (closed for slowness, refused) the tests and benchmarks read."""
        return self.server.config.http

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


def parse_http(address: str) -> tuple[str, int]:
    host, _, port = address.rpartition(":")
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise CourtsideError(f"--http {address!r}: use HOST:PORT, e.g. 0.0.0.0:8080")
    return host.strip("[]") or "127.0.0.1", int(port)


def start_web(service: Service, http: str, db_url: str, *, lang: str | None = None, secure_cookies: bool = True,
              trusted_proxies: tuple[str, ...] = (), connections: int = CONNECTIONS,
              request_timeout: float = REQUEST_TIMEOUT, listening: socket.socket | None = None) -> WebServer:
    """``db_url``: the service's database, which also keeps the desk's accounts. ``secure_cookies``:
    False only on a trusted LAN without TLS (``courtside server --trusted-lan``). ``listening``: a socket
    already bound to ``http`` by whoever started the service (the demo), served instead of binding again."""
    host, port = parse_http(http)
    app = create_app(ServiceBackend(service), accounts_url=db_url, lang=lang, secure_cookies=secure_cookies)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="off",
                            proxy_headers=bool(trusted_proxies),
                            forwarded_allow_ips=list(trusted_proxies) or None, timeout_graceful_shutdown=2,
                            **uvicorn_options(frozenset(trusted_proxies), connections, request_timeout))
    server = uvicorn.Server(config)
    sockets = [listening] if listening else None
    thread = threading.Thread(target=lambda: asyncio.run(server.serve(sockets)), name="courtside-web", daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise CourtsideError(f"--http {http}: the web pages could not be served there (address in use?)")
        time.sleep(0.02)
    return WebServer(server, thread)

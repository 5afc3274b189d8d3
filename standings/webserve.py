"""``courtside server --http``: the web part's server, started in the service's process.

A re-export of :func:`standings.web.serve.start_web` (uvicorn in a thread beside the service's
loop, the pages over :class:`standings.web.service_backend.ServiceBackend`), at the name
``courtside/commands/server.py`` imports.
"""

from standings.web.serve import WebServer, start_web

__all__ = ["WebServer", "start_web"]

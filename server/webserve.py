"""``courtside server --http``: the web part's server, started in the service's process.

A re-export of :func:`server.web.serve.start_web` (uvicorn in a thread beside the service's
loop, the pages over :class:`server.web.service_backend.ServiceBackend`), at the name
``courtside/commands/server.py`` imports.
"""

from server.web.serve import WebServer, start_web

__all__ = ["WebServer", "start_web"]

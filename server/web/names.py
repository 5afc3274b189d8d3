"""Any name a tournament file allows, in a route: ``/team/SG%20Nord%2FS%C3%BCd`` is the team "SG Nord/Süd".

The server decodes the path before routing, so an encoded "/" inside a name would split it in two
(the team's page answered 404). :class:`EncodedSlashes` gives the router a path in which a name's own
"/" and "%" stay encoded, and the ``name`` convertor (``/team/{team:name}``) decodes each name once.
A path without an encoded "/" or "%" is left exactly as the server decoded it (nothing in it is
escaped, so the convertor's decoding changes nothing).
"""

from __future__ import annotations

import re
from urllib.parse import quote, unquote

from starlette.convertors import Convertor, register_url_convertor
from starlette.types import ASGIApp, Receive, Scope, Send

_ESCAPED = re.compile(rb"%2[fF5]")


class NameConvertor(Convertor[str]):
    regex = "[^/]+"

    def convert(self, value: str) -> str:
        return unquote(value)

    def to_string(self, value: str) -> str:
        return quote(value, safe="")


register_url_convertor("name", NameConvertor())


class EncodedSlashes:
    """ASGI middleware: the path as the router should see it, each segment's "/" and "%" still escaped."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        raw = scope.get("raw_path")
        if scope["type"] == "http" and raw and _ESCAPED.search(raw):
            segments = raw.split(b"?", 1)[0].decode("ascii", "replace").split("/")
            scope = {**scope, "path": "/".join(_escaped(unquote(s)) for s in segments)}
        await self.app(scope, receive, send)


def _escaped(segment: str) -> str:
    return segment.replace("%", "%25").replace("/", "%2F")

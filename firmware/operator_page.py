"""The official's view as a page the table itself serves, for a phone or tablet at the table.

Read-only, by choice: the buttons stay the table's only input. A page with buttons on a venue's network would let
anyone who joins it press them (the table has no accounts), and a phone's touch screen under pressure is a worse
button than an arcade one. The page reloads itself every second (no script needed); ``/operator.json`` is the same
view as data.

The loop makes the page's bytes after each change (``show``); the HTTP server's threads only hand out the bytes made
last, so nothing of the table runs in them.
"""

from __future__ import annotations

import json
import logging
import threading
from dataclasses import asdict
from html import escape
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from display.operator import OperatorView

log = logging.getLogger("courtside.table")

STYLE = """body{margin:0;background:#000;color:#fff;font:16px/1.35 system-ui,sans-serif}
header{background:#111820;color:#a7b0ba;padding:.4em .8em}main{padding:.4em .8em}
.board{font-size:1.3em}.now{color:#ffd21f;font-size:1.6em;font-weight:bold;margin:.3em 0}
.done{color:#2fbf4a}.refused{color:#ff5a4f;font-weight:bold}.recovered{color:#ffb74d}
.undo,.journal,details{color:#a7b0ba}ul{padding-left:1.2em;margin:.4em 0}#penalties{color:#ffd21f}
.ok{color:#2fbf4a}.off{color:#ff8a80}"""


def page_html(view: OperatorView) -> str:
    feedback = "" if view.feedback is None else \
        f'<p class="{view.feedback.kind}" id="feedback">{escape(view.feedback.text)}</p>'
    entered = "".join(f"<li>{escape(t)}</li>" for t in view.entered)
    penalties = "".join(f"<li>{escape(t)}</li>" for t in view.penalties)
    keys = "".join(f"<li>{escape(k)}</li>" for k in view.keys)
    hint = f" · {escape(view.first_minute)}" if view.first_minute else ""
    return (f'<!doctype html><html lang="en"><meta charset="utf-8"><meta http-equiv="refresh" content="1">'
            f'<meta name="viewport" content="width=device-width,initial-scale=1">'
            f"<title>{escape(view.court)} · table</title><style>{STYLE}</style>"
            f"<header>{escape(view.court)} · {escape(view.match)}</header><main>"
            f'<p class="board" id="board">{escape(view.board)}</p><ul id="penalties">{penalties}</ul>{feedback}'
            f'<p class="now" id="now">{escape(view.entering or view.next_press)}</p>'
            f'<p class="undo" id="undo">{escape(view.undo)}</p><ul id="entered">{entered}</ul>'
            f'<p class="{"ok" if view.link_ok else "off"}" id="link">{escape(view.link)}</p>'
            f'<p class="journal">{escape(view.journal)}{hint}</p>'
            f"<details><summary>Keys and holds</summary><ul>{keys}</ul></details></main></html>")


class OperatorPage:
    """``show(view)`` from the loop; ``address`` once serving (the port 0 asks for a free one)."""

    def __init__(self, host: str, port: int) -> None:
        self._made: tuple[bytes, bytes] = (page_html(_EMPTY).encode(), b"{}")
        self._view: OperatorView | None = None
        page = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                html, data = page._made
                if self.path in ("/", "/index.html"):
                    self._send(200, "text/html; charset=utf-8", html)
                elif self.path == "/operator.json":
                    self._send(200, "application/json", data)
                else:
                    self._send(404, "text/plain; charset=utf-8", b"not found\n")

            def _send(self, status: int, kind: str, body: bytes) -> None:
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: object) -> None:
                pass  # a phone reloading every second: not worth a log line

        self.server = ThreadingHTTPServer((host, port), Handler)
        self.server.daemon_threads = True
        self.address = f"http://{host}:{self.server.server_address[1]}/"
        self._thread = threading.Thread(target=self.server.serve_forever, name="operator-page", daemon=True)
        self._thread.start()
        log.info("operator view at %s", self.address)

    def show(self, view: OperatorView) -> None:
        if view == self._view:
            return
        self._view = view
        # One tuple, replaced whole: a server thread reads either the old page or the new one.
        self._made = (page_html(view).encode(), json.dumps(asdict(view), ensure_ascii=False).encode())

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


_EMPTY = OperatorView(court="", match="", board="starting", penalties=(), entering="", next_press="", feedback=None,
                      entered=(), undo="", link="", link_ok=True, journal="", buttons=(), keys=())

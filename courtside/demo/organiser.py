"""The demo's organiser: settles the ties that only a drawing of lots or a penalty competition can
break, at the desk, as the organiser of a real tournament does (docs: the organiser's desk).

A pool whose last match is played may leave teams level on everything the ruleset compares; the
standings never guess, so the next stage waits. The demo logs in to the desk with an account of
its own and records the decision through the desk's API (``POST /api/v1/desk/decisions``), with
the order drawn from the demo's seed. Every decision is also written to ``decisions.csv`` so
``courtside tournament show --decisions`` can check the final ranking.
"""

from __future__ import annotations

import random
import re
import secrets
import subprocess
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx

from courtside.demo.parts import courtside_argv
from rules import DemoError

ACCOUNT = "organiser"
_CSRF = re.compile(r'name="csrf"\s+value="([^"]+)"|value="([^"]+)"\s+name="csrf"')


def _csrf(html: str, where: str) -> str:
    m = _CSRF.search(html)
    if m is None:
        raise DemoError(f"the desk's {where} page has no CSRF token")
    return m.group(1) or m.group(2)


def create_desk_account(db_url: str, name: str = ACCOUNT) -> str:
    """A desk account on the demo's database, as ``courtside users add`` makes one; its password."""
    password = secrets.token_urlsafe(9)
    done = subprocess.run(courtside_argv("users", "add", name, "--db", db_url, "--password-stdin"),
                          input=password + "\n", capture_output=True, text=True, timeout=60, check=False)
    if done.returncode != 0:
        raise DemoError(f"could not create the demo's desk account {name!r}: {done.stderr.strip()}")
    return password


class Organiser:
    """Logs in as ``account`` (the one the demo prints for its desk) when it first writes."""

    def __init__(self, base_url: str, account: str, password: str, seed: int, decisions: Path) -> None:
        self.base_url = base_url.rstrip("/")
        self.account, self.password = account, password
        self.rng = random.Random(seed)
        self.decisions = decisions
        self._client: httpx.Client | None = None
        self._token = ""
        self.recorded: list[tuple[str, str, list[str]]] = []

    def _log_in(self) -> httpx.Client:
        """Log in at the desk; the session cookie is sent by hand because the service marks it Secure and the
        demo speaks plain HTTP on loopback."""
        client = httpx.Client(base_url=self.base_url, timeout=10.0, follow_redirects=False)
        page = client.get("/desk/login")
        cookie = _session_cookie(page)
        response = client.post("/desk/login", headers={"Cookie": cookie},
                               data={"csrf": _csrf(page.text, "login"), "name": self.account, "password": self.password,
                                     "next": "/desk"})
        if response.status_code != 303:
            raise DemoError(f"the desk refused the demo's login ({response.status_code})")
        cookie = _session_cookie(response)
        desk = client.get("/desk", headers={"Cookie": cookie})
        self._token = _csrf(desk.text, "desk")
        client.headers["Cookie"] = cookie
        return client

    def settle(self, pool: dict[str, Any]) -> int:
        """Record a decision for each open tie of a finished pool; how many were recorded."""
        if pool.get("played") != pool.get("expected") or not pool.get("unresolved"):
            return 0
        count = 0
        for tie in pool["unresolved"]:
            needs = str(tie.get("needs") or "")
            method = "penalty_competition" if "penalty" in needs and "lots" not in needs else "lots"
            order = list(tie["teams"])
            self.rng.shuffle(order)
            self._record(str(pool["pool"]), method, order)
            count += 1
        return count

    def post(self, path: str, body: dict[str, Any]) -> httpx.Response:
        """A desk write through the API (``/api/v1/desk/...``), logged in on first use."""
        if self._client is None:
            self._client = self._log_in()
        response = self._client.post(path, headers={"X-CSRF-Token": self._token}, json=body)
        if response.status_code == 403:  # the service restarted and forgot the session: log in again, once
            self._client.close()
            self._client = self._log_in()
            response = self._client.post(path, headers={"X-CSRF-Token": self._token}, json=body)
        return response

    def page(self, path: str) -> str:
        """A desk page as the logged-in organiser sees it."""
        if self._client is None:
            self._client = self._log_in()
        return self._client.get(path).text

    def _record(self, pool: str, method: str, order: list[str]) -> None:
        response = self.post("/api/v1/desk/decisions", {"pool": pool, "method": method, "order": order,
                                                        "why": "drawn by courtside demo's organiser"})
        if response.status_code != 200:
            raise DemoError(f"the desk refused the decision for pool {pool}: {response.text[:300]}")
        self.recorded.append((pool, method, order))
        lines = ["pool,method,order"] + [f"{quote_cell(p)},{m},{quote_cell('>'.join(o))}" for p, m, o in self.recorded]
        self.decisions.write_text("\n".join(lines) + "\n", encoding="utf-8")

    def close(self) -> None:
        if self._client is not None:
            self._client.close()


def quote_cell(text: str) -> str:
    return '"' + text.replace('"', '""') + '"' if any(c in text for c in ',"\n') else text


def _session_cookie(response: httpx.Response) -> str:
    """``name=value`` of the session cookie the response sets (the first Set-Cookie)."""
    for header in response.headers.get_list("set-cookie"):
        pair = header.split(";", 1)[0].strip()
        if "=" in pair:
            return pair
    raise DemoError(f"the desk set no session cookie on {quote(str(response.url))}")

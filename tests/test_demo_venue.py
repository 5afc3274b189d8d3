"""courtside.demo.venue: the demo's broker and service as a venue runs them; ``--lan`` for the club's own phones."""

from __future__ import annotations

import io
import socket
from pathlib import Path

import httpx
import pytest

from courtside.demo.venue import DemoOptions, Venue
from rules import DemoError


def test_lan_serves_the_pages_on_every_address_with_the_desk_s_plain_http_warning(tmp_path: Path) -> None:
    """A phone in the hall reaches the demo's pages through one of this machine's addresses, not 127.0.0.1
    alone; 127.0.0.2 stands for it (loopback, yet answered only by a server listening on every address)."""
    venue = Venue(DemoOptions(tournament="ice-hockey", headless=True, lan=True, out=io.StringIO()))
    try:
        venue.start()
        other = f"http://127.0.0.2:{venue.http_port}/"
        assert httpx.get(other, timeout=10).status_code == 200
        login = httpx.get(f"{other}desk/login", timeout=10).text
        assert 'id="plain-http"' in login  # the desk says it runs over plain HTTP, on every device
        assert all(address.endswith(f":{venue.http_port}/") for address in venue.lan_addresses())
    finally:
        venue.stop()


def test_without_lan_the_pages_answer_on_this_machine_only(tmp_path: Path) -> None:
    venue = Venue(DemoOptions(tournament="ice-hockey", headless=True, out=io.StringIO()))
    try:
        venue.start()
        assert httpx.get(venue.web, timeout=10).status_code == 200
        try:
            httpx.get(f"http://127.0.0.2:{venue.http_port}/", timeout=10)
            reached = True
        except httpx.ConnectError:
            reached = False
        assert not reached
    finally:
        venue.stop()


def test_the_lan_addresses_are_this_machine_s_own_but_loopback() -> None:
    import ipaddress

    from courtside.demo.venue import interface_addresses

    for address in interface_addresses():
        ip = ipaddress.ip_address(address)
        assert ip.version == 4 and not ip.is_loopback


def test_the_pages_port_is_the_demo_s_from_its_choice_on_so_no_other_program_takes_it() -> None:
    """The demo binds the port it names and hands the socket to the service: while the service starts,
    another program asking for a port cannot be given that one, and connecting reaches the demo's pages."""
    venue = Venue(DemoOptions(tournament="ice-hockey", headless=True, out=io.StringIO()))
    try:
        with socket.socket() as other:
            try:
                other.bind(("127.0.0.1", venue.http_port))
                taken = False
            except OSError:
                taken = True
        assert taken
        venue.start()
        assert "ice" in httpx.get(venue.web, timeout=10).text.lower()
    finally:
        venue.stop()


def test_a_given_port_in_use_is_refused_with_the_port_and_why() -> None:
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        with pytest.raises(DemoError, match=f"--http-port {port}: .*127.0.0.1:{port} .*[Aa]ddress already in use"):
            Venue(DemoOptions(tournament="ice-hockey", headless=True, http_port=port, out=io.StringIO()))

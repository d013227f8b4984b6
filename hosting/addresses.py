"""The addresses the site is reached at: a listen address split into host and port, this
machine's addresses another device may reach (from `ip`, else from the sockets), and the URLs
`scripts/serve` prints to open, every interface's when it listens on all of them.
"""

from __future__ import annotations

import ipaddress
import re
import shutil
import socket
import subprocess


def split_listen(listen: str) -> tuple[str, int]:
    """``"0.0.0.0:8000"`` → ("0.0.0.0", 8000); ``"[::]:8000"`` → ("::", 8000)."""
    host, sep, port = listen.rpartition(":")
    if not sep or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"{listen!r} is not HOST:PORT (for example 0.0.0.0:8000)")
    host = host.strip("[]") or "0.0.0.0"
    return host, int(port)


def _ip_command_addresses() -> list[str]:
    ip = shutil.which("ip")
    if not ip:
        return []
    try:
        out = subprocess.run(
            [ip, "-o", "addr", "show", "up"], capture_output=True, text=True, timeout=5
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    found = re.findall(r"\binet6?\s+([0-9A-Fa-f.:]+)/\d+", out)
    return found


def _socket_addresses() -> list[str]:
    found: list[str] = []
    # The address the default route leaves from (no packet is sent for a UDP connect).
    for family, target in ((socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1")):
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as probe:
                probe.connect((target, 9))
                found.append(probe.getsockname()[0])
        except OSError:
            pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None):
            found.append(str(info[4][0]))
    except OSError:
        pass
    return found


def local_addresses() -> list[str]:
    """This machine's addresses that another device may reach: IPv4 first, no loopback and
    no link-local (fe80::, 169.254.x.x need an interface name to be used)."""
    seen: dict[str, None] = {}
    for text in _ip_command_addresses() or _socket_addresses():
        try:
            address = ipaddress.ip_address(text.split("%")[0])
        except ValueError:
            continue
        if address.is_loopback or address.is_link_local or address.is_unspecified:
            continue
        seen.setdefault(str(address), None)
    return sorted(seen, key=lambda a: (":" in a, a))


def urls(host: str, port: int, *, scheme: str = "http") -> list[str]:
    """The addresses to open: every interface address when `host` is a wildcard."""
    default_port = {"http": 80, "https": 443}[scheme]
    suffix = "" if port == default_port else f":{port}"

    def url(address: str) -> str:
        shown = f"[{address}]" if ":" in address else address
        return f"{scheme}://{shown}{suffix}/"

    if host in ("0.0.0.0", "::", ""):
        wanted = local_addresses()
        if host != "::":
            wanted = [a for a in wanted if ":" not in a]
        return [url("127.0.0.1"), *(url(a) for a in wanted)]
    return [url(host)]

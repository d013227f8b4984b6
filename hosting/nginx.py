"""The nginx configuration `scripts/serve` writes at every start: nginx in the foreground as the
current user, every file it writes under one state folder, /static/ served from STATIC_ROOT,
every other request read whole and handed to the application server (one or several), the
security headers of its own answers added, and with LIVE_STALE_SECONDS the public pages kept for
visitors (`hosting/live_cache.py`). Text only: nothing here starts nginx or reads Django's
settings.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from hosting.addresses import split_listen
from hosting.live_cache import live_cache

# The file types under STATIC_ROOT (ours and the Django admin's); nginx answers with these
# instead of depending on where the host keeps its mime.types.
STATIC_TYPES = {
    "text/html": "html",
    "text/css": "css",
    "text/plain": "txt md",
    "application/javascript": "js mjs",
    "application/json": "json map",
    "image/svg+xml": "svg",
    "image/png": "png",
    "image/gif": "gif",
    "image/jpeg": "jpg jpeg",
    "image/x-icon": "ico",
    "image/webp": "webp",
    "font/woff": "woff",
    "font/woff2": "woff2",
}

#: The largest request body nginx takes (an archive or a CSV of players is the largest).
BODY_LIMIT = "32m"
# How long nginx keeps an idle connection to the application open for the next request. The
# application server must keep it longer (scripts/serve: gunicorn --keep-alive
# APP_KEEP_ALIVE_SECONDS): were gunicorn to close it first, a request nginx sent on it as it
# closed would fail ("upstream prematurely closed connection"), a 502 for a POST nginx may not
# send again.
UPSTREAM_IDLE_SECONDS = 60
APP_KEEP_ALIVE_SECONDS = 75


@dataclass(frozen=True)
class Proxy:
    """What the nginx in front of the application server does.

    `listen` is HOST:PORT (``[::]:8000`` for IPv6); `upstream` is the application server,
    ``unix:/path/to.sock`` or ``127.0.0.1:PORT``, or several separated by spaces (nginx shares
    the requests between them; they agree on everything through the database);
    `static_root` is Django's STATIC_ROOT;
    `state` is a folder nginx may write (pid, logs, temporary files). With `tls_cert` and
    `tls_key` it answers HTTPS itself. With `behind_proxy`, another proxy in front has set
    X-Forwarded-Proto and started X-Forwarded-For, and both are passed on. `user` is for a
    start as root only: nginx would hand its workers to "nobody" otherwise. With
    `live_seconds`, nginx keeps the public pages' live updates that long (`hosting.live_cache`).
    """

    listen: str
    upstream: str
    static_root: Path
    state: Path
    tls_cert: Path | None = None
    tls_key: Path | None = None
    behind_proxy: bool = False
    workers: int = 1
    user: str | None = None
    live_seconds: int = 0


def _upstream_address(address: str) -> str:
    if address.startswith("unix:"):
        return "unix:" + _path(Path(address[5:]).resolve())
    return address


def _listen_address(listen: str) -> str:
    host, port = split_listen(listen)
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def _path(path: Path) -> str:
    text = str(path)
    if re.search(r"[\s;{}\"'\\$]", text):
        raise ValueError(f"nginx cannot be given the path {text!r}: move it to a plainer one")
    return text


# Connections one nginx worker holds at once, clients' and gunicorn's together.
WORKER_CONNECTIONS = 8192

# The security headers of the answers nginx makes itself (static files; its 413, 502, 504 and
# the like), as the application sends them on its own answers (config/settings.py): nginx adds
# one only where the application's answer has none, so no answer carries a header twice.
OWN_ANSWER_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Content-Security-Policy": (
        "default-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
    ),
}


def _header_variable(name: str) -> str:
    return "$own_" + name.lower().replace("-", "_")


def _own_header_maps() -> str:
    """For each header: the value nginx adds, empty (nginx then adds nothing) where the
    application's answer has one."""
    maps = []
    for name, value in OWN_ANSWER_HEADERS.items():
        upstream = "$upstream_http_" + name.lower().replace("-", "_")
        maps.append(
            f"    map {upstream} {_header_variable(name)} {{\n"
            f'        "" "{value}";\n'
            f'        default "";\n'
            f"    }}"
        )
    return "\n".join(maps)


def _own_headers(indent: str) -> str:
    """The lines adding the headers of nginx's own answers, errors included (`always`). Said
    in every block that has add_header lines of its own: nginx passes them down only to
    blocks that have none."""
    return "\n".join(
        f"{indent}add_header {name} {_header_variable(name)} always;" for name in OWN_ANSWER_HEADERS
    )


def nginx_config(proxy: Proxy) -> str:
    """The whole nginx.conf: nginx runs in the foreground as the current user, keeps every
    file it writes under `proxy.state`, serves /static/ from STATIC_ROOT and hands everything
    else to the application server.

    nginx reads each request body whole (to disk past 128 KB) before passing it on, and reads
    the answer whole before trickling it to a slow client: a phone on a weak signal then holds
    an nginx connection, which costs nearly nothing, and not one of the application server's
    few threads."""
    state = proxy.state.resolve()
    static_root = proxy.static_root.resolve()
    servers = "\n".join(
        f"        server {_upstream_address(address)} fail_timeout=0;"
        for address in proxy.upstream.split()
    )
    tls = proxy.tls_cert is not None and proxy.tls_key is not None
    scheme = "$http_x_forwarded_proto" if proxy.behind_proxy else "$scheme"
    types = "\n".join(f"        {kind} {ext};" for kind, ext in STATIC_TYPES.items())
    tls_lines = (
        f"        ssl_certificate {_path(proxy.tls_cert.resolve())};\n"  # type: ignore[union-attr]
        f"        ssl_certificate_key {_path(proxy.tls_key.resolve())};\n"  # type: ignore[union-attr]
        "        ssl_protocols TLSv1.2 TLSv1.3;\n"
        "        ssl_session_cache shared:tls:10m;\n"
        if tls
        else ""
    )
    s = _path(state)
    passed = _passed_on(scheme)
    live_http, live_location = ("", "")
    if proxy.live_seconds:
        live_http, live_location = live_cache(s, proxy.live_seconds, passed)
    user_line = f"user {proxy.user};\n" if proxy.user else ""
    return f"""\
# Written by scripts/serve (hosting/commands.py); it is written again at every start.
daemon off;
{user_line}worker_processes {max(1, proxy.workers)};
pid {s}/nginx.pid;
error_log stderr warn;
# Every phone with a page open keeps a connection (kept alive between its polls), and each
# request passed on holds a second one to gunicorn: 1024 refused the 2,001st phone's connections
# (benchmarks/venue_load.py, 2,000 viewers). Idle connections cost nginx a few kB each.
worker_rlimit_nofile {2 * WORKER_CONNECTIONS + 64};

events {{
    worker_connections {WORKER_CONNECTIONS};
}}

http {{
    types {{
{types}
    }}
    default_type application/octet-stream;
    charset utf-8;
    charset_types text/css text/plain application/javascript application/json image/svg+xml;
    access_log {s}/access.log;
    server_tokens off;
    sendfile on;
    tcp_nopush on;

    # Every file nginx writes stays in {s}: it runs as the current user.
    client_body_temp_path {s}/client_body;
    proxy_temp_path {s}/proxy;
    fastcgi_temp_path {s}/fastcgi;
    uwsgi_temp_path {s}/uwsgi;
    scgi_temp_path {s}/scgi;

    # Slow clients: a request must arrive, and an answer be taken, at a steady pace.
    client_header_timeout 30s;
    client_body_timeout 30s;
    send_timeout 30s;
    keepalive_timeout 30s;
    client_max_body_size {BODY_LIMIT};
    client_body_buffer_size 128k;

    # Names with a content hash (collectstatic's manifest) never change; the others may.
    map $uri $static_cache {{
        "~\\.[0-9a-f]{{12}}\\.[A-Za-z0-9]+$" "public, max-age=31536000, immutable";
        default "public, max-age=3600";
    }}

{live_http}
    upstream app {{
{servers}
        keepalive 16;
        keepalive_timeout {UPSTREAM_IDLE_SECONDS}s;
    }}

{_own_header_maps()}

    server {{
        listen {_listen_address(proxy.listen)}{" ssl" if tls else ""} default_server;
        server_name _;
{tls_lines}{_own_headers("        ")}

        location /static/ {{
            alias {_path(static_root)}/;
            gzip_static on;
            access_log off;
            log_not_found off;
            add_header Cache-Control $static_cache;
{_own_headers("            ")}
        }}

        location / {{
{passed}
        }}

        # A player's private link holds its secret in the address: not written to the log.
        location /p/ {{
{passed}
            access_log off;
        }}
{live_location}    }}
}}
"""


def _passed_on(scheme: str) -> str:
    """The lines of a location handing its requests to the application server."""
    return f"""\
            proxy_pass http://app;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto {scheme};
            proxy_redirect off;
            # Read the whole request before the application sees it, and the whole answer
            # before sending it on (nginx's defaults, said here because they matter).
            proxy_request_buffering on;
            proxy_buffering on;
            proxy_buffers 32 16k;
            proxy_busy_buffers_size 64k;
            proxy_connect_timeout 5s;
            proxy_read_timeout 120s;"""

"""What `scripts/serve` needs beyond Django: the nginx configuration it runs, the addresses to
print, the database to create and the secret key to keep.

Plain functions, so that the tests can call them, and a small command line for the script:

    python -m hosting.commands nginx-config --listen 0.0.0.0:8000 --upstream unix:var/app.sock \
        --static-root staticfiles --state var/nginx
    python -m hosting.commands addresses
    python -m hosting.commands ensure-database postgres://root@127.0.0.1:5432/mahjong
    python -m hosting.commands secret-key var/secret_key

Nothing here imports Django settings: it runs before the settings can be read (the secret key
and the database may not exist yet).
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

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
    `live_seconds`, nginx keeps the public pages' live updates that long (`_live_cache`).
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


def split_listen(listen: str) -> tuple[str, int]:
    """``"0.0.0.0:8000"`` → ("0.0.0.0", 8000); ``"[::]:8000"`` → ("::", 8000)."""
    host, sep, port = listen.rpartition(":")
    if not sep or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"{listen!r} is not HOST:PORT (for example 0.0.0.0:8000)")
    host = host.strip("[]") or "0.0.0.0"
    return host, int(port)


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
        live_http, live_location = _live_cache(s, proxy.live_seconds, passed)
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


# The public pages whose live updates every viewer shares (tournament.web.live.conditional_live:
# the standings, a round, a table), not the projector's clock, which must not lag.
LIVE_PAGES = r"/t/[^/]+/(standings|rounds/[0-9]+|rounds/[0-9]+/tables/[0-9]+)/"
# The public pages a visitor reads whole, and those every phone opens at once when a round is
# seated (the tournament's page, a player's): kept like the live updates, for visitors only.
VISITOR_PAGES = (
    r"/t/[^/]+/(standings/|rounds/[0-9]+/|rounds/[0-9]+/tables/[0-9]+/|players/[A-Za-z0-9._-]+/)?"
)

# Django's default cookie names (config/settings.py keeps them; a test checks).
SESSION_COOKIE = "sessionid"
LANGUAGE_COOKIE = "django_language"
MESSAGES_COOKIE = "messages"


def _live_cache(state: str, seconds: int, passed: str) -> tuple[str, str]:
    """The http-level lines and the location that keep the public pages (VISITOR_PAGES, whole
    and their htmx updates) `seconds` in nginx, as the application keeps the live updates for
    LIVE_STALE_SECONDS (tournament.web.live): every visitor of a page in that time is answered
    by nginx, 304 when their copy is the one kept, without a request to the application,
    whatever the request carries: a first poll, a poll from a client that sends no copy back,
    a whole page opened by every phone at once (a reload storm when a round is seated).

    Kept only for visitors: a request with no session cookie, no Authorization and no
    message waiting for them (Django's messages cookie), answered 200 without a cookie set
    (nginx keeps no answer that sets one; the public pages hold no CSRF token, see
    config/urls.py). The key is what the answer depends on besides the data: the address,
    whole page or update and the part asked for, the language (its cookie and the browser's
    Accept-Language) and whether the client takes gzip (Django's GZipMiddleware compresses for
    those that do), so the answer's "Vary: Cookie" is not needed to tell visitors apart. A page
    drawn whole may be up to `seconds` old, as its updates may: a visitor never sees a page
    newer than the updates that follow it.

    An answer is kept as long as its X-Accel-Expires says (tournament.web.live.answer_live:
    what is left of the seconds an update may lag, longer while the machine is busy), else
    `seconds`. When it runs out, one request goes to the application, marked X-Live-Refill
    (it may send the last update it drew, see tournament.web.live.Kept.answer); the others are
    sent the answer kept until then while it is answered, so a visitor may see an update later
    by as long as the application takes to answer that request."""
    http = f"""\
    # The public pages and their live updates, kept as long as the application says
    # (X-Accel-Expires), else {seconds} s (LIVE_STALE_SECONDS).
    proxy_cache_path {state}/live levels=1:2 keys_zone=live:8m max_size=256m inactive=5m
                     use_temp_path=off;
    map "$cookie_{SESSION_COOKIE}:$http_authorization:$cookie_{MESSAGES_COOKIE}" $live_not_kept {{
        "::" 0;
        default 1;
    }}
    map $http_accept_encoding $live_gzip {{
        "~*gzip" gzip;
        default "";
    }}
    # A request that reaches the application while it could have been answered from what is
    # kept fills that again for every visitor: the application may send the last update it
    # drew (tournament.web.live.Kept.answer). An empty value sends no header, the client's
    # neither.
    map $live_not_kept $live_refill {{
        0 1;
        default "";
    }}
"""
    key = (
        "$request_uri|$http_hx_request|$http_hx_target|"
        f"$cookie_{LANGUAGE_COOKIE}|$http_accept_language|$live_gzip"
    )
    location = f"""\

        location ~ ^{VISITOR_PAGES}$ {{
{passed}
            proxy_cache live;
            proxy_cache_key "{key}";
            proxy_cache_valid 200 {seconds}s;
            proxy_ignore_headers Cache-Control Expires Vary;
            proxy_no_cache $live_not_kept;
            proxy_cache_bypass $live_not_kept;
            proxy_set_header X-Live-Refill $live_refill;
            # One request to the application when the kept answer runs out, not one a visitor:
            # for a new one the others wait for it; for one run out, they are sent the one kept
            # until then while the application answers (UPDATING).
            proxy_cache_lock on;
            proxy_cache_lock_timeout 10s;
            proxy_cache_use_stale updating;
            # HIT: answered from what nginx keeps; MISS, EXPIRED, BYPASS: by the application.
            add_header X-Live-Cache $upstream_cache_status;
            # No headers of nginx's own here: a kept answer carries the application's.
        }}
"""
    return http, location


# --- Addresses -------------------------------------------------------------------------------


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


# --- Database ----------------------------------------------------------------------------------

NO_SERVER = """\
No PostgreSQL server answers at {where} ({error}).
Either
  - install and start one on this machine (Debian/Ubuntu: sudo apt-get install postgresql;
    macOS: brew install postgresql@16 && brew services start postgresql@16), then run
    scripts/serve again: it creates the database {name!r} itself; or
  - give the address of another one: DATABASE_URL=postgres://user:password@host:5432/{name} \
scripts/serve"""

NOT_ALLOWED = """\
The PostgreSQL server at {where} refused {user!r} ({error}).
Create a role for this user that may create databases, once:
  sudo -u postgres createuser --createdb {user}
or create the database yourself and give its URL:
  sudo -u postgres createdb --owner=<user> {name}
  DATABASE_URL=postgres://<user>:<password>@127.0.0.1:5432/{name} scripts/serve"""


def ensure_database(url: str) -> str:
    """Create the PostgreSQL database `url` names when it is missing; say what happened.
    Raises SystemExit with what to do when there is no server or no right to create it."""
    import psycopg
    from psycopg.conninfo import make_conninfo

    from config import env

    database = env.parse_database_url(url, base_dir=Path.cwd())
    if database["ENGINE"] != "django.db.backends.postgresql":
        return f"Using {database['NAME']} (not PostgreSQL: fine for trying, not for an event)."
    name = str(database["NAME"])
    admin = env.libpq_params(database, dbname="postgres")
    where = admin.get("host") or "the local socket"
    if "port" in admin:
        where += f":{admin['port']}"
    user = admin.get("user") or os.environ.get("PGUSER") or _login_name()
    try:
        conninfo = make_conninfo(**admin)
        with psycopg.connect(conninfo, autocommit=True, connect_timeout=5) as connection:
            exists = connection.execute(
                "SELECT 1 FROM pg_database WHERE datname = %s", (name,)
            ).fetchone()
            if exists:
                return f"Using the database {name!r} on {where}."
            connection.execute(f'CREATE DATABASE "{name}"')
            return f"Created the database {name!r} on {where}."
    except psycopg.OperationalError as error:
        text = str(error)
        reason = next((line.strip() for line in text.splitlines() if line.strip()), "")
        if "Connection refused" in text or "No such file" in text or "timeout" in text:
            raise SystemExit(NO_SERVER.format(where=where, error=reason, name=name)) from None
        raise SystemExit(
            NOT_ALLOWED.format(where=where, user=user, error=reason, name=name)
        ) from None
    except psycopg.errors.InsufficientPrivilege as error:
        raise SystemExit(
            NOT_ALLOWED.format(where=where, user=user, error=error, name=name)
        ) from None


def _login_name() -> str:
    try:
        return os.getlogin()
    except OSError:
        return os.environ.get("USER", "?")


def local_database_url(name: str) -> str:
    """A URL for the database `name` on this machine's PostgreSQL: over the Unix socket
    when there is one (peer authentication as the current user), else 127.0.0.1:5432."""
    for folder in ("/var/run/postgresql", "/run/postgresql", "/tmp"):
        if Path(folder, ".s.PGSQL.5432").exists():
            return f"postgres:///{name}?host={folder}"
    return f"postgres://127.0.0.1:5432/{name}"


# --- Secret key --------------------------------------------------------------------------------


def secret_key(path: Path) -> str:
    """The key kept in `path`, made (50 random bytes, URL-safe) and written readable by the
    owner only the first time."""
    if path.exists():
        key = path.read_text().strip()
        if key:
            return key
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(50)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as file:
        file.write(key + "\n")
    return key


def _live_seconds(parser: argparse.ArgumentParser, text: str) -> int:
    if not text.strip().isdigit():
        parser.error(f"LIVE_STALE_SECONDS={text!r}: give a whole number of seconds (0 for none)")
    return int(text)


# --- Command line ------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hosting.commands")
    commands = parser.add_subparsers(dest="command", required=True)
    nginx = commands.add_parser("nginx-config", help="print nginx.conf")
    nginx.add_argument("--listen", required=True)
    nginx.add_argument(
        "--upstream", required=True, help="one address, or several separated by spaces"
    )
    nginx.add_argument("--static-root", required=True, type=Path)
    nginx.add_argument("--state", required=True, type=Path)
    nginx.add_argument("--tls-cert", type=Path)
    nginx.add_argument("--tls-key", type=Path)
    nginx.add_argument("--behind-proxy", action="store_true")
    nginx.add_argument("--workers", type=int, default=1)
    nginx.add_argument("--user")
    nginx.add_argument("--live-seconds", default="0", help="LIVE_STALE_SECONDS")
    listed = commands.add_parser("urls", help="print the URLs to open, one a line")
    listed.add_argument("--listen", required=True)
    listed.add_argument("--scheme", default="http", choices=["http", "https"])
    commands.add_parser("addresses", help="print this machine's addresses, one a line")
    database = commands.add_parser("ensure-database", help="create a PostgreSQL database")
    database.add_argument("url")
    local = commands.add_parser("local-database-url", help="print a URL for a local database")
    local.add_argument("name")
    key = commands.add_parser("secret-key", help="print the kept key, made when missing")
    key.add_argument("path", type=Path)
    args = parser.parse_args(argv)

    if args.command == "nginx-config":
        proxy = Proxy(
            listen=args.listen,
            upstream=args.upstream,
            static_root=args.static_root,
            state=args.state,
            tls_cert=args.tls_cert,
            tls_key=args.tls_key,
            behind_proxy=args.behind_proxy,
            workers=args.workers,
            user=args.user,
            live_seconds=_live_seconds(parser, args.live_seconds),
        )
        print(nginx_config(proxy), end="")
    elif args.command == "urls":
        host, port = split_listen(args.listen)
        print("\n".join(urls(host, port, scheme=args.scheme)))
    elif args.command == "addresses":
        print("\n".join(local_addresses()))
    elif args.command == "ensure-database":
        print(ensure_database(args.url))
    elif args.command == "local-database-url":
        print(local_database_url(args.name))
    elif args.command == "secret-key":
        print(secret_key(args.path))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The command line `scripts/serve` runs before Django can start (the secret key and the database
may not exist yet): each subcommand prints what one of the modules beside it makes, the nginx
configuration (`hosting/nginx.py`), the URLs and addresses (`hosting/addresses.py`), the
database (`hosting/database.py`) and the secret key (`hosting/secret_key.py`):

    python -m hosting.commands nginx-config --listen 0.0.0.0:8000 --upstream unix:var/app.sock \
        --static-root staticfiles --state var/nginx
    python -m hosting.commands addresses
    python -m hosting.commands ensure-database postgres://root@127.0.0.1:5432/mahjong
    python -m hosting.commands secret-key var/secret_key
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from hosting.addresses import local_addresses, split_listen, urls
from hosting.database import ensure_database, local_database_url
from hosting.nginx import Proxy, nginx_config
from hosting.secret_key import secret_key


def _live_seconds(parser: argparse.ArgumentParser, text: str) -> int:
    if not text.strip().isdigit():
        parser.error(f"LIVE_STALE_SECONDS={text!r}: give a whole number of seconds (0 for none)")
    return int(text)


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

"""How many bytes the referee's table screen weighs on a first load: HTML, CSS, JS and images.

    .venv/bin/python benchmarks/page_weight.py [--table N]

It loads the demo tournament (`load_demo`: round 2 in play, a few hands entered at its first
tables) into a PostgreSQL database of its own (`mcr_bench`, created when missing; set
BENCH_DATABASE_URL to use another), logs in as the demo referee with Django's test client,
renders the table screen of every table of round 2 (or only table N), and fetches each
stylesheet, script and image the page names, as a browser does on a first visit with an empty
cache. It prints the bytes of each, as sent (no compression) and gzipped (what a server that
compresses, like WhiteNoise with its pre-compressed files, transfers), and the totals against
the 150 kB budget of the referee screen. The live fragment the screen polls (htmx) every 15
seconds is shown too (it is not part of the first load).

The browser test tests/browser/test_referee_offline_browser.py measures the same first load in
Chromium (the response bodies it receives) and fails above 150 kB.
"""

from __future__ import annotations

import argparse
import gzip
import sys
from html.parser import HTMLParser
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from bench_database import database_url, ensure_database, setup_django  # noqa: E402

BUDGET = 150_000


class Assets(HTMLParser):
    """The stylesheets, scripts and images a page asks for."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "link" and "stylesheet" in (found.get("rel") or "") and found.get("href"):
            self.urls.append(found["href"])
        elif tag in ("script", "img") and found.get("src"):
            self.urls.append(found["src"])
        elif tag == "link" and (found.get("rel") or "") in ("icon", "shortcut icon"):
            self.urls.append(found["href"] or "")


def body_of(response) -> bytes:
    if getattr(response, "streaming", False):
        return b"".join(response.streaming_content)
    return response.content


def measure(client, url: str) -> list[tuple[str, int, int]]:
    """(address, bytes, gzipped bytes) of the page at `url` and of each asset it names."""
    page = client.get(url)
    if page.status_code != 200:
        raise SystemExit(f"{url} answered {page.status_code}")
    html = body_of(page)
    rows = [(url, len(html), len(gzip.compress(html, 6)))]
    parser = Assets()
    parser.feed(html.decode())
    for asset in dict.fromkeys(parser.urls):  # each address once, in page order
        response = client.get(asset)
        if response.status_code != 200:
            raise SystemExit(f"{asset} (named by {url}) answered {response.status_code}")
        body = body_of(response)
        rows.append((asset, len(body), len(gzip.compress(body, 6))))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--table", type=int, help="only this table of round 2")
    options = parser.parse_args()
    url = database_url()
    ensure_database(url)
    setup_django(url)

    from django.test import Client
    from django.urls import reverse

    from tournament.management.demo import load_demo_data

    demo = load_demo_data()
    tournament = demo.tournament
    round_ = tournament.rounds.get(number=2)
    tables = round_.tables.order_by("number")
    if options.table:
        tables = tables.filter(number=options.table)
    client = Client()
    client.force_login(demo.referee)

    worst = 0
    for table in tables:
        where = [tournament.slug, round_.number, table.number]
        rows = measure(client, reverse("referee:table", args=where))
        total, zipped = sum(row[1] for row in rows), sum(row[2] for row in rows)
        worst = max(worst, total)
        print(f"Round 2, table {table.number} ({table.deals.count()} hands entered):")
        for address, size, small in rows:
            print(f"  {address:<60} {size:>8} B  {small:>7} B gzipped")
        print(f"  {'first load':<60} {total:>8} B  {zipped:>7} B gzipped")
        live_url = reverse("referee:live", args=where)  # what htmx polls every 15 s
        live = body_of(client.get(live_url, headers={"HX-Request": "true"}))
        print(f"  {'live fragment (every 15 s)':<60} {len(live):>8} B")
    verdict = "within" if worst < BUDGET else "OVER"
    print(f"Heaviest first load: {worst} B uncompressed, {verdict} the {BUDGET} B budget.")
    if worst >= BUDGET:
        raise SystemExit(1)


if __name__ == "__main__":
    main()

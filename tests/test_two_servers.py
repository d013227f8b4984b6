"""Two application servers behind one nginx, on one PostgreSQL database (issue 34, item 11).

The docs say that what several servers must agree on lives in the database: the live pages'
versions and kept fragments, the login lockout, the API token throttle and the idempotency of
submissions. Here two gunicorn processes share the test database, nginx shares the requests
between them, and a referee's phone, a viewer and a guesser talk to one, the other or both:

- a hand sent to one server and sent again (same Idempotency-Key) to the other is stored once,
  and so is one sent to both at the same moment; hands sent through nginx, which alternates
  between the two, are each stored once and numbered without a gap;
- a hand written through one server shows on the other's live table page within the window a
  live page may lag (LIVE_STALE_SECONDS, here 2 s);
- wrong passwords counted on both servers lock the username out on both, and wrong API tokens
  counted on both are refused on both.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import subprocess
import threading
import time
import uuid
from pathlib import Path
from urllib.parse import urlencode

import pytest
from django.contrib.auth import get_user_model
from factories import make_players, make_tournament, make_user, seated_round
from test_hosting import NGINX, REPO_ROOT, database_url, free_port, proxy

from hosting.nginx import nginx_config
from tournament.infra.tokens import issue_token
from tournament.models import Deal
from tournament.services import assign_referees

pytestmark = [
    pytest.mark.skipif(NGINX is None, reason="nginx is not installed"),
    pytest.mark.skipif(
        not (REPO_ROOT / ".venv" / "bin" / "gunicorn").exists(), reason="no .venv gunicorn"
    ),
    pytest.mark.django_db(transaction=True),
]

WINDOW = 2  # LIVE_STALE_SECONDS of both servers
HANDS = "/api/tournaments/two-cup/rounds/1/tables/1/hands"
TABLE_PAGE = "/t/two-cup/rounds/1/tables/1/"
PASSWORD = "a-long-organiser-password"


def _wait_for(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    for _ in range(300):
        assert process.poll() is None, log.read_text()
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("GET", "/api/tournaments")
            status = connection.getresponse().status
            connection.close()
            if status == 200:
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise AssertionError(log.read_text())


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


@pytest.fixture
def servers(tmp_path: Path):
    """(port of server A, port of server B, port of nginx in front of both)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("several servers share a PostgreSQL database")
    environ = {
        **os.environ,
        # DEBUG serves the pages without collectstatic's manifest; what the servers must agree
        # on does not depend on it.
        "DEBUG": "true",
        "SECRET_KEY": "two-servers-" + uuid.uuid4().hex,
        "DATABASE_URL": database_url(),
        "ALLOWED_HOSTS": "127.0.0.1",
        "LIVE_STALE_SECONDS": str(WINDOW),
        "LIVE_BUSY_SECONDS": str(WINDOW),
    }
    environ.pop("DJANGO_SETTINGS_MODULE", None)
    gunicorn = REPO_ROOT / ".venv" / "bin" / "gunicorn"
    processes: list[subprocess.Popen[bytes]] = []
    ports = [free_port(), free_port()]
    try:
        for name, port in zip("ab", ports, strict=True):
            log = tmp_path / f"{name}.log"
            process = subprocess.Popen(
                [str(gunicorn), "config.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", "1",
                 "--worker-class", "gthread", "--threads", "4", "--log-level", "warning"],
                cwd=REPO_ROOT, env=environ, stdout=log.open("wb"), stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
            processes.append(process)
            _wait_for(port, process, log)
        front = free_port()
        (tmp_path / "nginx").mkdir()
        conf = tmp_path / "nginx" / "nginx.conf"
        conf.write_text(
            nginx_config(
                proxy(
                    tmp_path,
                    listen=f"127.0.0.1:{front}",
                    upstream=" ".join(f"127.0.0.1:{port}" for port in ports),
                    live_seconds=WINDOW,
                    user="root" if os.geteuid() == 0 else None,
                )
            )
        )
        log = tmp_path / "nginx.log"
        nginx = subprocess.Popen(
            [NGINX, "-e", "stderr", "-p", str(conf.parent), "-c", str(conf)],
            stdout=log.open("wb"), stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        processes.append(nginx)
        _wait_for(front, nginx, log)
        yield ports[0], ports[1], front
    finally:
        for process in processes:
            _stop(process)


@pytest.fixture
def cup():
    """A public tournament in play: table 1 refereed by bob, who has an API token."""
    alice = make_user("alice", password=PASSWORD)
    bob = make_user("bob")
    tournament = make_tournament(organisers=[alice], name="Two Cup", slug="two-cup")
    players = make_players(tournament, 8)
    _, tables = seated_round(tournament, alice, [players[:4], players[4:]])
    assign_referees(table=tables[0], referees=[bob], actor=alice)
    _, secret = issue_token(user=bob, name="phone")
    return tables[0], secret


def send(port: int, method: str, path: str, body: bytes | None = None, **headers: str):
    """(status, headers, body) of one request to 127.0.0.1:`port`."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request(method, path, body=body, headers=headers)
        answer = connection.getresponse()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
    finally:
        connection.close()


def post_hand(port: int, secret: str, number: int, key: str) -> tuple[int, dict, dict]:
    body = {"number": number, "result": "win", "winner": "1", "discarder": "3", "fan": 8}
    status, headers, content = send(
        port, "POST", HANDS, json.dumps(body).encode(),
        **{"Authorization": f"Bearer {secret}", "Content-Type": "application/json",
           "Idempotency-Key": key},
    )  # fmt: skip
    return status, headers, json.loads(content)


def test_two_servers_store_every_hand_once_and_agree_on_pages_and_throttles(servers, cup):
    a, b, front = servers
    table, secret = cup

    # One hand sent to A, then again to B (the phone's retry reached the other server).
    key = str(uuid.uuid4())
    first = post_hand(a, secret, 1, key)
    again = post_hand(b, secret, 1, key)
    assert first[0] == 201 and again[0] == 200, (first, again)
    assert again[1].get("idempotent-replayed") == "true"
    assert first[2]["hand"] == again[2]["hand"]

    # One hand sent to both at the same moment.
    key = str(uuid.uuid4())
    barrier = threading.Barrier(2)
    answers: list[tuple[int, dict, dict]] = []

    def racing(port: int) -> None:
        barrier.wait(timeout=10)
        answers.append(post_hand(port, secret, 2, key))

    threads = [threading.Thread(target=racing, args=(port,)) for port in (a, b)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(status for status, _, _ in answers) == [200, 201], answers

    # Hands through nginx, which shares them between the servers; each sent twice.
    for number in range(3, 11):
        key = str(uuid.uuid4())
        assert post_hand(front, secret, number, key)[0] == 201
        assert post_hand(front, secret, number, key)[0] == 200
    numbers = list(Deal.objects.filter(table=table).order_by("number").values_list("number"))
    assert numbers == [(n,) for n in range(1, 11)]

    # The live table page of each server shows a hand written through the other within the
    # window. Its ETag names the last audit entry of the table it shows.
    def shown_entry(port: int) -> int:
        status, headers, _ = send(port, "GET", TABLE_PAGE, **{"HX-Request": "true"})
        assert status == 200
        match = re.search(r"live-\d+\.\d+\.(\d+)-", headers.get("etag", ""))
        assert match, headers
        return int(match[1])

    for writer, reader in ((a, b), (b, a)):
        shown_entry(reader)  # the reader keeps a fragment of the page as it is now
        number = Deal.objects.filter(table=table).count() + 1
        assert post_hand(writer, secret, number, str(uuid.uuid4()))[0] == 201
        written = table.audit.order_by("-pk").values_list("pk", flat=True)[0]
        began = time.monotonic()
        while shown_entry(reader) < written:
            assert time.monotonic() - began <= WINDOW + 1, "the other server's page lags"
            time.sleep(0.1)

    # Wrong passwords counted on both servers lock the username on both.
    limit = 5  # LOGIN_FAILURE_LIMIT's default

    def login(port: int, password: str) -> int:
        status, headers, page = send(port, "GET", "/accounts/login/")
        cookie = headers["set-cookie"].split(";")[0]
        token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        assert token, page[:300]
        form = urlencode(
            {"csrfmiddlewaretoken": token[1].decode(), "username": "alice", "password": password}
        ).encode()
        status, _, _ = send(
            port, "POST", "/accounts/login/", form,
            **{"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"},
        )  # fmt: skip
        return status

    for attempt in range(limit - 1):
        assert login((a, b)[attempt % 2], "wrong") == 200  # the form again, with its error
    assert login(a, "wrong") == 429  # the failure that reaches the limit locks
    assert login(b, "wrong") == 429

    # Wrong API tokens counted on both servers are refused on both.
    for attempt in range(19):  # TOKEN_FAILURE_LIMIT's default is 20
        status, _, _ = send(
            (a, b)[attempt % 2],
            "GET",
            "/api/tournaments/two-cup",
            Authorization=f"Bearer mjt_wrong{attempt}",
        )
        assert status == 401, attempt
    # The failure that reaches the limit locks the address.
    for port in (a, b):
        status, _, _ = send(port, "GET", "/api/tournaments/two-cup", Authorization="Bearer x")
        assert status == 429
    assert get_user_model().objects.filter(username="alice").exists()

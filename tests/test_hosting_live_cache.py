"""nginx keeps the public pages and their live updates LIVE_STALE_SECONDS for visitors
(hosting.live_cache):
the generated configuration, and nginx running it in front of a small stand-in for the
application that counts what reaches it."""

from __future__ import annotations

import http.client
import http.server
import os
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings

# The helpers of the other tests of scripts/serve's set-up (tests/ is on the path, as for
# `factories`).
from test_hosting import NGINX, free_port, proxy

from hosting import commands, live_cache
from hosting.nginx import nginx_config


def test_without_live_seconds_nginx_keeps_nothing(tmp_path):
    assert "proxy_cache" not in nginx_config(proxy(tmp_path))


def test_the_public_pages_updates_are_kept_the_given_seconds(tmp_path):
    config = nginx_config(proxy(tmp_path, live_seconds=15))
    lines = [line.strip() for line in config.splitlines()]
    assert f"location ~ ^{live_cache.VISITOR_PAGES}$ {{" in lines
    assert "proxy_cache_valid 200 15s;" in lines
    assert f"proxy_cache_path {tmp_path}/nginx/live levels=1:2 keys_zone=live:8m" in config


def test_the_pages_kept_are_the_shared_live_pages_and_no_other():
    """The standings, a round and a table (tournament.web.live.conditional_live); not the
    projector, whose clock must not lag, nor a page that is not polled."""
    import re

    from django.urls import reverse

    kept = [
        reverse("public:standings", args=["spring-cup"]),
        reverse("public:round", args=["spring-cup", 12]),
        reverse("public:table", args=["spring-cup", 3, 25]),
    ]
    not_kept = [
        reverse("public:projector", args=["spring-cup"]),
        reverse("public:tournament", args=["spring-cup"]),
        reverse("public:player", args=["spring-cup", "7"]),
        reverse("organiser:board", args=["spring-cup", 1]),
        "/t/spring-cup/standings/export/",
    ]
    pattern = re.compile(f"^{live_cache.LIVE_PAGES}$")
    assert all(pattern.match(path) for path in kept), kept
    assert not any(pattern.match(path) for path in not_kept), not_kept


def test_the_pages_kept_for_visitors_are_the_public_pages_they_read_and_no_other():
    """The live pages, the tournament's page and a player's, whole or updated; not the
    projector, a form, an export, or any page of organisers and referees."""
    import re

    from django.urls import reverse

    kept = [
        reverse("public:standings", args=["spring-cup"]),
        reverse("public:round", args=["spring-cup", 12]),
        reverse("public:table", args=["spring-cup", 3, 25]),
        reverse("public:tournament", args=["spring-cup"]),
        reverse("public:player", args=["spring-cup", "A-7.b"]),
    ]
    not_kept = [
        reverse("public:projector", args=["spring-cup"]),
        reverse("organiser:board", args=["spring-cup", 1]),
        "/t/spring-cup/standings/export/",
        "/t/spring-cup/statistics/",
        "/t/spring-cup/register/",
        "/t/spring-cup/players/7/extra/",
        "/referee/spring-cup/1/2/",
        "/manage/spring-cup/",
        "/",
    ]
    pattern = re.compile(f"^{live_cache.VISITOR_PAGES}$")
    assert all(pattern.match(path) for path in kept), kept
    assert not any(pattern.match(path) for path in not_kept), not_kept


def test_the_cookies_nginx_reads_are_the_sites():
    assert live_cache.SESSION_COOKIE == settings.SESSION_COOKIE_NAME
    assert live_cache.LANGUAGE_COOKIE == settings.LANGUAGE_COOKIE_NAME
    from django.contrib.messages.storage.cookie import CookieStorage

    assert live_cache.MESSAGES_COOKIE == CookieStorage.cookie_name


@pytest.mark.parametrize("text", ["abc", "-1", "1.5", ""])
def test_a_bad_live_seconds_is_refused_naming_the_variable(text, capsys):
    with pytest.raises(SystemExit):
        commands.main(
            ["nginx-config", "--listen", "127.0.0.1:8000", "--upstream", "127.0.0.1:8001",
             "--static-root", "s", "--state", "n", "--live-seconds", text]
        )  # fmt: skip
    assert "LIVE_STALE_SECONDS" in capsys.readouterr().err


class Application(http.server.BaseHTTPRequestHandler):
    """Answers as the site does: a live update with an ETag naming the version, whatever the
    request's If-None-Match (nginx does not pass it on when it keeps answers); a whole page
    otherwise. Counts the requests it gets. `?expires=N` says how long nginx may keep the
    answer (X-Accel-Expires, as tournament.web.live does); a request accepting gzip is told so
    in the body (as Django's GZipMiddleware would compress it)."""

    version = 1
    asked: list[dict[str, str]] = []
    delay = 0.0  # seconds it takes to answer a live update

    def do_GET(self) -> None:
        Application.asked.append(dict(self.headers.items()))
        if self.headers.get("HX-Request") == "true":
            time.sleep(Application.delay)
        language = "zh" if "zh" in self.headers.get("Accept-Language", "") else "en"
        gzip = " gzip" if "gzip" in self.headers.get("Accept-Encoding", "") else ""
        body = f"<p>{self.path} version {Application.version}{gzip} {language}</p>".encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        if self.headers.get("HX-Request") == "true":
            self.send_header("ETag", f'"live-1.{Application.version}.0-{language}"')
            self.send_header("Cache-Control", "no-cache")
            self.send_header("Vary", "HX-Request, Cookie, Accept-Language")
        if "?expires=" in self.path:
            self.send_header("X-Accel-Expires", self.path.rpartition("=")[2])
        if self.path.endswith("?cookie"):
            self.send_header("Set-Cookie", "csrftoken=personal")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def site(tmp_path: Path) -> Iterator[int]:
    """nginx with live updates kept 30 s, on a free port, in front of `Application`."""
    if NGINX is None:
        pytest.skip("nginx is not installed")
    application = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Application)
    threading.Thread(target=application.serve_forever, daemon=True).start()
    Application.asked = []
    Application.version = 1
    Application.delay = 0.0
    port = free_port()
    (tmp_path / "nginx").mkdir()
    conf = tmp_path / "nginx" / "nginx.conf"
    user = "root" if os.geteuid() == 0 else None
    conf.write_text(
        nginx_config(
            proxy(
                tmp_path,
                listen=f"127.0.0.1:{port}",
                upstream=f"127.0.0.1:{application.server_address[1]}",
                live_seconds=30,
                user=user,
            )
        )
    )
    nginx = subprocess.Popen(
        [NGINX, "-e", "stderr", "-p", str(conf.parent), "-c", str(conf)],
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        for _ in range(100):
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert nginx.poll() is None, nginx.stderr.read() if nginx.stderr else ""
            time.sleep(0.05)
        yield port
    finally:
        os.killpg(nginx.pid, signal.SIGTERM)
        nginx.wait(timeout=10)
        application.shutdown()
        application.server_close()


def get(port: int, path: str, **headers: str) -> tuple[int, str, str, bytes]:
    """Status, ETag, X-Live-Cache and body of GET `path`."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", path, headers=headers)
        answer = connection.getresponse()
        assert answer.getheader("X-Accel-Expires") is None  # nginx's alone
        return (
            answer.status,
            answer.getheader("ETag") or "",
            answer.getheader("X-Live-Cache") or "",
            answer.read(),
        )
    finally:
        connection.close()


HTMX = {"HX-Request": "true"}
TABLE = "/t/cup/rounds/1/tables/1/"


def test_a_poll_sending_back_its_copy_is_answered_by_nginx(site):
    first = get(site, TABLE, **HTMX)  # a first poll: from the application, and kept
    Application.version = 2

    same = get(site, TABLE, **HTMX, **{"If-None-Match": first[1]})
    older = get(site, TABLE, **HTMX, **{"If-None-Match": '"live-1.0.0-en"'})

    assert first[:3] == (200, '"live-1.1.0-en"', "MISS")
    assert same[:3] == (304, '"live-1.1.0-en"', "HIT")
    assert older[0] == 200 and older[2] == "HIT" and older[3] == first[3]
    assert len(Application.asked) == 1
    assert "If-None-Match" not in Application.asked[0]


def test_a_poll_that_sends_no_copy_back_is_answered_from_what_is_kept(site):
    """A first poll, or a client that never revalidates: the application is not asked again
    within the window, however many such polls come."""
    get(site, TABLE, **HTMX)
    Application.version = 2

    answers = [get(site, TABLE, **HTMX) for _ in range(5)]

    assert {answer[:3] for answer in answers} == {(200, '"live-1.1.0-en"', "HIT")}
    assert len(Application.asked) == 1


def test_a_whole_page_opened_by_every_visitor_at_once_reaches_the_application_once(site):
    """A reload storm: every phone opens the round's page when it is seated."""
    from concurrent.futures import ThreadPoolExecutor

    Application.delay = 0.0
    path = "/t/cup/rounds/2/"
    with ThreadPoolExecutor(20) as pool:
        answers = list(pool.map(lambda _: get(site, path), range(60)))

    assert {answer[0] for answer in answers} == {200}
    assert len({answer[3] for answer in answers}) == 1
    assert len(Application.asked) == 1


def test_each_language_and_page_part_has_its_own(site):
    get(site, TABLE, **HTMX)
    chinese = get(site, TABLE, **HTMX, **{"If-None-Match": '"x"', "Accept-Language": "zh-hans"})
    chosen = get(site, TABLE, **HTMX, **{"If-None-Match": '"x"', "Cookie": "django_language=zh"})
    part = get(site, TABLE, **HTMX, **{"If-None-Match": '"x"', "HX-Target": "pj-panel"})

    assert chinese[2] == chosen[2] == part[2] == "MISS"
    assert b" zh<" in chinese[3]
    assert len(Application.asked) == 4


def test_a_logged_in_users_or_a_tokens_poll_is_never_kept_nor_answered_from_what_is(site):
    get(site, TABLE, **HTMX)
    for headers in (
        {"Cookie": "sessionid=abc"},
        {"Authorization": "Bearer secret"},
        {"Cookie": "messages=a-message-for-this-visitor"},
    ):
        for _ in range(2):
            answer = get(site, TABLE, **HTMX, **headers, **{"If-None-Match": '"live-1.1.0-en"'})
            assert answer[2] == "BYPASS"
    assert len(Application.asked) == 7


def test_answers_that_set_a_cookie_and_other_addresses_are_not_kept(site):
    for path, headers in (
        ("/t/cup/rounds/1/tables/9/?cookie", {}),
        ("/t/cup/rounds/1/tables/9/?cookie", HTMX),
        ("/t/cup/projector/", HTMX),
        ("/manage/cup/rounds/1/board/", HTMX),
    ):
        get(site, path, **headers)
        answer = get(site, path, **headers, **{"If-None-Match": '"x"'})
        assert answer[2] in ("", "BYPASS", "MISS"), (path, answer[2])
    assert len(Application.asked) == 8


def test_nginx_keeps_an_answer_as_long_as_the_application_says(site):
    """Less than LIVE_STALE_SECONDS for an older kept version, more while the machine is busy
    (tournament.web.live.answer_live); 0 not at all."""
    not_kept, short = TABLE + "?expires=0", TABLE + "?expires=1"
    get(site, not_kept, **HTMX)
    get(site, short, **HTMX)
    assert get(site, not_kept, **HTMX, **{"If-None-Match": '"x"'})[2] == "MISS"
    assert get(site, short, **HTMX, **{"If-None-Match": '"x"'})[2] == "HIT"

    time.sleep(2.2)  # nginx counts whole seconds; the fixture's nginx would keep it 30 s

    assert get(site, short, **HTMX, **{"If-None-Match": '"x"'})[2] == "EXPIRED"


def test_an_answer_compressed_for_one_client_is_not_given_to_one_that_cannot_read_it(site):
    get(site, TABLE, **HTMX, **{"Accept-Encoding": "gzip, deflate, br"})

    plain = get(site, TABLE, **HTMX, **{"If-None-Match": '"x"'})
    again = get(site, TABLE, **HTMX, **{"If-None-Match": '"x"', "Accept-Encoding": "gzip"})

    assert plain[2] == "MISS" and b"gzip" not in plain[3]
    assert again[2] == "HIT" and b"gzip" in again[3]


def test_nginx_says_when_it_fills_again_what_it_keeps_for_every_viewer(site):
    """Then the application may send the last update it drew (tournament.web.live.Kept); a
    request nginx does not keep for everyone is never marked so, even when the client says it."""
    get(site, TABLE, **HTMX)
    get(site, TABLE + "?2", **HTMX, **{"If-None-Match": '"x"'})
    get(site, TABLE + "?3", **HTMX, **{"X-Live-Refill": "1", "Cookie": "sessionid=abc"})

    first, second, logged_in = Application.asked
    assert first["X-Live-Refill"] == second["X-Live-Refill"] == "1"
    assert "X-Live-Refill" not in logged_in


def test_while_one_poll_fills_again_what_ran_out_the_others_get_the_kept_one(site):
    """One request to the application a page when what nginx keeps runs out, however many
    viewers poll while the application is slow to answer it (a busy venue): they get the
    answer kept until then, as they would have a moment before."""
    from concurrent.futures import ThreadPoolExecutor

    path, copy = TABLE + "?expires=1", {"If-None-Match": '"x"'}
    get(site, path, **HTMX)
    time.sleep(2.2)  # run out
    Application.version, Application.delay = 2, 1.0
    with ThreadPoolExecutor(6) as pool:
        refill = pool.submit(get, site, path, **HTMX, **copy)
        time.sleep(0.3)  # at the application
        others = [pool.submit(get, site, path, **HTMX, **copy) for _ in range(5)]
        answers = [other.result() for other in others]

    assert refill.result()[2] == "EXPIRED" and b"version 2" in refill.result()[3]
    assert {answer[2] for answer in answers} == {"UPDATING"}
    assert all(b"version 1" in answer[3] for answer in answers)
    assert len(Application.asked) == 2

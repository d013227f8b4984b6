"""The answers nginx makes itself carry the security headers the application puts on its own:
a static file, and nginx's 502 when the application is not there. An answer of the application
keeps its own headers, none of them sent twice."""

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
from test_hosting import NGINX, free_port, proxy

from hosting.nginx import OWN_ANSWER_HEADERS, nginx_config


class Application(http.server.BaseHTTPRequestHandler):
    """Answers with a frame policy of its own, as the site may."""

    def do_GET(self) -> None:
        body = b"<p>page</p>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("X-Frame-Options", "SAMEORIGIN")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


def start_nginx(tmp_path: Path, upstream: str) -> tuple[subprocess.Popen, int]:
    port = free_port()
    (tmp_path / "nginx").mkdir(exist_ok=True)
    (tmp_path / "staticfiles").mkdir(exist_ok=True)
    (tmp_path / "staticfiles" / "site.css").write_text("body { color: black; }\n")
    conf = tmp_path / "nginx" / "nginx.conf"
    user = "root" if os.geteuid() == 0 else None
    conf.write_text(
        nginx_config(proxy(tmp_path, listen=f"127.0.0.1:{port}", upstream=upstream, user=user))
    )
    nginx = subprocess.Popen(
        [NGINX, "-e", "stderr", "-p", str(conf.parent), "-c", str(conf)],
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    for _ in range(100):
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                break
        assert nginx.poll() is None, nginx.stderr.read() if nginx.stderr else ""
        time.sleep(0.05)
    return nginx, port


@pytest.fixture
def site(tmp_path: Path) -> Iterator[int]:
    """nginx in front of `Application`."""
    if NGINX is None:
        pytest.skip("nginx is not installed")
    application = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Application)
    threading.Thread(target=application.serve_forever, daemon=True).start()
    nginx, port = start_nginx(tmp_path, f"127.0.0.1:{application.server_address[1]}")
    try:
        yield port
    finally:
        os.killpg(nginx.pid, signal.SIGTERM)
        nginx.wait(timeout=10)
        application.shutdown()
        application.server_close()


@pytest.fixture
def site_without_application(tmp_path: Path) -> Iterator[int]:
    """nginx in front of an address where nothing answers."""
    if NGINX is None:
        pytest.skip("nginx is not installed")
    nginx, port = start_nginx(tmp_path, f"127.0.0.1:{free_port()}")
    try:
        yield port
    finally:
        os.killpg(nginx.pid, signal.SIGTERM)
        nginx.wait(timeout=10)


def headers_of(port: int, path: str) -> tuple[int, dict[str, list[str]]]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", path)
        answer = connection.getresponse()
        answer.read()
        found: dict[str, list[str]] = {}
        for name, value in answer.getheaders():
            found.setdefault(name.lower(), []).append(value)
        return answer.status, found
    finally:
        connection.close()


def assert_secured(headers: dict[str, list[str]]) -> None:
    for name, value in OWN_ANSWER_HEADERS.items():
        assert headers.get(name.lower()) == [value], name


def test_a_static_file_carries_the_security_headers(site):
    status, headers = headers_of(site, "/static/site.css")

    assert status == 200
    assert_secured(headers)
    assert headers["cache-control"] == ["public, max-age=3600"]


def test_nginx_s_own_error_carries_them_too(site_without_application):
    status, headers = headers_of(site_without_application, "/t/cup/")

    assert status == 502
    assert_secured(headers)


def test_the_applications_own_header_is_kept_and_not_sent_twice(site):
    status, headers = headers_of(site, "/t/cup/")

    assert status == 200
    assert headers["x-frame-options"] == ["SAMEORIGIN"]  # the application's, once
    assert headers["x-content-type-options"] == ["nosniff"]  # one it did not send: nginx's

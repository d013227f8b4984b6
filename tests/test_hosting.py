"""scripts/serve and what it runs: the generated nginx configuration, the addresses it prints,
the secret key it keeps, the database it creates, the settings it gives Django, and (when nginx
is installed) the whole set-up answering through nginx."""

from __future__ import annotations

import http.client
import os
import re
import shutil
import signal
import socket
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from config import env
from hosting import addresses, database, nginx
from hosting.secret_key import secret_key

REPO_ROOT = Path(__file__).resolve().parent.parent
SERVE = REPO_ROOT / "scripts" / "serve"
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)


def proxy(tmp_path: Path, **changes: object) -> nginx.Proxy:
    values: dict[str, object] = {
        "listen": "0.0.0.0:8000",
        "upstream": f"unix:{tmp_path}/gunicorn.sock",
        "static_root": tmp_path / "staticfiles",
        "state": tmp_path / "nginx",
    }
    values.update(changes)
    return nginx.Proxy(**values)  # type: ignore[arg-type]


def directives(config: str) -> list[str]:
    return [line.strip() for line in config.splitlines() if line.strip()]


def test_nginx_buffers_requests_and_answers_and_forwards_the_client(tmp_path):
    lines = directives(nginx.nginx_config(proxy(tmp_path)))
    assert "listen 0.0.0.0:8000 default_server;" in lines
    assert f"server unix:{tmp_path}/gunicorn.sock fail_timeout=0;" in lines
    # Slow clients are nginx's problem, not the application server's.
    assert "proxy_request_buffering on;" in lines
    assert "proxy_buffering on;" in lines
    assert "client_body_timeout 30s;" in lines
    assert "client_header_timeout 30s;" in lines
    # PROXY_COUNT=1 is right: nginx appends the address it was reached from, and says the scheme
    # it was reached by, whatever the client sent.
    assert "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;" in lines
    assert "proxy_set_header X-Forwarded-Proto $scheme;" in lines
    assert "proxy_set_header Host $http_host;" in lines
    assert f"alias {tmp_path}/staticfiles/;" in lines
    assert not any(line.startswith("user ") for line in lines)
    assert not any("ssl" in line for line in lines if line.startswith("listen"))


def test_nginx_holds_a_connection_for_each_of_thousands_of_phones(tmp_path):
    lines = directives(nginx.nginx_config(proxy(tmp_path)))
    connections = next(line for line in lines if line.startswith("worker_connections "))
    limit = next(line for line in lines if line.startswith("worker_rlimit_nofile "))
    # 2,000 phones kept alive, each request passed on also holding one to gunicorn.
    assert int(connections.split()[1].rstrip(";")) >= 4000
    assert int(limit.split()[1].rstrip(";")) >= 2 * int(connections.split()[1].rstrip(";"))


def test_nginx_writes_only_in_its_state_folder(tmp_path):
    config = nginx.nginx_config(proxy(tmp_path))
    for line in directives(config):
        name, _, value = line.partition(" ")
        if name.endswith("_temp_path") or name == "pid" or line.startswith("access_log /"):
            assert value.startswith(f"{tmp_path}/nginx/"), line
    assert "error_log stderr warn;" in config
    assert "daemon off;" in config


def test_nginx_behind_another_proxy_passes_its_scheme_on(tmp_path):
    lines = directives(nginx.nginx_config(proxy(tmp_path, behind_proxy=True)))
    assert "proxy_set_header X-Forwarded-Proto $http_x_forwarded_proto;" in lines
    assert "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;" in lines


def test_nginx_with_a_certificate_answers_https(tmp_path):
    config = nginx.nginx_config(
        proxy(
            tmp_path,
            listen="[::]:8443",
            tls_cert=tmp_path / "site.pem",
            tls_key=tmp_path / "site.key",
        )
    )
    lines = directives(config)
    assert "listen [::]:8443 ssl default_server;" in lines
    assert f"ssl_certificate {tmp_path}/site.pem;" in lines
    assert f"ssl_certificate_key {tmp_path}/site.key;" in lines


def test_nginx_started_by_root_keeps_its_workers_as_the_given_user(tmp_path):
    assert "user root;" in directives(nginx.nginx_config(proxy(tmp_path, user="root")))


def test_a_path_nginx_would_misread_is_refused(tmp_path):
    with pytest.raises(ValueError, match="plainer"):
        nginx.nginx_config(proxy(tmp_path, static_root=tmp_path / "my files;"))


@pytest.mark.skipif(NGINX is None, reason="nginx is not installed")
def test_nginx_accepts_the_generated_configuration(tmp_path):
    (tmp_path / "nginx").mkdir()
    path = tmp_path / "nginx" / "nginx.conf"
    user = "root" if os.geteuid() == 0 else None
    for changes in ({}, {"behind_proxy": True, "upstream": "127.0.0.1:8001", "user": user}):
        path.write_text(nginx.nginx_config(proxy(tmp_path, **changes)))
        result = subprocess.run(
            [str(NGINX), "-t", "-q", "-e", "stderr", "-p", str(path.parent), "-c", str(path)],
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(
    ("listen", "expected"),
    [("0.0.0.0:8000", ("0.0.0.0", 8000)), ("[::]:80", ("::", 80)), ("10.0.0.5:1", ("10.0.0.5", 1))],
)
def test_listen_addresses_are_split(listen, expected):
    assert addresses.split_listen(listen) == expected


@pytest.mark.parametrize("listen", ["8000", "host:", "host:99999", "host:http"])
def test_a_bad_listen_address_is_refused(listen):
    with pytest.raises(ValueError, match="HOST:PORT"):
        addresses.split_listen(listen)


def test_addresses_leave_out_loopback_and_link_local(monkeypatch):
    monkeypatch.setattr(
        addresses,
        "_ip_command_addresses",
        lambda: ["127.0.0.1", "192.168.1.20", "::1", "fe80::1", "fd00::2", "192.168.1.20"],
    )
    assert addresses.local_addresses() == ["192.168.1.20", "fd00::2"]


def test_urls_list_every_interface_for_a_wildcard_host(monkeypatch):
    monkeypatch.setattr(addresses, "local_addresses", lambda: ["192.168.1.20", "fd00::2"])
    assert addresses.urls("0.0.0.0", 8000) == [
        "http://127.0.0.1:8000/",
        "http://192.168.1.20:8000/",
    ]
    assert addresses.urls("::", 443, scheme="https") == [
        "https://127.0.0.1/",
        "https://192.168.1.20/",
        "https://[fd00::2]/",
    ]
    assert addresses.urls("10.1.1.1", 80) == ["http://10.1.1.1/"]


def test_secret_key_is_made_once_strong_and_private(tmp_path):
    path = tmp_path / "var" / "secret_key"
    key = secret_key(path)
    assert env.secret_key(key, debug=False, development_key="dev") == key  # strong enough
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert secret_key(path) == key


def test_no_database_server_says_what_to_do():
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(SystemExit) as error:
        database.ensure_database(f"postgres://nobody@127.0.0.1:{port}/mahjong")
    message = str(error.value)
    assert "No PostgreSQL server answers at 127.0.0.1" in message
    assert "apt-get install postgresql" in message
    assert "DATABASE_URL=postgres://" in message


def test_serve_script_parses():
    assert subprocess.run(["bash", "-n", str(SERVE)], timeout=30).returncode == 0


def test_nginx_closes_an_idle_connection_to_the_application_before_gunicorn_does(tmp_path):
    """gunicorn keeps an idle connection longer than nginx keeps it for the next request, so
    nginx never sends a request on one gunicorn is closing (a 502 for a POST)."""
    lines = directives(nginx.nginx_config(proxy(tmp_path)))
    assert f"keepalive_timeout {nginx.UPSTREAM_IDLE_SECONDS}s;" in lines
    [keep_alive] = re.findall(r"--keep-alive (\d+)", SERVE.read_text())
    assert int(keep_alive) == nginx.APP_KEEP_ALIVE_SECONDS
    assert nginx.APP_KEEP_ALIVE_SECONDS >= nginx.UPSTREAM_IDLE_SECONDS + 5


STRONG_KEY = "7Jx-q2Lr9VwT_b4nYc8sKp0mZeH3uA6fGdR1tNo5iWjXyQ-lBvCkEa2Ms8Pz9Dh4Fg"


def test_https_behind_a_proxy_passes_the_deployment_check():
    """The variables scripts/serve sets with BEHIND_PROXY (or a certificate): nothing to say."""
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=REPO_ROOT,
        env={
            "PATH": "/usr/bin:/bin",
            "DATABASE_URL": "postgres:///mahjong",
            "DEBUG": "false",
            "SECRET_KEY": STRONG_KEY,
            "ALLOWED_HOSTS": "mahjong.example.org",
            "HTTPS": "true",
            "PROXY_SSL_HEADER": "true",
            "PROXY_COUNT": "2",
        },
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout


# --- The whole set-up ---------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def database_url() -> str:
    from django.db import connection

    params = connection.settings_dict
    user = params["USER"] or ""
    password = f":{params['PASSWORD']}" if params["PASSWORD"] else ""
    host = params["HOST"] or "localhost"
    port = params["PORT"] or "5432"
    if str(host).startswith("/"):
        return f"postgres:///{params['NAME']}?host={host}"
    return f"postgres://{user}{password}@{host}:{port}/{params['NAME']}"


@pytest.mark.skipif(NGINX is None, reason="nginx is not installed")
@pytest.mark.skipif(not (REPO_ROOT / ".venv" / "bin" / "gunicorn").exists(), reason="no .venv")
@pytest.mark.django_db(transaction=True)
def test_the_site_answers_through_nginx(tmp_path, settings):
    """scripts/serve without its setup steps on the test database: an API answer through nginx
    and gunicorn (the pages need collectstatic's manifest, which SETUP=0 does not make)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("scripts/serve runs on PostgreSQL")
    port = free_port()
    environ = {
        **os.environ,
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "SETUP": "0",
        "STATE_DIR": str(tmp_path),
        "DATABASE_URL": database_url(),
        "WORKERS": "1",
        "THREADS": "2",
    }
    environ.pop("DJANGO_SETTINGS_MODULE", None)
    log = open(tmp_path / "serve.log", "wb")  # noqa: SIM115
    server = subprocess.Popen(
        [str(SERVE)], env=environ, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
    try:
        status = None
        for _ in range(150):
            assert server.poll() is None, (tmp_path / "serve.log").read_text()
            try:
                page = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                page.request("GET", "/api/tournaments")
                response = page.getresponse()
                status, body = response.status, response.read()
                if status != 502:
                    break
            except OSError:
                pass
            time.sleep(0.2)
        assert status == 200, (tmp_path / "serve.log").read_text()
        assert response.getheader("Server") == "nginx"
        assert response.getheader("Content-Security-Policy")
        assert body.startswith(b"[") or body.startswith(b"{"), body[:200]
        page.close()
        conf = (tmp_path / "nginx" / "nginx.conf").read_text()
        assert f"listen 127.0.0.1:{port} default_server;" in conf
        assert (tmp_path / "secret_key").exists()
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=40)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
        log.close()
    assert not (tmp_path / "gunicorn.sock").exists()


def test_a_players_private_link_is_not_written_to_nginx_log(tmp_path):
    """Its address holds the secret (tournament.services.player_links)."""
    config = nginx.nginx_config(proxy(tmp_path))
    block = config[config.index("location /p/ {") :]
    block = block[: block.index("}")]
    assert "access_log off;" in block and "proxy_pass http://app;" in block

"""The check-in desk in Chromium on a 360 px phone: find a player by name and check them in
with one tap (htmx swaps the row and the counts); check a player in from a photo of their QR
code (a PNG made with segno, given to the photo input: the page's script reads it with jsQR
and submits the link); the same with no camera (plain http at a venue); and without scripts,
search and tap still work. No Content-Security-Policy violation, nothing wider than the
screen, every button a finger's size.

Set OUT_SCREENSHOTS to a folder to keep screenshots of the pages.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest
import segno
from django.urls import reverse
from factories import make_players, make_tournament, make_user

from tournament.models import Player
from tournament.services import add_player, update_player
from tournament.services.check_in import set_desk_open

from .referee_screen import logged_in_context

pytestmark = pytest.mark.browser

# Playwright's assertions wait (its pages refuse wait_for_function's eval under our policy).
expect = pytest.importorskip("playwright.sync_api").expect

SHOTS = os.environ.get("OUT_SCREENSHOTS")
SECRET = "Qr7-link_Secret_0123456789abc"
NAMES = ["Ann Archer", "Ben Baker", "Cai Chen", "Dora Diaz"]

WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__violations.push(`${event.effectiveDirective} blocked ${event.blockedURI || "inline"}`);
});
"""
# A venue's plain http: no camera for the page (getUserMedia is only given to secure pages).
NO_CAMERA = "Object.defineProperty(navigator, 'mediaDevices', {value: undefined});"


def shoot(page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


def too_wide(page) -> list[str]:
    """The elements that reach past the screen's right edge (none when the page fits)."""
    return page.evaluate(
        """() => [...document.querySelectorAll('body *')]
            .filter((e) => e.getBoundingClientRect().right >
                           document.documentElement.clientWidth + 0.5)
            .map((e) => `${e.tagName}.${e.className}#${e.id}: ` +
                        Math.round(e.getBoundingClientRect().right))"""
    )


def fits(page) -> bool:
    wide = too_wide(page)
    assert wide == [], wide
    return page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )


def small_buttons(page) -> list[str]:
    """The visible buttons (and the photo button) less than 44 px high or wide."""
    return page.evaluate(
        """() => [...document.querySelectorAll(
              'main button, main .button, main input[type=search]')]
            .filter((e) => e.offsetParent !== null)
            .map((e) => [e.textContent.trim() || e.name, e.getBoundingClientRect()])
            .filter(([, r]) => r.height < 44 || r.width < 44)
            .map(([name, r]) => `${name}: ${Math.round(r.width)}x${Math.round(r.height)}`)"""
    )


def desk_url(live_server, slug: str = "spring-cup") -> str:
    return live_server.url + reverse("organiser:check_in", args=[slug])


def cup(**fields) -> list[Player]:
    organiser = make_user("alice")
    tournament = make_tournament(organisers=[organiser], **fields)
    players = make_players(tournament, names=NAMES)
    add_player(tournament=tournament, key="S", name="Sam Stand-in", substitute=True)
    update_player(player=players[3], withdrawn_from_round=1)
    set_desk_open(tournament, True, actor=organiser)
    return players


def open_desk(chromium, live_server, *, script: bool = True, camera: bool = True):
    context = logged_in_context(chromium, live_server, "alice", "phone", script=script)
    context.add_init_script(WATCH)
    if not camera:
        context.add_init_script(NO_CAMERA)
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(desk_url(live_server))
    return context, page, errors


def count(page, name: str) -> str:
    return page.locator(f'[data-count="{name}"]').inner_text()


def test_search_and_check_in_with_one_tap(chromium, live_server, transactional_db):
    players = cup()
    context, page, errors = open_desk(chromium, live_server)
    try:
        assert page.locator(".desk-player").count() == 5
        assert (count(page, "checked_in"), count(page, "missing")) == ("0", "3")
        assert fits(page)
        assert small_buttons(page) == []
        shoot(page, "check-in-desk")

        page.get_by_label("Name, number, EMA number").fill("ben")
        expect(page.locator(".desk-player")).to_have_count(1)
        assert "q=ben" in page.url  # the search is in the address, for a reload

        page.get_by_role("button", name="Check in Ben Baker").click()
        page.get_by_role("button", name="Check out Ben Baker").wait_for()
        assert page.locator(".desk-player.is-in").inner_text().count("Checked in at") == 1
        expect(page.locator('[data-count="checked_in"]')).to_have_text("1")
        assert count(page, "missing") == "2"
        assert Player.objects.get(pk=players[1].pk).checked_in_at is not None
        shoot(page, "check-in-desk-tapped")

        page.get_by_role("button", name="Check out Ben Baker").click()
        page.get_by_role("button", name="Check in Ben Baker").wait_for()
        expect(page.locator('[data-count="checked_in"]')).to_have_text("0")
        assert Player.objects.get(pk=players[1].pk).checked_in_at is None
        assert fits(page)

        page.get_by_label("Name, number, EMA number").fill("")
        page.get_by_role("button", name="Check in Ann Archer").click()
        page.get_by_role("button", name="Check out Ann Archer").wait_for()
        page.get_by_label("Only players not checked in").check()
        expect(page.locator(".desk-player")).to_have_count(3)  # Ben, Cai and Sam
        assert "missing=1" in page.url
        assert page.evaluate("window.__violations") == []

        context.clear_cookies(name="sessionid")  # the session ended: a tap leads to log in
        page.get_by_role("button", name="Check in Ben Baker").click()
        page.wait_for_url("**/accounts/login/**")
        assert Player.objects.get(pk=players[1].pk).checked_in_at is None
        assert errors == []
    finally:
        context.close()


def qr_png(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "link.png"
    segno.make(text, error="m").save(path, scale=8, border=4)
    return path


@pytest.mark.parametrize("camera", [True, False], ids=["secure", "plain-http"])
def test_check_in_from_a_photo_of_the_qr_code(
    chromium, live_server, transactional_db, tmp_path, camera
):
    players = cup(preset="wilmington-12-tile", seat_rotation="none")
    cai = players[2]
    cai.link_digest = hashlib.sha256(SECRET.encode()).hexdigest()
    cai.save(update_fields=["link_digest"])
    photo = qr_png(tmp_path, f"{live_server.url}/p/{SECRET}/")

    context, page, errors = open_desk(chromium, live_server, camera=camera)
    try:
        start = page.get_by_role("button", name="Scan with the camera")
        assert start.is_visible() == camera
        assert page.get_by_text("Take a photo of the QR code").is_visible()
        assert fits(page)
        assert small_buttons(page) == []

        with page.expect_navigation():
            page.locator("#desk-photo").set_input_files(str(photo))
        page.get_by_text("3 Cai Chen is checked in.").wait_for()
        assert Player.objects.get(pk=cai.pk).checked_in_at is not None
        assert count(page, "checked_in") == "1"
        assert page.locator("#desk-q").input_value() == ""  # ready for the next scan
        shoot(page, f"check-in-desk-qr-{'secure' if camera else 'plain'}")
        assert page.evaluate("window.__violations") == []
        assert errors == []
    finally:
        context.close()


def camera_video(tmp_path: Path, text: str) -> Path:
    """A Y4M video (grey) of the QR code of `text`, for Chromium's fake camera, which plays it
    in a loop: 640 by 480 at 10 frames a second, one second of the code (8 pixels a module, in
    the middle, on white), then one second of white: the code comes and goes, as a player's
    phone held up to the desk's camera and taken away."""
    width, height, scale = 640, 480, 8
    matrix = segno.make(text, error="m").matrix
    size = len(matrix) * scale
    left, top = (width - size) // 2, (height - size) // 2
    luma = bytearray(b"\xeb" * (width * height))  # white
    for row, modules in enumerate(matrix):
        for column, dark in enumerate(modules):
            if dark:
                for y in range(top + row * scale, top + (row + 1) * scale):
                    start = y * width + left + column * scale
                    luma[start : start + scale] = b"\x10" * scale
    chroma = b"\x80" * (width * height // 2)
    code = b"FRAME\n" + bytes(luma) + chroma
    white = b"FRAME\n" + b"\xeb" * (width * height) + chroma
    path = tmp_path / "camera.y4m"
    header = f"YUV4MPEG2 W{width} H{height} F10:1 Ip A1:1 C420jpeg\n".encode()
    path.write_bytes(header + code * 10 + white * 10)
    return path


def test_check_in_with_the_live_camera(chromium, live_server, transactional_db, tmp_path):
    """Chromium's fake camera shows the QR code: one tap on "Scan with the camera" checks the
    player in, and the camera opens again on the page the scan leads to, until stopped. The
    code just sent is not sent again while it stays in the picture (the answer stays on the
    screen); once it has gone and comes back, it is: the player was already checked in."""
    players = cup()
    ann = players[0]
    ann.link_digest = hashlib.sha256(SECRET.encode()).hexdigest()
    ann.save(update_fields=["link_digest"])
    video = camera_video(tmp_path, f"{live_server.url}/p/{SECRET}/")
    browser = chromium.browser_type.launch(
        executable_path="/usr/bin/chromium",  # as the session-wide `chromium` (tests/conftest.py)
        headless=True,
        args=[
            "--no-sandbox",
            "--use-fake-ui-for-media-stream",
            "--use-fake-device-for-media-stream",
            f"--use-file-for-fake-video-capture={video}",
        ],
    )
    try:
        context = logged_in_context(browser, live_server, "alice", "phone")
        context.grant_permissions(["camera"], origin=live_server.url)
        page = context.new_page()
        page.set_default_timeout(15_000)
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(desk_url(live_server))

        with page.expect_navigation():
            page.get_by_role("button", name="Scan with the camera").click()
        page.get_by_text("1 Ann Archer is checked in.").wait_for()
        assert Player.objects.get(pk=ann.pk).checked_in_at is not None

        # The camera is on again, ready for the next player (the same code: already in).
        page.get_by_role("button", name="Stop the camera").wait_for()
        page.get_by_text("1 Ann Archer was already checked in.").wait_for()
        page.get_by_role("button", name="Stop the camera").click()
        page.get_by_role("button", name="Scan with the camera").wait_for()
        page.reload()
        assert page.get_by_role("button", name="Scan with the camera").is_visible()
        assert errors == []
    finally:
        browser.close()


def test_a_photo_without_a_code_says_so(chromium, live_server, transactional_db, tmp_path):
    cup()
    blank = tmp_path / "blank.png"
    segno.make("x").save(blank, scale=1, border=40, dark="white")  # all white: no code

    context, page, errors = open_desk(chromium, live_server, camera=False)
    try:
        page.locator("#desk-photo").set_input_files(str(blank))
        page.get_by_text("No QR code found in the photo").wait_for()
        assert Player.objects.filter(checked_in_at__isnull=False).count() == 0
        assert errors == []
    finally:
        context.close()


def test_a_barcode_scanner_typing_another_tournaments_link(chromium, live_server, transactional_db):
    cup()
    other = make_tournament(slug="autumn-cup", name="Autumn Cup")
    [stranger] = make_players(other, count=1)
    stranger.link_digest = hashlib.sha256(SECRET.encode()).hexdigest()
    stranger.save(update_fields=["link_digest"])

    context, page, errors = open_desk(chromium, live_server)
    try:
        page.locator("#desk-q").fill(f"http://venue.local/p/{SECRET}/")
        with page.expect_navigation():
            page.locator("#desk-q").press("Enter")
        page.get_by_text("not the link of a player of this tournament").wait_for()
        assert not Player.objects.filter(checked_in_at__isnull=False).exists()
        assert errors == []
    finally:
        context.close()


def test_without_scripts_search_and_tap(chromium, live_server, transactional_db):
    players = cup()
    context, page, _ = open_desk(chromium, live_server, script=False)
    try:
        assert not page.locator("#desk-camera").is_visible()
        page.locator("#desk-q").fill("archer")
        page.get_by_role("button", name="Find").click()
        page.wait_for_url("**/check-in/?q=archer")
        assert page.locator(".desk-player").count() == 1

        page.get_by_role("button", name="Check in Ann Archer").click()
        page.wait_for_url("**/check-in/?q=archer")
        page.get_by_text("1 Ann Archer is checked in.").wait_for()
        assert Player.objects.get(pk=players[0].pk).checked_in_at is not None
        assert fits(page)
    finally:
        context.close()

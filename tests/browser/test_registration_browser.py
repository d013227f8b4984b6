"""The public registration page on a 360 px phone (Debian's Chromium): the form fits without
sideways scrolling, its fields and button are large enough to touch, the field for bots is
out of sight, and a registration goes through to its result; no Content-Security-Policy
violation on the way."""

from __future__ import annotations

import pytest
from factories import make_tournament

from tournament.models import Registration

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def phone(chromium):
    context = chromium.new_context(viewport={"width": 360, "height": 740})
    page = context.new_page()
    page.set_default_timeout(10_000)
    violations: list[str] = []
    page.on("console", lambda message: violations.append(message.text)
            if "Content Security Policy" in message.text else None)  # fmt: skip
    page.violations = violations
    yield page
    context.close()


def test_a_player_registers_on_a_phone(phone, live_server, organiser):
    make_tournament(organisers=[organiser], registration="instant", registration_cap=8)
    phone.goto(f"{live_server.url}/t/spring-cup/")
    phone.get_by_role("link", name="Register").first.click()

    width, visible = phone.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert width <= visible, f"the page scrolls sideways: {width} > {visible}"
    assert not phone.locator("#id_website").is_visible() or phone.evaluate(
        "document.getElementById('id_website').getBoundingClientRect().right <= 0"
    )
    for selector in ("#id_family_name", "#id_country", "button[type=submit]"):
        box = phone.locator(selector).bounding_box()
        assert box is not None and box["height"] >= 44, selector
    phone.fill("#id_family_name", "王")
    phone.fill("#id_given_name", "小明")
    phone.select_option("#id_country", "CN")
    phone.fill("#id_contact", "wang@example.org")
    phone.click("button[type=submit]")

    phone.wait_for_url("**/register/done/")
    assert "you have a place in the field" in phone.inner_text("main")
    assert "王小明" in phone.inner_text("main")
    assert Registration.objects.get().player.name == "王小明"
    assert phone.violations == []

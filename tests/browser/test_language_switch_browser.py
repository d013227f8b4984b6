"""The language switch in Chromium at phone and desktop sizes, and the main pages in Chinese.

Switch to 简体中文 on a public page: that page and the next one are in Chinese; switch back to
English. No page may scroll sideways in Chinese either. Set OUT_SCREENSHOTS to a folder to keep
screenshots of the pages looked at.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.urls import reverse

from tournament.management.demo import DEMO_PASSWORD, load_demo_data

pytestmark = pytest.mark.browser

SIZES = {"phone": {"width": 360, "height": 740}, "desktop": {"width": 1280, "height": 800}}
SHOTS = os.environ.get("OUT_SCREENSHOTS")


@pytest.fixture
def demo(transactional_db):
    return load_demo_data()


def shoot(page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


def fits(page) -> bool:
    return page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_switch_to_chinese_and_back(live_server, chromium, demo, size):
    slug = demo.tournament.slug
    context = chromium.new_context(viewport=SIZES[size], locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        page.goto(live_server.url + reverse("public:tournament", kwargs={"slug": slug}))
        assert page.locator("html").get_attribute("lang") == "en"
        switch = page.locator("form.lang-switch")
        assert switch.get_by_text("Language").is_visible()
        with page.expect_navigation():  # back to the same address: wait for the new page
            switch.get_by_role("button", name="简体中文").click()
        # Back on the same page, now in Chinese.
        assert page.url.endswith(reverse("public:tournament", kwargs={"slug": slug}))
        assert page.locator("html").get_attribute("lang") == "zh-hans"
        calculator = page.locator('.site-nav a[href="/scoring/calculator/"]')
        assert calculator.is_visible()
        assert fits(page)
        shoot(page, f"switch-{size}-tournament")
        # The next page keeps the language (the cookie).
        name = calculator.inner_text()
        calculator.click()
        page.wait_for_url(lambda url: url.endswith(reverse("scoring:calculator")))
        assert page.locator("html").get_attribute("lang") == "zh-hans"
        assert page.locator("h1").inner_text() == name  # the page is named as in the menu
        assert fits(page)
        # And back to English.
        with page.expect_navigation():
            page.locator("form.lang-switch").get_by_role("button", name="English").click()
        assert page.locator("html").get_attribute("lang") == "en"
        assert page.locator(".site-nav").get_by_text("Hand calculator").is_visible()
    finally:
        context.close()


def public_pages(slug: str) -> list[tuple[str, str]]:
    return [
        ("home", reverse("home")),
        ("tournament", reverse("public:tournament", kwargs={"slug": slug})),
        ("standings", reverse("public:standings", kwargs={"slug": slug})),
        ("round", reverse("public:round", kwargs={"slug": slug, "number": 1})),
        ("table", reverse("public:table", kwargs={"slug": slug, "number": 1, "table": 1})),
        ("player", reverse("public:player", kwargs={"slug": slug, "key": "1"})),
        ("statistics", reverse("stats:tournament", kwargs={"slug": slug})),
        ("player-statistics", reverse("stats:player", kwargs={"slug": slug, "key": "1"})),
        ("calculator", reverse("scoring:calculator") + "?hand=111222333m44455m"),
    ]


def organiser_pages(slug: str) -> list[tuple[str, str]]:
    return [
        ("dashboard", reverse("organiser:dashboard", kwargs={"slug": slug})),
        ("round-1", reverse("organiser:round", kwargs={"slug": slug, "number": 1})),
        ("players", reverse("organiser:players", kwargs={"slug": slug})),
        ("settings", reverse("organiser:settings", kwargs={"slug": slug})),
        ("printouts", reverse("outputs:index", kwargs={"slug": slug})),
        ("standings-printout", reverse("outputs:standings", kwargs={"slug": slug})),
        ("sheets", reverse("outputs:sheets", kwargs={"slug": slug, "number": 1})),
        ("seating-plan", reverse("seating:plan", kwargs={"slug": slug})),
    ]


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_main_pages_in_chinese_fit_the_screen(live_server, chromium, demo, size):
    slug = demo.tournament.slug
    context = chromium.new_context(viewport=SIZES[size], locale="zh-CN")
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        wide = []
        for name, url in public_pages(slug):
            page.goto(live_server.url + url)
            assert page.locator("html").get_attribute("lang") == "zh-hans", name
            shoot(page, f"zh-{size}-{name}")
            if not fits(page):
                wide.append(name)
        page.goto(live_server.url + reverse("login"))
        page.fill("input[name=username]", demo.organiser.get_username())
        page.fill("input[name=password]", DEMO_PASSWORD)
        with page.expect_navigation():  # logged in before the next page is asked for
            page.get_by_role("button", name="登录").click()
        for name, url in organiser_pages(slug):
            response = page.goto(live_server.url + url)
            assert response.status == 200, name
            shoot(page, f"zh-{size}-{name}")
            if not fits(page) and name != "sheets":  # game sheets are laid out for A4 paper
                wide.append(name)
        assert wide == []
    finally:
        context.close()

"""Build hands on the calculator page by tapping tiles, as a player would on a phone."""

from __future__ import annotations

import re

import pytest

from .conftest import PHONE

pytestmark = pytest.mark.browser


def open_calculator(page, live_server, query: str = ""):
    page.goto(f"{live_server.url}/scoring/calculator/{query}")
    page.wait_for_selector("#calc-standing")
    return page


def choose_mode(page, label: str) -> None:
    page.get_by_role("radio", name=label, exact=True).check()


def tap(page, *codes: str) -> None:
    for code in codes:
        page.locator(f'.calc-picker .tile[data-tile="{code}"]').click()


def total(page) -> str:
    return page.locator("#calc-verdict [data-total]").inner_text()


def wait_for_total(page, value: int) -> None:
    page.wait_for_function(
        "value => document.querySelector('#calc-verdict [data-total]')?.textContent === value",
        arg=str(value),
    )


def fans(page) -> dict[str, tuple[int, int]]:
    rows = page.locator("#calc-verdict tr.fan")
    result = {}
    for i in range(rows.count()):
        row = rows.nth(i)
        result[row.get_attribute("data-fan")] = (
            int(row.locator(".fan-points").inner_text()),
            int(row.locator(".fan-count").inner_text().lstrip("×")),
        )
    return result


def test_tapping_kongs_tiles_and_the_winning_tile_scores_the_hand(phone_page, live_server):
    page = open_calculator(phone_page, live_server)

    choose_mode(page, "Concealed kong")
    tap(page, "S", "9s")
    choose_mode(page, "Tile")
    tap(page, "4m", "5m", "5m", "6m", "6m", "6s", "6s")
    choose_mode(page, "Winning tile")
    tap(page, "4m")
    page.select_option("#id_prevalent_wind", "S")
    page.select_option("#id_flowers", "2")

    wait_for_total(page, 17)
    assert page.locator("#id_hand").input_value() == "45566m 66s (SSSS) (9999s) 4m"
    assert page.locator("[data-total-excl-flowers]").inner_text() == "15"
    assert "Meets the 8-fan minimum" in page.locator("#calc-verdict").inner_text()
    assert fans(page) == {
        "双暗杠": (8, 1),
        "圈风刻": (2, 1),
        "门前清": (2, 1),
        "一般高": (1, 1),
        "幺九刻": (1, 1),
        "缺一门": (1, 1),
        "花牌": (1, 2),
    }

    page.select_option("#id_profile", "cn-1998")

    wait_for_total(page, 15)
    assert fans(page)["双暗杠"] == (6, 1)


def test_fourteen_taps_make_the_last_tile_the_winning_tile(phone_page, live_server):
    page = open_calculator(phone_page, live_server)

    tap(page, "4m", "4m", "3p", "3p", "3p", "4p", "4p", "5s", "5s", "7s", "7s", "8s", "8s")
    expect_text(page, "#calc-verdict", "13 of 14 tiles: add 1 more.")
    tap(page, "3p")
    page.select_option("#id_seat_wind", "S")
    page.select_option("#id_flowers", "1")

    wait_for_total(page, 29)
    assert fans(page)["七对"] == (24, 1)
    assert page.locator("#calc-win .tile").get_attribute("data-tile") == "3p"
    assert page.locator("#id_hand").input_value() == "44m 33344p 557788s 3p"


def test_a_tap_on_a_full_hand_is_refused_with_a_reason(phone_page, live_server):
    page = open_calculator(phone_page, live_server)
    tap(page, "4m", "4m", "3p", "3p", "3p", "4p", "4p", "5s", "5s", "7s", "7s", "8s", "8s", "3p")
    wait_for_total(page, 28)

    tap(page, "9m")

    assert page.locator("#calc-notice").inner_text() == "The hand is full. Take a tile out first."
    assert page.locator("#calc-bar").is_visible()
    assert page.locator("#id_hand").input_value() == "44m 33344p 557788s 3p"


def test_removing_a_tile_and_clearing(phone_page, live_server):
    page = open_calculator(phone_page, live_server)
    tap(page, "1m", "2m", "3m")

    page.get_by_role("button", name="Remove 2 Characters").click()

    assert page.locator("#id_hand").input_value() == "13m"
    page.get_by_role("button", name="Clear").click()
    assert page.locator("#id_hand").input_value() == ""
    # The server's verdict on the empty form comes back.
    expect_text(page, "#calc-verdict", "No hand yet.")
    assert page.locator("#calc-verdict").inner_text() == "No hand yet."
    assert page.locator("#calc-summary").inner_text() == ""


def test_fifth_copy_of_a_tile_cannot_be_added(phone_page, live_server):
    page = open_calculator(phone_page, live_server)

    tap(page, "P", "P", "P", "P")

    assert page.locator('.calc-picker .tile[data-tile="P"]').is_disabled()


def test_false_win_is_announced(phone_page, live_server):
    page = open_calculator(phone_page, live_server)

    choose_mode(page, "Chow")
    tap(page, "7m")
    choose_mode(page, "Tile")
    tap(page, "2p", "3p", "4p", "4p", "5p", "6p", "7s", "7s", "E", "E", "E")
    page.select_option("#id_seat_wind", "N")
    page.select_option("#id_prevalent_wind", "S")

    wait_for_total(page, 1)
    assert "False win (below 8 fan)" in page.locator("#calc-verdict").inner_text()
    assert "False win" in page.locator("#calc-summary").inner_text()


def test_typed_notation_shows_the_tiles_and_the_score(phone_page, live_server):
    page = open_calculator(phone_page, live_server)

    page.fill("#id_hand", "44m 333p 44p 55s 77s 88s 3p")

    wait_for_total(page, 28)
    assert page.locator("#calc-standing .tile").count() == 13
    assert page.locator("#calc-win .tile").get_attribute("data-tile") == "3p"


def test_a_shared_link_opens_with_the_hand(phone_page, live_server):
    page = open_calculator(phone_page, live_server, "?hand=44m+333p+44p+55s+77s+88s+3p&flowers=1")

    assert total(page) == "29"
    assert page.locator("#calc-standing .tile").count() == 13


def test_page_fits_a_360_pixel_screen(phone_page, live_server):
    page = open_calculator(phone_page, live_server, "?hand=45566m+66s+(SSSS)+(9999s)+4m")

    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")

    assert overflow <= 0


def expect_text(page, selector: str, words: str) -> None:
    page.wait_for_function(
        "([selector, words]) => document.querySelector(selector).textContent.includes(words)",
        arg=[selector, words],
    )
    assert re.search(re.escape(words), page.locator(selector).inner_text())


def test_the_verdict_names_its_rules_and_shows_where_the_other_rules_differ(
    phone_page, live_server
):
    """A self-drawn Seven Pairs: Fully Concealed Hand by the Green Book, Self-Drawn by the
    Chinese rules; on a 360 px screen, without scrolling sideways."""
    page = open_calculator(phone_page, live_server)

    tap(page, "1m", "1m", "3m", "3m", "5p", "5p", "9s", "9s", "E", "E", "C", "C", "3p")
    choose_mode(page, "Winning tile")
    tap(page, "3p")
    wait_for_total(page, 30)
    verdict = page.locator("#calc-verdict")
    assert "Scored by the WMO Green Book 2006." in verdict.inner_text()
    assert page.locator(".verdict-compare").count() == 0  # on a discard both rules agree

    page.get_by_label("Self-drawn").check()

    wait_for_total(page, 34)
    compare = page.locator('.verdict-compare[data-compare="cn-1998"]')
    assert "Under the Chinese rules 1998 these tiles score differently" in compare.inner_text()
    assert compare.locator('[data-compare-total="wmo-2006"]').inner_text() == "34"
    assert compare.locator('[data-compare-total="cn-1998"]').inner_text() == "31"
    rows = compare.locator("tr.fan-difference")
    cells = {
        rows.nth(i).get_attribute("data-fan"): rows.nth(i).locator("td.number").all_inner_texts()
        for i in range(rows.count())
    }
    assert cells == {"不求人": ["4 ×1", "—"], "自摸": ["—", "1 ×1"]}
    assert page.evaluate("document.documentElement.scrollWidth") <= 360

    page.select_option("#id_profile", "cn-1998")

    wait_for_total(page, 31)
    assert "Scored by the Chinese rules 1998." in verdict.inner_text()
    compare = page.locator('.verdict-compare[data-compare="wmo-2006"]')
    assert compare.locator('[data-compare-total="wmo-2006"]').inner_text() == "34"


def test_a_typed_mistake_is_explained_by_the_server(phone_page, live_server):
    page = open_calculator(phone_page, live_server)

    page.fill("#id_hand", "123m 456p 789s 11x 1s")

    expect_text(page, "#calc-verdict", "There is a tile code the calculator does not know")
    assert page.locator("#calc-verdict .verdict--error").count() == 1
    assert page.locator("#calc-summary").get_attribute("class") == (
        "calc-summary calc-summary--error"
    )

    page.fill("#id_hand", "44m 333p 44p 55s 77s 88s 3p")

    wait_for_total(page, 28)
    assert page.locator("#calc-verdict .verdict--error").count() == 0
    assert page.locator("#calc-summary").inner_text() == "28 fan: meets the 8-fan minimum."


def test_the_verdict_is_drawn_in_the_readers_language(chromium, live_server):
    context = chromium.new_context(viewport=PHONE, has_touch=True, locale="zh-CN")
    page = open_calculator(context.new_page(), live_server)
    page.set_default_timeout(10_000)

    tap(page, "4m", "4m", "3p", "3p", "3p", "4p", "4p", "5s", "5s", "7s", "7s", "8s", "8s")
    expect_text(page, "#calc-verdict", "13 / 14 张：还要加 1 张。")
    tap(page, "3p")

    wait_for_total(page, 28)
    verdict = page.locator("#calc-verdict")
    assert "达到 8 番起和" in verdict.inner_text()
    assert verdict.locator('tr.fan[data-fan="七对"] .fan-name').inner_text() == "七对"
    assert page.locator("#calc-summary").inner_text() == "28 番：达到 8 番起和。"
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    context.close()


def test_a_verdict_that_cannot_be_fetched_says_so(chromium, live_server):
    """Offline at the venue: the hand stays, the verdict box says the server was not reached
    (htmx logs the failed request; the page itself has no script error)."""
    context = chromium.new_context(viewport=PHONE, has_touch=True)
    page = open_calculator(context.new_page(), live_server)
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.route("**/scoring/calculator/verdict/", lambda route: route.abort())

    tap(page, "1m", "2m")

    expect_text(page, "#calc-verdict", "The calculator could not reach the server.")
    assert page.locator("#calc-summary").inner_text() == (
        "The calculator could not reach the server."
    )
    assert page.locator("#id_hand").input_value() == "12m"

    page.unroute("**/scoring/calculator/verdict/")
    tap(page, "3m")

    expect_text(page, "#calc-verdict", "3 of 14 tiles: add 11 more.")
    assert errors == []
    context.close()

"""Build a Japanese Transitional hand on the calculator at 360 px, as a referee would on a
phone, and read its breakdown in points and doubles."""

from __future__ import annotations

import pytest

from .test_calculator_browser import choose_mode, open_calculator, tap

pytestmark = pytest.mark.browser


def wait_for_final(page, value: int) -> None:
    page.wait_for_function(
        "value => document.querySelector('#calc-verdict [data-final]')?.textContent === value",
        arg=str(value),
    )


def patterns(page) -> dict[str, tuple[str, int]]:
    rows = page.locator("#calc-verdict tr.pattern")
    found = {}
    for i in range(rows.count()):
        row = rows.nth(i)
        found[row.get_attribute("data-pattern")] = (
            row.locator(".pattern-value").inner_text(),
            int(row.locator(".fan-count").inner_text().lstrip("×")),
        )
    return found


def test_a_jt_hand_built_by_taps_shows_points_and_doubles(phone_page, live_server):
    page = open_calculator(phone_page, live_server)

    page.get_by_role("radio", name="Japanese Transitional", exact=True).check()
    assert page.get_by_label("Riichi declared").is_visible()
    assert not page.locator("#id_flowers").is_visible()
    assert not page.locator("#id_profile").is_visible()

    # JT-02 of the specification: a no-points hand, self-drawn by North.
    choose_mode(page, "Tile")
    tap(page, "3m", "4m", "5p", "6p", "7p", "3s", "4s", "5s", "6s", "7s", "8s", "9m", "9m")
    choose_mode(page, "Winning tile")
    tap(page, "2m")
    page.get_by_label("Self-drawn").check()
    page.select_option("#id_seat_wind", "N")

    wait_for_final(page, 90)
    verdict = page.locator("#calc-verdict")
    assert verdict.locator("[data-points]").inner_text() == "22"
    assert verdict.locator("[data-doubles]").inner_text() == "2"
    assert verdict.locator("[data-raw]").inner_text() == "88"
    assert patterns(page) == {
        "winning": ("20 pts", 1),
        "self_drawn": ("2 pts", 1),
        "fully_concealed": ("1 dbl", 1),
        "no_points_hand": ("1 dbl", 1),
    }
    assert "winning tile" in verdict.locator(".verdict-sets").inner_text()

    page.get_by_label("Riichi declared").check()

    wait_for_final(page, 180)  # 22 x 2^3 = 176
    assert patterns(page)["riichi"] == ("1 dbl", 1)
    assert "180 points" in page.locator("#calc-summary").inner_text()
    # Nothing wider than the phone's screen.
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_switching_back_to_mcr_scores_the_same_tiles_in_fan(phone_page, live_server):
    page = open_calculator(phone_page, live_server, "?hand=123m+456m+789m+234p+5s+5s&preset=jt")

    # 20 + 2 (out on a pair) + 10 (concealed hand), pure straight concealed 2 dbl: 128 -> 130
    wait_for_final(page, 130)
    assert patterns(page)["pure_straight"] == ("2 dbl", 1)

    page.get_by_role("radio", name="MCR", exact=True).check()

    page.wait_for_selector("#calc-verdict [data-total]")
    assert page.locator("#id_flowers").is_visible()
    assert not page.get_by_label("Riichi declared").is_visible()

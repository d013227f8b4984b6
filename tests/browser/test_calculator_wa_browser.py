"""Build a Wilmington hand with the joker on the calculator at 360 px, as a referee would on a
phone, and read its breakdown in points with the joker's chosen value."""

from __future__ import annotations

import pytest

from .test_calculator_browser import choose_mode, open_calculator, tap
from .test_calculator_jt_browser import wait_for_final

pytestmark = pytest.mark.browser


def patterns(page) -> dict[str, tuple[int, int]]:
    rows = page.locator("#calc-verdict tr.pattern")
    found = {}
    for i in range(rows.count()):
        row = rows.nth(i)
        found[row.get_attribute("data-pattern")] = (
            int(row.locator(".pattern-value").inner_text()),
            int(row.locator(".fan-count").inner_text().lstrip("×")),
        )
    return found


def test_a_wa_hand_with_the_joker_built_by_taps_shows_its_points(phone_page, live_server):
    page = open_calculator(phone_page, live_server)

    assert not page.locator('.calc-picker [data-tile="J"]').is_visible()
    page.get_by_role("radio", name="Wilmington", exact=True).check()
    assert page.locator('.calc-picker [data-tile="J"]').is_visible()
    assert page.get_by_label("Out at once on the fourth kong").is_visible()
    assert not page.locator("#id_flowers").is_visible()

    # WA-02 of the specification: the joker completes 4m-6m, a melded pung of white dragons.
    choose_mode(page, "Pung")
    tap(page, "P")
    choose_mode(page, "Tile")
    tap(page, "4m", "J", "6m", "6p", "7p", "8p", "7s", "7s", "S", "S")
    # The hand holds one joker: the picker's joker is spent.
    assert page.locator('.calc-picker [data-tile="J"]').is_disabled()
    choose_mode(page, "Winning tile")
    tap(page, "7s")
    page.get_by_label("Self-drawn").check()
    page.select_option("#id_seat_wind", "N")

    wait_for_final(page, 15)
    verdict = page.locator("#calc-verdict")
    assert verdict.locator("[data-joker-as]").get_attribute("data-joker-as") == "5m"
    assert patterns(page) == {
        "self_drawn": (1, 1),
        "dragon_pung": (2, 1),
        "all_types": (12, 1),
    }
    assert "15 points" in page.locator("#calc-summary").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360

    # Won on a discard instead: 14 points, below the minimum, a faulty out with its breakdown.
    page.get_by_label("Self-drawn").uncheck()

    wait_for_final(page, 14)
    assert "Faulty out" in verdict.locator(".verdict-title").inner_text()
    assert "self_drawn" not in patterns(page)


def test_a_wa_hand_tapped_tile_by_tile_with_the_joker_in_it_is_scored(phone_page, live_server):
    page = open_calculator(phone_page, live_server)
    page.get_by_role("radio", name="Wilmington", exact=True).check()

    # WA-22 of the shared cases, every tile one tap, the joker among them: 45 on a discard.
    tap(page, "C", "C", "C", "F", "F", "F", "5p", "6p", "2m", "3m", "4m", "P", "J")
    assert page.locator("#calc-count").inner_text() == "13 of 14 tiles"
    tap(page, "7p")
    assert page.locator("#calc-count").inner_text() == "14 of 14 tiles"
    page.select_option("#id_seat_wind", "S")

    wait_for_final(page, 45)
    assert page.locator("#id_hand").input_value() == "234m 56p CCCFFFPJ 7p"
    assert "Meets the 15-point minimum" in page.locator("#calc-verdict").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360

    # Under MCR the joker key is gone.
    page.get_by_role("radio", name="MCR", exact=True).check()
    assert not page.locator('.calc-picker [data-tile="J"]').is_visible()

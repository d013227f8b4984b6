"""A referee plays a whole 16-hand game on a phone, then the public standings show the result.

Every hand is entered through the table screen in Chromium at 360 x 740: quick entries, a false
win, a hand built with the tile picker and scored by the engine, drawn hands, an undone mistake
and the end of the game. After each hand the screen must show the running scores and the next
dealer. Set REF_SCREENSHOTS to a folder to keep screenshots of the pages (phone and desktop).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tournament.models import Table
from tournament.services import confirm_game

from .referee_screen import NAMES, choose, make_cup

pytestmark = pytest.mark.browser

PASSWORD = "referee-pass-42"
# Who deals each hand under the WMO seat rotation (rules/TOURNAMENT.md): A B C D, B A D C,
# C D B A, D C A B, as indexes of the players who started E, S, W, N.
DEALERS = [0, 1, 2, 3, 1, 0, 3, 2, 2, 3, 1, 0, 3, 2, 0, 1]
SHOTS = os.environ.get("REF_SCREENSHOTS")


def shoot(page, name: str, *parts: str) -> None:
    """The screen as seen, the whole page, and close-ups of the `parts` (CSS selectors)."""
    if not SHOTS:
        return
    folder = Path(SHOTS)
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"))
    page.screenshot(path=str(folder / f"{name}-full.png"), full_page=True)
    for number, selector in enumerate(parts, start=1):
        page.locator(selector).screenshot(path=str(folder / f"{name}-part{number}.png"))


def payments(winner: int, discarder: int | None, value: int) -> list[int]:
    """8 + value from the discarder and 8 from the others, or 8 + value from each (self-drawn)."""
    pays = [0, 0, 0, 0]
    for seat in range(4):
        if seat != winner:
            pays[seat] = -(8 + value) if discarder in (None, seat) else -8
    pays[winner] = -sum(pays)
    return pays


@pytest.fixture
def cup(live_server):
    return make_cup(password=PASSWORD).round.tournament


class TableScreen:
    def __init__(self, page, url: str):
        self.page = page
        self.url = url

    def entry(self, name: str):
        entry = self.page.locator(f"#entry-{name}")
        if entry.get_attribute("open") is None:
            entry.locator("summary").click()
        return entry

    def choose(self, entry, legend: str, label: str) -> None:
        choose(entry, legend, label)

    def submit(self, button) -> None:
        with self.page.expect_navigation():
            button.click()

    def quick_win(self, winner: str, discarder: str, fan: int, flowers: int = 0) -> None:
        entry = self.entry("win")
        self.choose(entry, "Winner", winner)
        self.choose(entry, "Discarder", discarder)
        entry.locator("input[name=fan]").fill(str(fan))
        self.choose(entry, "Flowers", str(flowers))
        self.submit(entry.get_by_role("button", name=re.compile(r"^Record hand")))

    def draw(self) -> None:
        entry = self.entry("draw")
        self.submit(entry.get_by_role("button", name=re.compile(r"as drawn$")))

    def scores(self) -> list[int]:
        return [int(text) for text in self.page.locator("#status [data-score]").all_inner_texts()]

    def dealer(self) -> str:
        return self.page.locator("#status .ref-player.is-dealer .ref-name").inner_text()

    def next_hand(self) -> int:
        return int(self.page.locator("[data-next-hand]").inner_text())

    def message(self) -> str:
        return self.page.locator(".messages").inner_text()

    def assert_fits_the_screen(self) -> None:
        width = self.page.evaluate("document.documentElement.scrollWidth")
        assert width <= self.page.viewport_size["width"], "the page scrolls sideways"


def test_a_referee_enters_a_whole_game_and_the_standings_show_it(phone_page, live_server, cup):
    page = phone_page
    page.goto(f"{live_server.url}{reverse('referee:index')}")
    assert "/accounts/login/" in page.url
    page.fill("input[name=username]", "bob")
    page.fill("input[name=password]", PASSWORD)
    with page.expect_navigation():
        page.get_by_role("button", name="Log in").click()
    assert page.url.endswith(reverse("referee:index"))
    shoot(page, "phone-index")
    with page.expect_navigation():
        page.get_by_role("link", name=re.compile("Table 1")).click()
    screen = TableScreen(page, page.url)
    assert screen.scores() == [0, 0, 0, 0]
    assert screen.next_hand() == 1
    assert screen.dealer().startswith("Ann Archer")
    screen.assert_fits_the_screen()
    shoot(page, "phone-table-start")

    running = [0, 0, 0, 0]

    def after(number_entered: int, paid: list[int]) -> None:
        for seat in range(4):
            running[seat] += paid[seat]
        assert screen.scores() == running, f"after hand {number_entered}"
        if number_entered < 16:
            assert screen.next_hand() == number_entered + 1
            assert screen.dealer().startswith(NAMES[DEALERS[number_entered]])

    # Hand 1: Ben wins 10 fan + 1 flower on Cai's discard: 19 from Cai, 8 from the others.
    screen.quick_win("Ben Baker", "Cai Chen", 10, 1)
    assert "Hand 1: Ben Baker won on Cai Chen’s discard, 10 fan + 1 flower." in screen.message()
    after(1, [-8, 35, -19, -8])

    # Hand 2: Dora declares a false win (below 8 fan) and pays 10 to each...
    entry = screen.entry("false-win")
    screen.choose(entry, "Offender", "Dora Diaz")
    assert entry.locator("select[name=number]").input_value() == "2"
    screen.submit(entry.get_by_role("button", name="Record the false win"))
    assert "False win by Dora Diaz in hand 2" in screen.message()
    running[:] = [r + p for r, p in zip(running, [10, 10, 10, -30], strict=True)]
    assert screen.scores() == running
    assert screen.next_hand() == 2  # the hand goes on

    # ...and Ann wins it: the tiles built with the picker, checked, then scored by the engine.
    entry = screen.entry("full")
    screen.choose(entry, "Winner", "Ann Archer")
    screen.choose(entry, "Discarder", "Cai Chen")
    for code in ["2p", "2p", "4p", "5p", "6p", "6p", "7p", "8p", "8p", "8p", "9p", "9p", "9p"]:
        entry.locator(f'#tile-picker .tile[data-tile="{code}"]').click()
    entry.locator("#tile-picker [data-key=back]").click()
    entry.locator('#tile-picker .tile[data-tile="9p"]').click()
    entry.locator('#tile-picker .tile[data-tile="2p"]').click()
    assert entry.locator("input[name=tiles]").input_value() == "22456678889992p"
    screen.choose(entry, "Flowers", "1")
    screen.submit(entry.get_by_role("button", name="Check"))
    verdict = page.locator("#verdict")
    assert "Ann Archer with North seat wind, prevailing wind East" in verdict.inner_text()
    assert verdict.locator("[data-total]").inner_text() == "28"
    assert verdict.locator("[data-total-excl-flowers]").inner_text() == "27"
    assert "Full Flush" in verdict.inner_text()
    screen.assert_fits_the_screen()
    shoot(page, "phone-full-entry-check", "#entry-full", ".ref-sheet-section")
    screen.submit(page.locator("#entry-full").get_by_role("button", name="Save hand 2"))
    assert "Hand 2: Ann Archer won on Cai Chen’s discard, 27 fan + 1 flower." in screen.message()
    after(2, payments(0, 2, 28))

    # Hand 3: drawn.
    screen.draw()
    assert "Hand 3: drawn hand, nobody pays." in screen.message()
    after(3, [0, 0, 0, 0])

    # A mistake shows on its form with the values kept, and nothing is saved.
    entry = screen.entry("win")
    screen.choose(entry, "Winner", "Cai Chen")
    screen.choose(entry, "Discarder", "Self-drawn")
    entry.locator("input[name=fan]").fill("6")
    screen.submit(entry.get_by_role("button", name="Record hand 4"))
    entry = page.locator("#entry-win")
    assert "A win needs at least 8 fan, not counting flowers; 6 is a false win." in (
        entry.inner_text()
    )
    assert entry.locator("input[name=fan]").input_value() == "6"
    assert entry.locator("input[name=winner]:checked").get_attribute("value") == "3"
    assert screen.scores() == running
    screen.assert_fits_the_screen()
    shoot(page, "phone-error")

    game = [
        # (winner, discarder or None for self-drawn, fan, flowers); None for a drawn hand
        (2, None, 8, 0),  # 4
        (3, 0, 12, 2),  # 5
        None,  # 6
        (0, None, 9, 1),  # 7
        (1, 3, 8, 0),  # 8
        (2, 1, 16, 3),  # 9
        None,  # 10 (after an undone mistake)
        (3, None, 24, 0),  # 11
        (0, 1, 8, 1),  # 12
        (1, None, 8, 0),  # 13
        (2, 3, 11, 0),  # 14
        None,  # 15
        (0, 2, 8, 0),  # 16
    ]
    for number, hand in enumerate(game, start=4):
        if number == 10:
            # Entered by mistake, then undone after the confirmation step.
            screen.quick_win("Ann Archer", "Self-drawn", 8)
            with page.expect_navigation():
                page.get_by_role("button", name="Undo hand 10…").click()
            assert "Remove hand 10?" in page.content()
            shoot(page, "phone-undo-confirm")
            with page.expect_navigation():
                page.get_by_role("button", name="Remove hand 10").click()
            assert "Hand 10 removed." in screen.message()
            assert screen.scores() == running
        if hand is None:
            screen.draw()
            after(number, [0, 0, 0, 0])
            continue
        winner, discarder, fan, flowers = hand
        screen.quick_win(
            NAMES[winner], "Self-drawn" if discarder is None else NAMES[discarder], fan, flowers
        )
        after(number, payments(winner, discarder, fan + flowers))
        if number == 8:
            screen.assert_fits_the_screen()
            shoot(page, "phone-table-hand-9")

    # Hand-computed: 63, -17, -25, -21 (zero-sum: no deduction was given).
    assert running == [63, -17, -25, -21]
    assert "All 16 hands entered" in page.locator("#status").inner_text()
    entry = page.locator("#entry-end")
    screen.submit(entry.get_by_role("button", name="Submit the game sheet…"))
    screen.submit(page.get_by_role("button", name="Submit the game sheet", exact=True))
    assert "Game ended after 16 hands." in screen.message()
    results = page.locator(".ref-results tbody tr")
    assert [row.split("\t") for row in results.all_inner_texts()] == [
        ["1", "Ann Archer", "63", "4"],
        ["2", "Ben Baker", "-17", "2"],
        ["3", "Dora Diaz", "-21", "1"],
        ["4", "Cai Chen", "-25", "0"],
    ]
    shoot(page, "phone-table-ended", "#status")
    screen.assert_fits_the_screen()

    standings_url = f"{live_server.url}{reverse('public:standings', args=['spring-cup'])}"

    def standings_rows() -> list[list[str]]:
        headers = page.locator("table thead th").all_inner_texts()
        columns = [headers.index(name) for name in ("Name", "Table points", "Score")]
        rows = []
        for row in page.locator("table tbody tr").all():
            cells = row.locator("td").all_inner_texts()
            rows.append([cells[i].strip() for i in columns])
        return rows

    final = [
        ["Ann Archer", "4", "63"],
        ["Ben Baker", "2", "-17"],
        ["Dora Diaz", "1", "-21"],
        ["Cai Chen", "0", "-25"],
    ]
    # Submitted, not yet confirmed: the standings count nothing, the provisional ones count it.
    page.goto(standings_url)
    assert all(row[1:] == ["0", "0"] for row in standings_rows())
    page.goto(standings_url + "?provisional=1")
    assert "awaiting confirmation" in page.locator("main").inner_text()
    assert [row[0] for row in standings_rows()] == [
        f"{name} † includes 1 unconfirmed game" for name, *_ in final
    ]
    table = Table.objects.get(round__tournament__slug="spring-cup")
    confirm_game(table=table, confirmed_by=get_user_model().objects.get(username="alice"))
    page.goto(standings_url)
    assert standings_rows() == final
    shoot(page, "phone-standings")


def test_hands_can_be_entered_without_javascript(chromium, live_server, cup):
    """The buttons are radio inputs under their labels: a tap works with scripts off too."""
    context = chromium.new_context(
        viewport={"width": 360, "height": 740}, has_touch=True, java_script_enabled=False
    )
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/?next={reverse('referee:index')}")
    page.fill("input[name=username]", "bob")
    page.fill("input[name=password]", PASSWORD)
    with page.expect_navigation():
        page.get_by_role("button", name="Log in").click()
    page.goto(f"{live_server.url}{reverse('referee:table', args=['spring-cup', 1, 1])}")
    screen = TableScreen(page, page.url)
    assert page.locator("#tile-picker").is_hidden()
    screen.quick_win("Dora Diaz", "Self-drawn", 8, 2)
    assert screen.scores() == [-18, -18, -18, 54]
    entry = screen.entry("full")
    screen.choose(entry, "Winner", "Ann Archer")
    screen.choose(entry, "Discarder", "Ben Baker")
    entry.locator("input[name=tiles]").fill("2245667888999p 2p")
    screen.submit(entry.get_by_role("button", name="Save hand 2"))
    # 27 fan: Ben pays 35, the others 8.
    assert screen.scores() == [-18 + 51, -18 - 35, -18 - 8, 54 - 8]
    screen.assert_fits_the_screen()
    context.close()


def test_table_screen_on_a_desktop_screen(chromium, live_server, cup):
    """Only for looking at: the table screen on a wide screen, mid-game (REF_SCREENSHOTS)."""
    if not SHOTS:
        pytest.skip("set REF_SCREENSHOTS to a folder to take the desktop screenshots")
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/?next={reverse('referee:index')}")
    page.fill("input[name=username]", "bob")
    page.fill("input[name=password]", PASSWORD)
    with page.expect_navigation():
        page.get_by_role("button", name="Log in").click()
    shoot(page, "desktop-index")
    page.goto(f"{live_server.url}{reverse('referee:table', args=['spring-cup', 1, 1])}")
    screen = TableScreen(page, page.url)
    screen.quick_win("Ben Baker", "Cai Chen", 10, 1)
    screen.draw()
    shoot(page, "desktop-table")
    entry = screen.entry("full")
    screen.choose(entry, "Winner", "Dora Diaz")
    screen.choose(entry, "Discarder", "Ann Archer")
    entry.locator("input[name=tiles]").fill("234m 456p 78s [WWW] 99s 6s")
    screen.submit(entry.get_by_role("button", name="Check"))
    shoot(page, "desktop-full-entry-false-win")
    context.close()

"""Touch targets on a 360 px phone (at least 44 px high, and wide, by WCAG 2.5.5): the site
header's links, "Log out" and language buttons, the public pages' links (player names, the
standings' CSV and XLSX), the calculator's mode and situation controls. And the score sheet
fits a phone: no sideways scrolling to see North, the game score's note under the table
rather than squeezed into a narrow cell.

Pages are the demo tournament's (`load_demo`), in English and in Chinese. Set
TOUCH_SCREENSHOTS to a folder to keep a screenshot of every page."""

from __future__ import annotations

import os
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from tournament.management.demo import DEMO_TOURNAMENT_SLUG, REFEREE_USERNAME

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
SLUG = DEMO_TOURNAMENT_SLUG
SMALLEST = 44
SHOTS = os.environ.get("TOUCH_SCREENSHOTS")
LANGUAGES = ("en", "zh-hans")

PUBLIC = [
    "/",
    f"/t/{SLUG}/",
    f"/t/{SLUG}/standings/",
    f"/t/{SLUG}/rounds/1/",
    f"/t/{SLUG}/rounds/1/tables/1/",
    f"/t/{SLUG}/players/1/",
    "/scoring/calculator/",
]

# Every control a finger taps, visible, with its box. A link inside running text (a sentence
# of a paragraph or a help line) is left out: WCAG's inline exception, it is as high as its
# line.
TARGETS = """
() => {
  const found = [];
  const selector = 'a[href], button, select, input:not([type=hidden]), summary, label';
  for (const element of document.querySelectorAll(selector)) {
    const style = getComputedStyle(element);
    if (style.visibility === 'hidden' || style.display === 'none') continue;
    const box = element.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    if (element.closest('[hidden], .visually-hidden')) continue;
    // A radio button or check box is tapped through its label, measured as a label.
    if (element.matches('input[type=radio], input[type=checkbox]') && element.closest('label'))
      continue;
    // A label that holds no control is a caption, not a target.
    if (element.tagName === 'LABEL' && !element.querySelector('input, select')) continue;
    // A link alone in its paragraph stands on its own.
    const alone = element.matches('p > a:only-child')
      && element.parentElement.textContent.trim() === element.textContent.trim();
    const inline = element.matches('a') && !alone
      && element.closest('p, li.meta, .meta, .helptext, dd')
      && !element.closest('nav, .site-nav, td, th, .button, .exports');
    const where = [];
    for (let node = element.parentElement; node && where.length < 3; node = node.parentElement) {
      if (node === document.body) break;
      where.push(node.tagName.toLowerCase() + (node.id ? '#' + node.id : '')
        + (typeof node.className === 'string' && node.className
          ? '.' + node.className.trim().split(/\\s+/).join('.') : ''));
    }
    found.push({
      where: where.reverse().join(' > '),
      tag: element.tagName.toLowerCase(),
      cls: element.className && typeof element.className === 'string' ? element.className : '',
      text: (element.innerText || element.value || element.getAttribute('aria-label') || '')
        .trim().replace(/\\s+/g, ' ').slice(0, 30),
      width: Math.round(box.width * 10) / 10,
      height: Math.round(box.height * 10) / 10,
      inline: Boolean(inline),
    });
  }
  return found;
}
"""


@pytest.fixture
def demo(live_server):
    call_command("load_demo", stdout=StringIO())
    return live_server


def session_cookie(username: str, url: str) -> dict:
    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    return {"name": "sessionid", "value": client.cookies["sessionid"].value, "url": url}


def phone(chromium: Any, demo: Any, language: str, username: str | None = None) -> Any:
    context = chromium.new_context(
        viewport=PHONE, has_touch=True, extra_http_headers={"Accept-Language": language}
    )
    if username:
        context.add_cookies([session_cookie(username, demo.url)])
    return context


def shot(page: Any, name: str) -> None:
    if SHOTS:
        folder = Path(SHOTS)
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


def small_targets(page: Any) -> list[str]:
    return [
        f"{t['where']} > <{t['tag']} class={t['cls']!r}> {t['text']!r} {t['width']}x{t['height']}"
        for t in page.evaluate(TARGETS)
        if not t["inline"] and (t["height"] < SMALLEST or t["width"] < SMALLEST)
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_target_of_the_public_pages_is_large_enough(chromium, demo, language):
    problems = []
    for username in (None, REFEREE_USERNAME):
        context = phone(chromium, demo, language, username)
        page = context.new_page()
        for path in PUBLIC:
            assert page.goto(demo.url + path).status == 200
            page.wait_for_load_state("load")
            name = path.strip("/").replace("/", "_") or "home"
            shot(page, f"{language}-{username or 'anyone'}-{name}")
            problems += [f"{path} ({username or 'anyone'}): {item}" for item in small_targets(page)]
        context.close()
    assert problems == [], "\n".join(problems)


SHEETS = {
    None: [f"/t/{SLUG}/rounds/1/tables/1/", "/t/demo-jt/rounds/1/tables/1/"],
    REFEREE_USERNAME: [f"/referee/{SLUG}/2/1/"],
}

# The score sheet's width, its scrolling wrapper's, where North's heading ends, how high its
# cells of numbers are (not stretched by a long story beside them), how wide the stories are
# (across the line), and the size of the foot's note.
MEASURE_SHEET = """
() => {
  const sheet = document.querySelector('.score-sheet');
  const wrap = sheet.closest('.table-wrap') || sheet.parentElement;
  const players = [...sheet.querySelectorAll('thead th.player')];
  const note = sheet.querySelector('tfoot td:last-child');
  return {
    page: document.documentElement.scrollWidth,
    wrapScroll: wrap.scrollWidth,
    wrapClient: wrap.clientWidth,
    north: players[players.length - 1].getBoundingClientRect().right,
    // The tallest cell of numbers, and the narrowest "what happened".
    numbers: Math.max(...[...sheet.querySelectorAll('tbody td.number')]
      .map((cell) => cell.getBoundingClientRect().height)),
    story: Math.min(...[...sheet.querySelectorAll('tbody td.story')]
      .map((cell) => cell.getBoundingClientRect().width)),
    note: note ? note.getBoundingClientRect().height : 0,
    noteWidth: note ? note.getBoundingClientRect().width : 0,
  };
}
"""


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_score_sheet_fits_a_phone(chromium, demo, language):
    problems = []
    for username, paths in SHEETS.items():
        context = phone(chromium, demo, language, username)
        page = context.new_page()
        for path in paths:
            assert page.goto(demo.url + path).status == 200
            page.wait_for_load_state("load")
            shot(page, f"sheet-{language}-{path.strip('/').replace('/', '_')}")
            sheet = page.evaluate(MEASURE_SHEET)
            if sheet["page"] > PHONE["width"]:
                problems.append(f"{path}: the page is {sheet['page']} px wide")
            if sheet["wrapScroll"] > sheet["wrapClient"] + 1:
                problems.append(
                    f"{path}: the sheet scrolls sideways "
                    f"({sheet['wrapScroll']} px in {sheet['wrapClient']} px)"
                )
            if sheet["north"] > PHONE["width"]:
                problems.append(f"{path}: North's column ends at {sheet['north']} px")
            if sheet["numbers"] > 30:
                problems.append(f"{path}: a cell of numbers is {sheet['numbers']} px high")
            if sheet["story"] < 280:
                problems.append(f"{path}: what happened is {sheet['story']} px wide")
            if sheet["note"] > 80 or (sheet["note"] and sheet["noteWidth"] < 280):
                problems.append(
                    f"{path}: the foot's note is {sheet['noteWidth']}x{sheet['note']} px"
                )
        context.close()
    assert problems == [], "\n".join(problems)

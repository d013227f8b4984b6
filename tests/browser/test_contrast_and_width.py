"""The main pages at a phone's width and a desktop's: nothing wider than the screen, and every
piece of text readable against its background (WCAG AA: 4.5:1, 3:1 for large text).

The pages are those of the demo tournament (`load_demo`), seen by the organiser, the referee or
anyone. Set A11Y_SCREENSHOTS to a folder to keep a screenshot of every page at both sizes.
"""

from __future__ import annotations

import os
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from tournament.management.demo import DEMO_TOURNAMENT_SLUG, REFEREE_USERNAME
from tournament.management.demo import DEMO_USERNAME as ORGANISER_USERNAME

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": {"width": 360, "height": 740}, "desktop": {"width": 1280, "height": 800}}
SHOTS = os.environ.get("A11Y_SCREENSHOTS")
SLUG = DEMO_TOURNAMENT_SLUG

PAGES = {
    None: [
        "/",
        f"/t/{SLUG}/",
        f"/t/{SLUG}/standings/",
        f"/t/{SLUG}/rounds/1/",
        f"/t/{SLUG}/rounds/1/tables/1/",
        f"/t/{SLUG}/players/1/",
        f"/t/{SLUG}/statistics/",
        f"/t/{SLUG}/projector/",
        "/scoring/calculator/",
        "/accounts/login/",
    ],
    ORGANISER_USERNAME: [
        "/manage/",
        f"/manage/{SLUG}/",
        f"/manage/{SLUG}/settings/",
        f"/manage/{SLUG}/players/",
        f"/manage/{SLUG}/check-in/",
        f"/manage/{SLUG}/rounds/2/",
        f"/manage/{SLUG}/rounds/2/board/",
        f"/manage/{SLUG}/rounds/2/tables/1/",
        f"/manage/{SLUG}/audit/",
        f"/manage/{SLUG}/seating/",
        f"/manage/{SLUG}/print/",
    ],
    REFEREE_USERNAME: [
        "/referee/",
        f"/referee/{SLUG}/2/1/",
    ],
}

# For every element with text of its own: its colour, the first opaque background behind it
# (colours with transparency are blended on the way), and its size and weight.
READ_TEXT = """
() => {
  const parse = (value) => {
    const m = value.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return null;
    const parts = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number);
    return {r: parts[0], g: parts[1], b: parts[2], a: parts.length > 3 ? parts[3] : 1};
  };
  const over = (top, bottom) => ({
    r: top.r * top.a + bottom.r * (1 - top.a),
    g: top.g * top.a + bottom.g * (1 - top.a),
    b: top.b * top.a + bottom.b * (1 - top.a),
    a: 1,
  });
  const background = (element) => {
    const layers = [];
    for (let node = element; node; node = node.parentElement) {
      const style = getComputedStyle(node);
      if (style.backgroundImage && style.backgroundImage !== 'none') return null;
      const colour = parse(style.backgroundColor);
      if (colour && colour.a > 0) {
        layers.push(colour);
        if (colour.a >= 1) break;
      }
    }
    let result = {r: 255, g: 255, b: 255, a: 1};
    for (const layer of layers.reverse()) result = over(layer, result);
    return result;
  };
  const found = [];
  for (const element of document.body.querySelectorAll('*')) {
    const own = [...element.childNodes]
      .filter((n) => n.nodeType === Node.TEXT_NODE)
      .map((n) => n.textContent.trim())
      .join(' ')
      .trim();
    if (!own) continue;
    const style = getComputedStyle(element);
    if (style.visibility === 'hidden' || style.display === 'none') continue;
    const box = element.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    if (element.closest('svg')) continue;
    const back = background(element);
    if (!back) continue;
    let colour = parse(style.color);
    if (!colour) continue;
    colour = over({...colour, a: colour.a * Number(style.opacity)}, back);
    found.push({
      text: own.slice(0, 40),
      tag: element.tagName.toLowerCase(),
      colour, back,
      size: parseFloat(style.fontSize),
      bold: Number(style.fontWeight) >= 700,
    });
  }
  return found;
}
"""


def luminance(colour: dict) -> float:
    def channel(value: float) -> float:
        value /= 255
        return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4

    return (
        0.2126 * channel(colour["r"])
        + 0.7152 * channel(colour["g"])
        + 0.0722 * channel(colour["b"])
    )


def contrast(first: dict, second: dict) -> float:
    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def needed(text: dict) -> float:
    large = text["size"] >= 24 or (text["bold"] and text["size"] >= 18.66)
    return 3.0 if large else 4.5


def test_contrast_arithmetic():
    black, white = {"r": 0, "g": 0, "b": 0}, {"r": 255, "g": 255, "b": 255}
    assert round(contrast(black, white), 1) == 21.0
    grey = {"r": 119, "g": 119, "b": 119}  # #777 on white: 4.48, just short of AA
    assert 4.4 < contrast(grey, white) < 4.5


@pytest.fixture
def demo(live_server):
    call_command("load_demo", stdout=StringIO())
    return live_server


def session_cookie(username: str, url: str) -> dict:
    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    return {"name": "sessionid", "value": client.cookies["sessionid"].value, "url": url}


@pytest.mark.parametrize("size", SIZES)
def test_pages_fit_the_screen_and_their_text_is_readable(chromium, demo, size):
    problems = []
    for username, paths in PAGES.items():
        context = chromium.new_context(viewport=SIZES[size])
        if username:
            context.add_cookies([session_cookie(username, demo.url)])
        page = context.new_page()
        for path in paths:
            response = page.goto(demo.url + path)
            if response is None or response.status != 200:
                problems.append(f"{path}: answered {response.status if response else None}")
                continue
            page.wait_for_load_state("load")
            if SHOTS:
                folder = Path(SHOTS)
                folder.mkdir(parents=True, exist_ok=True)
                name = path.strip("/").replace("/", "_") or "home"
                page.screenshot(path=str(folder / f"{size}-{name}.png"), full_page=True)
            width = page.evaluate("document.documentElement.scrollWidth")
            if width > SIZES[size]["width"] + 1:
                problems.append(f"{path}: {width} px wide on a {SIZES[size]['width']} px screen")
            for text in page.evaluate(READ_TEXT):
                ratio = contrast(text["colour"], text["back"])
                if ratio < needed(text):
                    problems.append(
                        f"{path}: <{text['tag']}> {text['text']!r} contrast {ratio:.2f} "
                        f"(needs {needed(text)})"
                    )
        context.close()
    assert problems == [], "\n".join(problems)

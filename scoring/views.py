"""The hand calculator page: MCR, Japanese Transitional or Wilmington hands (the form's
"preset").

Without JavaScript the form is submitted with GET (`?hand=<compact notation>&...`) and
`calculator` renders the verdict. With it, the page's script builds the hand and htmx posts
the same form to `calculator_verdict`, which answers the verdict alone: the same template
(`scoring/_verdict.html`), from the same service as the JSON API
(`scoring.services.score_request`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from scoring.api import wa_answer
from scoring.engine import TILE_CODES, HandError, ScoreResult, compare_profiles, errors
from scoring.engine.jt import JtResult
from scoring.engine.rulebook import HAND_TILES, RULEBOOKS, McrRulebook, rulebook_named
from scoring.engine.wa import WaResult
from scoring.engine_messages import engine_message
from scoring.fan_names import fan_name, fan_second_name
from scoring.forms import PROFILE_LABELS, CalculatorForm, presets_reading
from scoring.pattern_names import UNIT_FORMATS, jt_pattern_name
from scoring.services import Refusal, score_request
from scoring.words import listed

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

SUITS = {
    "m": (gettext_lazy("Characters"), "万"),
    "p": (gettext_lazy("Dots"), "筒"),
    "s": (gettext_lazy("Bamboo"), "条"),
}
HONORS = {
    "E": (gettext_lazy("East wind"), "東"),
    "S": (gettext_lazy("South wind"), "南"),
    "W": (gettext_lazy("West wind"), "西"),
    "N": (gettext_lazy("North wind"), "北"),
    "C": (gettext_lazy("Red dragon"), "中"),
    "F": (gettext_lazy("Green dragon"), "發"),
    "P": (gettext_lazy("White dragon"), "白"),
}
# The tiles some presets add to the 34 kinds (a rulebook's `extra_tile_codes`): name, face and
# the small hint under it.
EXTRA_TILES = {"J": (gettext_lazy("Joker"), "J", gettext_lazy("joker"))}


# A plain-language headline for each verdict; the engine's message gives the detail.
ERROR_TITLES = {
    "BELOW_8_FAN": gettext_lazy("False win (below 8 fan)"),
    "BELOW_MINIMUM": gettext_lazy("Faulty out (below 15 points)"),
    "JOKER_COUNT": gettext_lazy("A Wilmington hand holds exactly one joker"),
    "JOKER_WIN_TILE": gettext_lazy("The joker cannot be the winning tile"),
    "JOKER_AS_MISMATCH": gettext_lazy("The joker's value does not fit its declared set"),
    "TILE_COUNT_GT_5": gettext_lazy("A tile is used more than five times"),
    "BAD_INPUT": gettext_lazy("The hand could not be read"),
    "UNKNOWN_TILE": gettext_lazy("There is a tile code the calculator does not know"),
    "WRONG_TILE_COUNT": gettext_lazy("The hand does not have the right number of tiles"),
    "TILE_COUNT_GT_4": gettext_lazy("A tile is used more than four times"),
    "INVALID_MELD": gettext_lazy("A declared set is not a valid chow, pung or kong"),
    "CONTRADICTORY_SITUATION": gettext_lazy(
        "The situation of the win contradicts itself or the hand"
    ),
    "NOT_WIN": gettext_lazy("These tiles do not form a winning hand"),
}
# What one tap on a tile adds to the hand, in the order the switch shows them.
TAP_MODES = [
    ("tile", gettext_lazy("Tile")),
    ("chow", gettext_lazy("Chow")),
    ("pung", gettext_lazy("Pung")),
    ("kong", gettext_lazy("Kong")),
    ("concealed_kong", gettext_lazy("Concealed kong")),
    ("win", gettext_lazy("Winning tile")),
]
SET_KINDS = {
    "chow": gettext_lazy("Chow"),
    "pung": gettext_lazy("Pung"),
    "kong": gettext_lazy("Kong"),
    "pair": gettext_lazy("Pair"),
    "knitted": gettext_lazy("Knitted tiles"),
    "honors": gettext_lazy("Honours"),
    "tiles": gettext_lazy("Tiles"),
}


def tile_label(code: str) -> dict[str, StrOrPromise]:
    """Face, small hint and spoken name of one tile button."""
    if code in EXTRA_TILES:
        name, face, hint = EXTRA_TILES[code]
        return {"code": code, "face": face, "hint": hint, "name": name}
    if code in HONORS:
        name, glyph = HONORS[code]
        return {"code": code, "face": glyph, "hint": code, "name": name}
    suit_name, glyph = SUITS[code[1]]
    return {"code": code, "face": code, "hint": glyph, "name": f"{code[0]} {suit_name}"}


def tile_groups(extra: Iterable[str] = ()) -> list[dict[str, Any]]:
    """The tile buttons by row: the three suits, the honours, then the `extra` tiles of the
    preset (its rulebook's `extra_tile_codes`: WA's joker), one row each."""
    groups: list[dict[str, Any]] = [
        {"name": f"{name} {glyph}", "tiles": [tile_label(c) for c in TILE_CODES if c[1:] == suit]}
        for suit, (name, glyph) in SUITS.items()
    ]
    honors = [tile_label(c) for c in TILE_CODES if c in HONORS]
    groups.append({"name": _("Winds and dragons"), "tiles": honors})
    for code in extra:
        label = tile_label(code)
        groups.append({"name": label["name"], "tiles": [label], "extra": True})
    return groups


def extra_tile_groups() -> list[dict[str, Any]]:
    """The calculator's rows of tiles that only some presets have, each with the keys of the
    rule sets (`Rulebook.key`) whose hands hold it: the page shows a row while one of those is
    chosen."""
    codes = dict.fromkeys(code for book in RULEBOOKS.values() for code in book.extra_tile_codes)
    return [
        {
            "name": label["name"],
            "tiles": [label],
            "presets": " ".join(
                book.key for book in RULEBOOKS.values() if code in book.extra_tile_codes
            ),
        }
        for code, label in ((code, tile_label(code)) for code in codes)
    ]


# How a JT pattern's value reads, by its unit.
def set_text(kind: str, *notes: object) -> str:
    """A set of a verdict's reading or arrangement in words: its kind and what is said of it
    ("Pung, concealed, winning tile"), as each engine's presenter says it."""
    return str(SET_KINDS.get(kind, kind)) + "".join(str(note) for note in notes)


def present_jt_verdict(result: JtResult) -> dict[str, Any]:
    """A scored JT win for the template: F and how it was reached, each pattern with its name
    in the active language and its value with its unit, and the reading kept."""
    reading = [
        {
            "number": i + 1,
            "kind": part.kind,
            "kind_label": SET_KINDS.get(part.kind, part.kind),
            "kind_text": set_text(
                part.kind,
                (_(", concealed") if part.concealed else _(", melded"))
                if part.kind != "pair"
                else "",
                _(", winning tile") if part.winning else "",
            ),
            "declared": part.declared,
            "concealed": part.concealed,
            "winning": part.winning,
            "tile_labels": [tile_label(code) for code in part.codes],
        }
        for i, part in enumerate(result.reading)
    ]
    return {
        "ok": True,
        "template": "scoring/_verdict_jt.html",
        "summary": _("%(final)s points: %(points)s points and %(doubles)s doubles.")
        % {"final": result.final, "points": result.points, "doubles": result.doubles},
        "summary_kind": "win",
        "error": None,
        "title": _("Limit hand") if result.limit else _("Japanese Transitional win"),
        "message": "",
        "final": result.final,
        "points": result.points,
        "doubles": result.doubles,
        "raw": result.raw,
        "limit": result.limit,
        "patterns": [
            {
                "key": p.key,
                "name": jt_pattern_name(p.key),
                "value": str(UNIT_FORMATS[p.unit]) % {"value": p.value},
                "unit": p.unit,
                "count": p.count,
                "set_numbers": listed(i + 1 for i in p.sets),
            }
            for p in result.patterns
        ],
        "reading": reading,
    }


def present_wa_verdict(result: WaResult) -> dict[str, Any]:
    """A scored Wilmington hand for the template: the answer of the API (`wa_answer`), its
    headline and the joker's value, sets and tiles with their labels."""
    body = wa_answer(result)
    title: StrOrPromise
    if result.error:
        title = ERROR_TITLES[result.error]
    else:
        title = _("Limit hand") if result.limit else _("Meets the 15-point minimum")
    summary = (
        (_("Faulty out: %(total)s points, below %(minimum)s.") % body, "false")
        if result.error
        else (_("%(final)s points: meets the 15-point minimum.") % body, "win")
    )
    return {
        **body,
        "ok": True,
        "template": "scoring/_verdict_wa.html",
        "summary": summary[0],
        "summary_kind": summary[1],
        "title": title,
        "joker_label": tile_label(body["joker_as"]) if body["joker_as"] else None,
        "reading": [
            {
                **part,
                "number": i + 1,
                "kind_label": SET_KINDS.get(part["kind"], part["kind"]),
                "kind_text": set_text(part["kind"], _(", declared") if part["declared"] else ""),
                "tile_labels": [tile_label(code) for code in part["tiles"]],
            }
            for i, part in enumerate(body["reading"])
        ],
    }


def present_verdict(outcome: ScoreResult | JtResult | WaResult | Refusal) -> dict[str, Any]:
    """Shape a verdict for the template (1-based set numbers, readable set names, fan names
    and messages in the active language)."""
    if isinstance(outcome, JtResult):
        return present_jt_verdict(outcome)
    if isinstance(outcome, WaResult):
        return present_wa_verdict(outcome)
    error: str | None
    if isinstance(outcome, Refusal):
        error, message = outcome.code, outcome.message
    else:
        error, message = outcome.error, engine_message(outcome)
    verdict: dict[str, Any] = {
        "ok": not isinstance(outcome, Refusal),
        "error": error,
        "title": ERROR_TITLES.get(error, _("The hand could not be scored"))
        if error
        else _("Meets the 8-fan minimum"),
        "message": message,
    }
    if isinstance(outcome, Refusal):
        return verdict
    body = outcome.to_dict()
    verdict.update(
        total=body["total"],
        total_excl_flowers=body["total_excl_flowers"],
        minimum=body["minimum"],
        meets_minimum=body["meets_minimum"],
        fans=[
            {
                **fan,
                "name": fan_name(fan),
                "second_name": fan_second_name(fan),
                "set_numbers": listed(i + 1 for i in fan.get("sets", [])),
            }
            for fan in body["fans"]
        ],
        arrangement=[
            {
                **group,
                "number": i + 1,
                "kind_label": SET_KINDS.get(group["kind"], group["kind"]),
                "kind_text": set_text(
                    group["kind"],
                    (_(", concealed") if group.get("concealed") else _(", declared"))
                    if group.get("declared")
                    else "",
                ),
                "tile_labels": [tile_label(code) for code in group["tiles"]],
            }
            for i, group in enumerate(body["arrangement"])
        ],
        profile=outcome.profile,
        profile_label=PROFILE_LABELS.get(outcome.profile, outcome.profile),
        comparison=present_comparison(outcome),
        template="scoring/_verdict_mcr.html",
    )
    if body["meets_minimum"]:
        verdict["summary"] = _("%(total)s fan: meets the 8-fan minimum.") % body
        verdict["summary_kind"] = "win"
    else:
        verdict["summary"] = _("False win: %(fan)s fan without flowers, below 8.") % {
            "fan": body["total_excl_flowers"]
        }
        verdict["summary_kind"] = "false"
    return verdict


def present_comparison(result: ScoreResult) -> dict[str, Any] | None:
    """The other profile's verdict on the same tiles, for the template: None when it scores
    the hand alike. Each differing fan shows its points and count under both profiles."""
    comparison = compare_profiles(result)
    if comparison is None or not comparison.differs:
        return None
    return {
        "profile": comparison.profile,
        "profile_label": PROFILE_LABELS.get(comparison.profile, comparison.profile),
        "total": comparison.total,
        "total_excl_flowers": comparison.total_excl_flowers,
        "meets_minimum": comparison.error is None,
        "fans": [
            {
                "zh": fan.zh,
                "name": fan_name(fan),
                "second_name": fan_second_name(fan),
                "points": fan.points,
                "count": fan.count,
                "other_points": fan.other_points,
                "other_count": fan.other_count,
            }
            for fan in comparison.differences
        ],
    }


def pending_verdict(outcome: Refusal, form: CalculatorForm) -> dict[str, Any] | None:
    """The verdict of a hand still being built: tiles the notation reads, fewer than a whole
    hand (the engine refused them for their count), with how many there are and how many are
    missing. None for any other refusal."""
    if outcome.code != errors.WRONG_TILE_COUNT:
        return None
    rules = rulebook_named(form.cleaned_data["preset"] or McrRulebook.key)
    try:
        count = rules.tiles_held(form.cleaned_data["hand"])
    except HandError:
        return None
    if count >= HAND_TILES:
        return None
    progress = _("%(count)s of 14 tiles: add %(missing)s more.") % {
        "count": count,
        "missing": HAND_TILES - count,
    }
    return {
        "ok": False,
        "pending": True,
        "error": outcome.code,
        "title": _("The hand is not complete yet"),
        "message": progress,
        "summary": progress,
        "summary_kind": "",
    }


def calculator_outcome(form: CalculatorForm) -> dict[str, Any] | None:
    """The verdict on the calculator's bound form for `scoring/_verdict.html`, with its
    one-line summary; None while the form holds no hand. A form whose values are not the
    form's choices is refused with their errors."""
    if not form.is_valid():
        messages = " ".join(str(m) for field in form.errors.values() for m in field)
        verdict = present_verdict(Refusal(errors.BAD_INPUT, messages))
    elif not form.cleaned_data["hand"].strip():
        return None
    else:
        outcome = score_request(form.api_payload())
        pending = pending_verdict(outcome, form) if isinstance(outcome, Refusal) else None
        if pending is not None:
            return pending
        verdict = present_verdict(outcome)
    if not verdict["ok"]:  # a scored hand says its own summary (its presenter's)
        verdict["summary"], verdict["summary_kind"] = str(verdict["title"]), "error"
    return verdict


@require_GET
def calculator(request: HttpRequest) -> HttpResponse:
    form = CalculatorForm(request.GET if "hand" in request.GET else None)
    verdict = None
    if form.is_bound and form.is_valid():
        verdict = calculator_outcome(form)
    context = {
        "form": form,
        "verdict": verdict,
        "tile_groups": tile_groups(),
        "extra_tile_groups": extra_tile_groups(),
        "modes": TAP_MODES,
        "set_kinds": {kind: str(label) for kind, label in SET_KINDS.items()},
        # Which rule sets read each of the calculator's fields (their rulebooks say).
        "reading": {name: presets_reading(name) for name in CalculatorForm.base_fields},
    }
    return render(request, "scoring/calculator.html", context)


@require_POST
def calculator_verdict(request: HttpRequest) -> HttpResponse:
    """The verdict alone on the calculator's form as posted (htmx asks for it as the hand is
    built): `scoring/_verdict.html`, in the reader's language. A hand that cannot be scored is
    a verdict too, answered 200 like the others."""
    verdict = calculator_outcome(CalculatorForm(request.POST))
    return render(request, "scoring/_verdict.html", {"verdict": verdict})

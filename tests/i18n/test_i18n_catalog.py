"""The committed translations: complete, not fuzzy, and the .mo files compiled from the .po."""

from __future__ import annotations

import gettext
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from engine.oracle import shared_dir

from scoring.engine import fans

LOCALE = Path(__file__).resolve().parents[2] / "locale" / "zh_Hans" / "LC_MESSAGES"
DOMAINS = ["django", "djangojs"]


def entries(path: Path) -> list[dict[str, object]]:
    """The .po entries as dicts of their fields (msgid, msgstr or msgstr[0], ...) and flags."""
    result = []
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        fields: dict[str, str] = {}
        flags: list[str] = []
        key = None
        for line in block.splitlines():
            if line.startswith("#,"):
                flags += [flag.strip() for flag in line[2:].split(",")]
            elif line.startswith("#"):
                continue
            elif match := re.match(r"^(\S+) (\".*\")$", line):
                key = match.group(1)
                fields[key] = match.group(2)[1:-1]
            elif line.startswith('"') and key:
                fields[key] += line[1:-1]
        if "msgid" in fields:
            result.append({"fields": fields, "flags": flags})
    return result


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_message_has_a_chinese_translation(domain):
    found = entries(LOCALE / f"{domain}.po")
    assert len(found) > 20
    untranslated = [
        entry["fields"]["msgid"]
        for entry in found[1:]
        if not (entry["fields"].get("msgstr") or entry["fields"].get("msgstr[0]"))
    ]
    fuzzy = [entry["fields"]["msgid"] for entry in found if "fuzzy" in entry["flags"]]
    assert untranslated == []
    assert fuzzy == []


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_committed_mo_matches_the_po(domain, tmp_path):
    if shutil.which("msgfmt") is None:
        pytest.skip("GNU gettext's msgfmt is not installed, so the .po cannot be compiled here")
    compiled = tmp_path / f"{domain}.mo"
    subprocess.run(
        ["msgfmt", "--check", "-o", str(compiled), str(LOCALE / f"{domain}.po")], check=True
    )
    with (LOCALE / f"{domain}.mo").open("rb") as committed, compiled.open("rb") as fresh:
        expected = gettext.GNUTranslations(fresh)._catalog  # type: ignore[attr-defined]
        actual = gettext.GNUTranslations(committed)._catalog  # type: ignore[attr-defined]
    assert actual == expected, "run: manage.py compilemessages -l zh_Hans --ignore=.venv"


def test_every_fan_has_a_chinese_name():
    assert len(fans.FANS) == 81
    assert all(fan.zh and re.fullmatch(r"[\u4e00-\u9fff・]+", fan.zh) for fan in fans.FANS)
    assert len({fan.zh for fan in fans.FANS}) == 81
    assert fans.FANS[fans.FULL_FLUSH].zh == "清一色"


def test_the_chinese_fan_names_follow_the_rules_text():
    rules = shared_dir() / "rules" / "mcr-fan-definitions.txt"
    if not rules.exists():
        pytest.skip(
            f"reads the rules texts, which are not part of the repository: {rules} is absent "
            "(put the shared folder beside the checkout or set MCR_SHARED_DIR)"
        )
    named = set(re.findall(r"\(Chinese: (\S+)", rules.read_text(encoding="utf-8")))
    assert len(named) >= 80
    # The waits carry the official rules' longer names in the engine: 独听・边张 for 边张, and for
    # two of them another word for the same wait.
    other_words = {"坎张": "独听・嵌张", "单钓将": "独听・单钓"}
    ours = {fan.zh for fan in fans.FANS}
    missing = [
        name
        for name in named
        if other_words.get(name) not in ours and not any(name in zh for zh in ours)
    ]
    assert missing == []

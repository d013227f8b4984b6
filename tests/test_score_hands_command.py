"""The score_hands command: case lines in, one result line out per case, in order."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command
from engine.oracle import corpus_or_sample
from engine.wa.helpers import load_cases as load_wa_cases

# Case 9 of the corpus: two concealed kongs (S and 9s), 15 fan + 2 flowers by the Green Book.
TWO_CONCEALED_KONGS = {
    "id": 9,
    "concealed": ["4m", "5m", "5m", "6m", "6m", "6s", "6s"],
    "melds": [
        {"type": "kong", "tiles": ["S", "S", "S", "S"], "concealed": True},
        {"type": "kong", "tiles": ["9s", "9s", "9s", "9s"], "concealed": True},
    ],
    "win_tile": "4m",
    "self_drawn": False,
    "seat_wind": "E",
    "prevalent_wind": "S",
    "flowers": 2,
}


def run(text: str, *args: str) -> list[dict]:
    out = io.StringIO()
    call_command("score_hands", *args, stdin=io.StringIO(text), stdout=out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


@pytest.fixture(scope="module")
def corpus_sample() -> list[dict]:
    """The first 200 cases of the shared corpus, or of the sample in tests/data without it."""
    _source, cases = corpus_or_sample()
    return cases[:200]


def fan_tuples(fans: list) -> list[tuple]:
    return sorted((fan["zh"], fan["points"], fan["count"]) for fan in fans)


def test_corpus_lines_score_as_the_green_book_expects(corpus_sample):
    results = run("".join(json.dumps(case) + "\n" for case in corpus_sample))

    assert [r["id"] for r in results] == [case["id"] for case in corpus_sample]
    for case, result in zip(corpus_sample, results, strict=True):
        expected = case["expected"]
        assert result["error"] == expected["error"], case["id"]
        if expected.get("total") is not None:
            assert result["total"] == expected["total"], case["id"]
            assert result["total_excl_flowers"] == expected["total_excl_flowers"], case["id"]
            expected_fans = sorted(
                (zh, points, count) for _en, zh, points, count in expected["fans"]
            )
            assert fan_tuples(result["fans"]) == expected_fans, case["id"]


def test_result_line_has_the_documented_keys():
    [result] = run(json.dumps(TWO_CONCEALED_KONGS))

    assert set(result) == {"id", "error", "total", "total_excl_flowers", "fans"}
    assert all(set(fan) == {"en", "zh", "points", "count"} for fan in result["fans"])


def test_malformed_line_gives_bad_input_and_the_batch_goes_on(corpus_sample):
    first, second = corpus_sample[0], corpus_sample[1]
    text = "\n".join([json.dumps(first), '{"id": 77, "concealed": [', json.dumps(second)])

    results = run(text)

    assert [r["id"] for r in results] == [first["id"], 77, second["id"]]
    assert results[1]["error"] == "BAD_INPUT"
    assert results[0]["error"] == first["expected"]["error"]
    assert results[2]["error"] == second["expected"]["error"]


def test_json_that_is_not_an_object_gives_bad_input_without_id():
    results = run('[1, 2, 3]\n"hand"\n')

    assert [(r["id"], r["error"]) for r in results] == [(None, "BAD_INPUT"), (None, "BAD_INPUT")]


def test_blank_lines_are_skipped():
    case = json.dumps(TWO_CONCEALED_KONGS)

    results = run(f"\n{case}\n   \n\n{case}\n")

    assert len(results) == 2


def test_unknown_fields_are_ignored():
    case = {**TWO_CONCEALED_KONGS, "note": "from table 4", "expected": {"whatever": 1}}

    [result] = run(json.dumps(case))

    assert result["error"] is None
    assert result["total"] == 17


def test_below_minimum_line_still_carries_total_and_fans(corpus_sample):
    false_win = next(c for c in corpus_sample if c["expected"]["error"] == "BELOW_8_FAN")

    [result] = run(json.dumps(false_win))

    assert result["error"] == "BELOW_8_FAN"
    assert result["total"] == false_win["expected"]["total"]
    assert result["fans"]


def test_profile_switch_changes_two_concealed_kongs_from_8_to_6():
    line = json.dumps(TWO_CONCEALED_KONGS)

    [green_book] = run(line)
    [chinese] = run(line, "--profile", "cn-1998")

    def two_kongs(result: dict) -> int:
        return next(fan["points"] for fan in result["fans"] if fan["zh"] == "双暗杠")

    assert two_kongs(green_book) == 8
    assert two_kongs(chinese) == 6
    assert green_book["total"] - chinese["total"] == 2


def test_unknown_profile_is_a_command_error():
    with pytest.raises(CommandError, match="Unknown profile 'wmo-1999'"):
        run("", "--profile", "wmo-1999")


def test_reads_a_file_argument(tmp_path):
    cases = tmp_path / "cases.jsonl"
    cases.write_text(json.dumps(TWO_CONCEALED_KONGS) + "\n", encoding="utf-8")
    out = io.StringIO()

    call_command("score_hands", str(cases), stdout=out)

    assert json.loads(out.getvalue())["total"] == 17


def test_missing_file_is_a_command_error(tmp_path):
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("score_hands", str(tmp_path / "nope.jsonl"), stdout=io.StringIO())


def test_undecodable_bytes_in_a_file_do_not_stop_the_batch(tmp_path):
    cases = tmp_path / "cases.jsonl"
    good = json.dumps(TWO_CONCEALED_KONGS).encode()
    cases.write_bytes(b'{"id": 5, "concealed": ["\xff\xfe"]}\n' + good + b"\n")
    out = io.StringIO()

    call_command("score_hands", str(cases), stdout=out)

    first, second = (json.loads(line) for line in out.getvalue().splitlines())
    assert (first["id"], first["total"]) == (5, None)
    assert first["error"] is not None
    assert second["total"] == 17


# --- Japanese Transitional ------------------------------------------------------------------


def jt_cases_text() -> tuple[list[dict], str]:
    from engine.jt_cases import jt_cases

    cases = jt_cases()
    return cases, "".join(json.dumps(case) + "\n" for case in cases)


def test_jt_lines_have_the_case_formats_hand_and_payments():
    cases, text = jt_cases_text()

    results = run(text, "--preset", "jt")

    assert [r["id"] for r in results] == [case["id"] for case in cases]
    for case, result in zip(cases, results, strict=True):
        assert set(result) == {"id", "hand", "payments"}
        expected = case["expected"]
        assert result["payments"] == expected["payments"], case["id"]
        if "hand" not in expected:
            assert result["hand"] is None
            continue
        got, want = result["hand"], expected["hand"]
        assert set(got) == set(want)
        assert (got["error"], got["final"]) == (want["error"], want["final"]), case["id"]
        assert {(p[0], p[2], p[4]) for p in got["patterns"]} == {
            (p[0], p[2], p[4]) for p in want["patterns"]
        }, case["id"]
        assert all(len(p) == 5 and p[3] in ("pts", "dbl", "%") for p in got["patterns"])


def test_a_malformed_jt_line_gives_an_error_line_for_its_id_and_the_batch_goes_on():
    cases, _text = jt_cases_text()
    first, second = cases[0], cases[1]
    text = "\n".join([json.dumps(first), '{"id": "JT-77", "concealed": [', json.dumps(second)])

    results = run(text, "--preset", "jt")

    assert [r["id"] for r in results] == [first["id"], "JT-77", second["id"]]
    assert results[1]["hand"]["error"] == "BAD_INPUT"
    assert results[1]["payments"] is None
    assert results[2]["payments"] == second["expected"]["payments"]


def test_a_jt_hand_that_cannot_be_read_has_no_payments():
    cases, _text = jt_cases_text()
    bad = {**cases[0], "win_tile": "0m"}

    [result] = run(json.dumps(bad), "--preset", "jt")

    assert result["hand"]["error"] == "UNKNOWN_TILE"
    assert result["payments"] is None


def test_tiles_that_are_no_winning_hand_pay_as_a_faulty_out_by_the_claimer():
    cases, _text = jt_cases_text()
    claimer_south = {**cases[0], "win_tile": "9s"}  # JT-01, South, with a tile that wins nothing

    [result] = run(json.dumps(claimer_south), "--preset", "jt")

    assert result["hand"]["error"] == "NOT_WIN"
    assert result["payments"] == {"E": 1500, "S": -3000, "W": 750, "N": 750}


# --- Wilmington Advanced 12-Tile (--preset wa): one deal per line ---------------------------


def test_wa_worked_examples_give_their_expected_hands_and_payments():
    cases = load_wa_cases()

    results = run("".join(json.dumps(case) + "\n" for case in cases), "--preset", "wa")

    assert [r["id"] for r in results] == [case["id"] for case in cases]
    for case, result in zip(cases, results, strict=True):
        expected = case["expected"]
        assert set(result) == {"id", "hands", "payments"}, case["id"]
        assert result["payments"] == expected["payments"], case["id"]
        assert len(result["hands"]) == len(expected.get("hands", [])), case["id"]
        for want, have in zip(expected.get("hands", []), result["hands"], strict=True):
            assert set(have) == set(want), case["id"]
            for key in ("error", "total", "final", "limit", "joker_as"):
                assert have.get(key) == want.get(key), (case["id"], key)
            assert sorted(have["patterns"]) == sorted(want["patterns"]), case["id"]


def test_wa_malformed_line_gives_an_error_line_for_its_id_and_the_batch_goes_on():
    first, second = load_wa_cases()[:2]
    broken = '{"id": "WA-77", "concealed": ['
    refused = {**first, "id": "WA-78", "concealed": ["J", *first["concealed"]]}
    lines = [json.dumps(first), broken, json.dumps(refused), "[1]", json.dumps(second)]

    results = run("\n".join(lines), "--preset", "wa")

    assert [r["id"] for r in results] == ["WA-01", "WA-77", "WA-78", None, "WA-02"]
    assert [r.get("error") for r in results] == [
        None,
        "BAD_INPUT",
        "JOKER_COUNT",
        "BAD_INPUT",
        None,
    ]
    assert results[2]["payments"] is None
    assert results[2]["message"].startswith("A Wilmington hand holds exactly one joker")
    assert results[4]["payments"] == second["expected"]["payments"]


def test_unknown_preset_is_a_command_error():
    with pytest.raises(CommandError, match="Unknown preset 'zz'"):
        run("", "--preset", "zz")

"""The archive's schema: its JSON Schema and `manage.py archive_schema`, the defaults it takes from
the models, optional text, and how a document that breaks it is reported (by the numbers people
see: round 2, table 3, hand 7)."""

from __future__ import annotations

import copy
import json
from io import StringIO

import pytest
from django.core.management import call_command
from jsonschema import Draft202012Validator

from tournament.archive import ArchiveError, export_tournament, import_tournament, json_schema
from tournament.archive import parse as parse_archive
from tournament.management.demo import DEMO_TOURNAMENT_SLUG
from tournament.models import Deal, Penalty, Player, Tournament


def win(number, winner="A", fan=8):
    return {"number": number, "result": "win", "winner": winner, "fan": fan}


def document(*rounds):
    """Each round a list of tables, each table a list of hands: players A, B, C, D at table 1,
    E, F, G, H at table 2 and so on."""
    keys = "ABCDEFGHIJKL"[: 4 * max(len(tables) for tables in rounds)]
    return {
        "format": "mcr-tournament-archive",
        "version": 1,
        "tournament": {"name": "Club Night", "slug": "club-night"},
        "players": [{"key": key, "name": f"Player {key}"} for key in keys],
        "rounds": [
            {
                "number": r,
                "tables": [
                    {
                        "number": t,
                        "seats": dict(zip("ESWN", keys[4 * (t - 1) : 4 * t], strict=True)),
                        "hands": hands,
                    }
                    for t, hands in enumerate(tables, start=1)
                ],
            }
            for r, tables in enumerate(rounds, start=1)
        ],
    }


def refusal(data):
    with pytest.raises(ArchiveError) as error:
        parse_archive(data)
    return error.value.messages[0]


# --- The JSON Schema ----------------------------------------------------------------------------


def test_the_json_schema_is_a_valid_json_schema_of_every_version():
    schema = json_schema()

    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    names = ["ArchiveV1", "ArchiveV2", "ArchiveV3", "ArchiveV4", "ArchiveV5"]
    assert schema["oneOf"] == [{"$ref": f"#/$defs/{name}"} for name in names]
    for number, name in enumerate(names, start=1):
        version = schema["$defs"][name]
        assert version["required"] == ["format", "version", "tournament", "players", "rounds"]
        assert version["properties"]["version"]["const"] == number


def test_archive_schema_prints_the_json_schema():
    out = StringIO()

    call_command("archive_schema", stdout=out)

    assert json.loads(out.getvalue()) == json_schema()


def test_archive_schema_writes_a_file_with_output(tmp_path):
    target = tmp_path / "archive.schema.json"
    err = StringIO()

    call_command("archive_schema", "--output", str(target), stdout=StringIO(), stderr=err)

    assert json.loads(target.read_text(encoding="utf-8")) == json_schema()
    assert f"Wrote the archive's JSON Schema to {target}." in err.getvalue()


@pytest.mark.django_db
def test_the_demo_archive_validates_against_the_json_schema():
    call_command("load_demo", stdout=StringIO())
    archive = export_tournament(Tournament.objects.get(slug=DEMO_TOURNAMENT_SLUG))

    Draft202012Validator(json_schema()).validate(archive)


def test_a_bare_document_validates_against_the_json_schema():
    data = document([[win(1)]])

    Draft202012Validator(json_schema()).validate(data)
    parse_archive(data)


def test_the_json_schema_refuses_what_the_import_refuses():
    data = document([[win(1, fan="ten")]])
    validator = Draft202012Validator(json_schema())

    assert not validator.is_valid(data)
    assert "must be a whole number" in refusal(data)


def test_the_hand_results_are_those_of_the_hand_model_that_version_1_holds():
    hand = json_schema()["$defs"]["TableRecord"]["properties"]["hands"]["items"]

    # Version 1 holds MCR games: a hand is won or drawn (a faulty out ending a deal is JT's).
    assert sorted(hand["discriminator"]["mapping"]) == sorted([Deal.Result.WIN, Deal.Result.DRAW])


def test_version_2_holds_every_result_of_the_hand_model():
    deal = json_schema()["$defs"]["TableRecordV2"]["properties"]["hands"]["items"]

    assert sorted(deal["discriminator"]["mapping"]) == sorted(Deal.Result.values)


def test_version_2_deals_hold_the_facts_of_every_preset():
    definitions = json_schema()["$defs"]
    deal = definitions["WinDeal"]["properties"]

    assert {
        "prevailing_wind", "dealer", "extra_hands", "fan", "flowers", "value", "extra_winners",
        "riichi", "faulty_claims", "ready", "faulty_riichi", "offender", "payments",
    } <= set(deal)  # fmt: skip
    assert deal["prevailing_wind"]["anyOf"][0]["enum"] == ["E", "S", "W", "N"]
    assert definitions["Payments"]["required"] == ["E", "S", "W", "N"]
    assert definitions["ExtraWinRecord"]["required"] == ["winner", "value"]
    assert definitions["FaultyOutDeal"]["required"] == ["number", "result", "offender"]
    rule_settings = definitions["TournamentRecordV2"]["properties"]["rule_settings"]
    assert rule_settings["additionalProperties"] == {"type": "integer"}
    assert rule_settings["default"] == Tournament._meta.get_field("rule_settings").get_default()


def version_2(document):
    """A version-1 `document` made version 2 (whose hands are deals of any preset)."""
    document["version"] = 2
    return document


def test_the_json_schema_takes_a_version_2_document_with_deals_of_any_preset():
    data = version_2(document([[win(1)]]))
    data["tournament"].update(preset="japanese-transitional", rule_settings={"wind_rounds": 1})
    data["rounds"][0]["tables"][0]["hands"] = [
        {"number": 1, "result": "win", "winner": "A", "value": 40, "riichi": ["B"],
         "payments": {"E": 340, "S": -180, "W": -80, "N": -80}},
        {"number": 2, "result": "faulty_out", "offender": "C"},
        {"number": 3, "result": "draw", "ready": ["A", "D"], "prevailing_wind": "E",
         "dealer": "A", "extra_hands": 0},
    ]  # fmt: skip

    Draft202012Validator(json_schema()).validate(data)
    parse_archive(data)


def test_the_json_schema_refuses_a_faulty_out_in_version_1_as_the_import_does():
    data = document([[{"number": 1, "result": "faulty_out", "offender": "C"}]])

    assert not Draft202012Validator(json_schema()).is_valid(data)
    assert refusal(data) == (
        "round 1, table 1, hand 1: result must be one of win, draw, not 'faulty_out'."
    )
    assert Draft202012Validator(json_schema()).is_valid(version_2(data))


# --- Defaults and optional text -----------------------------------------------------------------

SETTINGS = ("preset", "profile", "seat_rotation", "table_points", "public", "venue", "tie_breaks")


@pytest.mark.parametrize("name", [*SETTINGS, "confirmation", "round_minutes"])
def test_the_json_schema_gives_the_tournament_models_defaults(name):
    properties = json_schema()["$defs"]["TournamentRecord"]["properties"]

    assert properties[name]["default"] == Tournament._meta.get_field(name).get_default()


@pytest.mark.django_db
def test_a_bare_tournament_takes_the_models_defaults(organiser):
    tournament = import_tournament(document([[win(1)]]), actor=organiser)

    for name in (*SETTINGS, "confirmation", "round_minutes"):
        assert getattr(tournament, name) == Tournament._meta.get_field(name).get_default(), name


@pytest.mark.django_db
def test_optional_text_may_be_null(organiser):
    data = document([[win(1), win(2)]])
    data["tournament"]["venue"] = None
    data["players"][0].update(country=None, club=None, team=None, ema_id=None)
    data["rounds"][0]["tables"][0]["hands"][1]["penalties"] = [
        {"player": "B", "points": 30, "distributed": True, "reason": None, "kind": "false_win"},
    ]

    tournament = import_tournament(data, actor=organiser)

    assert tournament.venue == ""
    player = Player.objects.get(tournament=tournament, key="A")
    assert (player.country, player.club, player.team, player.ema_number) == ("", "", "", "")
    assert Penalty.objects.get(table__round__tournament=tournament).reason == "False win in hand 2"


@pytest.mark.django_db
def test_a_false_win_may_leave_out_its_reason(organiser):
    data = document([[win(1)]])
    data["rounds"][0]["tables"][0]["hands"][0]["penalties"] = [
        {"player": "B", "points": 30, "distributed": True, "kind": "false_win"},
    ]

    tournament = import_tournament(data, actor=organiser)

    assert Penalty.objects.get(table__round__tournament=tournament).reason == "False win in hand 1"


@pytest.mark.django_db
def test_a_deduction_without_a_reason_is_refused(organiser):
    data = document([[win(1)]])
    data["rounds"][0]["tables"][0]["penalties"] = [
        {"player": "B", "points": 10, "distributed": False, "reason": None},
    ]

    with pytest.raises(ArchiveError) as error:
        import_tournament(data, actor=organiser)

    assert error.value.messages[0] == (
        "round 1, table 1, game penalty 1: Give the reason for the penalty."
    )
    assert not Tournament.objects.exists()


# --- Where a document is wrong, in the document's numbers ---------------------------------------


def test_a_place_is_named_by_the_numbers_people_see():
    data = document([[win(1)]], [[win(1)], [win(1)], [win(n) for n in range(1, 8)]])
    data["rounds"][1]["tables"][2]["hands"][6]["fan"] = "x"

    assert refusal(data) == (
        "round 2, table 3, hand 7: \"fan\" must be a whole number, not a string ('x')."
    )


def test_a_table_is_named_by_its_number_not_its_position():
    data = document([[win(1)], [win(1)]])
    data["rounds"][0]["tables"][0]["number"] = 3
    data["rounds"][0]["tables"][1]["number"] = 7
    data["rounds"][0]["tables"][1]["hands"][0]["winner"] = None

    assert refusal(data) == 'round 1, table 7, hand 1: "winner" must be a string, not null.'


def change(path, value):
    def apply(data):
        target = data
        for step in path[:-1]:
            target = target[step]
        if value is KeyError:
            del target[path[-1]]
        else:
            target[path[-1]] = value

    return apply


TABLE = ("rounds", 0, "tables", 0)
HAND = (*TABLE, "hands", 0)
MESSAGES = [
    (
        "a table without number",
        change((*TABLE, "number"), KeyError),
        'round 1, table 1: the key "number" is missing.',
    ),
    (
        "a hand that is not an object",
        change(HAND, 5),
        "round 1, table 1, hand 1 must be an object, not a number (5).",
    ),
    (
        "an unknown result",
        change((*HAND, "result"), "chombo"),
        "round 1, table 1, hand 1: result must be one of win, draw, not 'chombo'.",
    ),
    (
        "a hand without result",
        change((*HAND, "result"), KeyError),
        'round 1, table 1, hand 1: the key "result" is missing.',
    ),
    (
        "a seat that is not a key",
        change((*TABLE, "seats", "W"), 3),
        'round 1, table 1, seats: "W" must be a string, not a number (3).',
    ),
    (
        "too many hands",
        change((*TABLE, "hands"), [win(n) for n in range(1, 18)]),
        'round 1, table 1: "hands" has at most 16 entries, not 17.',
    ),
    (
        "an organiser that is not a username",
        change(("tournament", "organisers"), ["alice", 5]),
        'tournament: "organisers" item 2 must be a string, not a number (5).',
    ),
    (
        "a time that is not text",
        change((*HAND, "entered_at"), 5),
        'round 1, table 1, hand 1: "entered_at" must be a date and time such as '
        '"2025-05-01T14:30".',
    ),
    (
        "a date that is not a date",
        change(("tournament", "start_date"), "May 1"),
        'tournament: "start_date" must be a date such as "2025-05-01".',
    ),
    (
        "a player that is not an object",
        change(("players", 1), "B"),
        "player 2 must be an object, not a string ('B').",
    ),
    (
        "a penalty kind",
        change(
            (*HAND, "penalties"),
            [{"player": "B", "points": 30, "distributed": True, "kind": "chombo"}],
        ),
        "round 1, table 1, hand 1, penalty 1: kind must be one of false_win, false_win_invalid, "
        "deduction, distributed, not 'chombo'.",
    ),
    (
        "a version that is not a number",
        change(("version",), True),
        "Archive version true cannot be read; this version reads versions 1, 2, 3, 4 and 5.",
    ),
    (
        "no tournament",
        change(("tournament",), KeyError),
        'archive: the key "tournament" is missing.',
    ),
]


@pytest.mark.parametrize(
    ("apply", "message"), [case[1:] for case in MESSAGES], ids=[case[0] for case in MESSAGES]
)
def test_a_document_that_breaks_the_schema_is_refused_with_its_place(apply, message):
    data = copy.deepcopy(document([[win(1)]]))
    apply(data)

    assert refusal(data) == message


DEAL = {"number": 1, "result": "draw"}
MESSAGES_V2 = [
    (
        "a negative extra-hand number",
        {**DEAL, "extra_hands": -1},
        "round 1, table 1, hand 1: extra_hands must be 0 to 32767, not -1.",
    ),
    (
        "an unknown prevailing wind",
        {**DEAL, "prevailing_wind": "X"},
        "round 1, table 1, hand 1: prevailing_wind must be one of E, S, W, N, not 'X'.",
    ),
    (
        "payments without a seat",
        {**DEAL, "payments": {"E": 0, "S": 0, "W": 0}},
        'round 1, table 1, hand 1, payments: the key "N" is missing.',
    ),
    (
        "payments that do not add up",
        {**DEAL, "payments": {"E": 600, "S": -200, "W": -200, "N": -100}},
        "round 1, table 1, hand 1: the payments add up to +100, not 0: what some pay, the "
        "others receive.",
    ),
    (
        "a faulty out without its offender",
        {"number": 1, "result": "faulty_out"},
        'round 1, table 1, hand 1: the key "offender" is missing.',
    ),
    (
        "a ready player not among the players",
        {**DEAL, "ready": ["A", "Z"]},
        "round 1, table 1, hand 1: the ready, 'Z', is not in the players.",
    ),
    (
        "a further winner without value",
        {**DEAL, "result": "win", "winner": "A", "extra_winners": [{"winner": "B"}]},
        'round 1, table 1, hand 1, further winner 1: the key "value" is missing.',
    ),
    (
        "rule settings that are not numbers",
        None,
        "tournament, rule_settings: \"wind_rounds\" must be a whole number, not a string ('4').",
    ),
]


@pytest.mark.parametrize(
    ("deal", "message"), [case[1:] for case in MESSAGES_V2], ids=[case[0] for case in MESSAGES_V2]
)
def test_a_version_2_document_that_breaks_the_schema_is_refused_with_its_place(deal, message):
    data = version_2(document([[deal or DEAL]]))
    if deal is None:
        data["tournament"]["rule_settings"] = {"wind_rounds": "4"}

    assert refusal(data) == message

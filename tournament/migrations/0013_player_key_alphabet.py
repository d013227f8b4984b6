import re

from django.db import migrations, models

import tournament.models

# The alphabet as it stood when this migration was written (a migration keeps its own copy).
KEY = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
OTHER = re.compile(r"[^A-Za-z0-9._-]+")
LENGTH = 20


def new_key(key, taken):
    """`key` in the alphabet: each run of other characters becomes one "-", what cannot begin
    a key is dropped from the front; a number is added when the result is taken."""
    base = OTHER.sub("-", key).lstrip("._-")[:LENGTH] or "player"
    candidate, number = base, 2
    while candidate in taken:
        suffix = f"-{number}"
        candidate = base[: LENGTH - len(suffix)] + suffix
        number += 1
    return candidate


def fix_player_keys(apps, schema_editor):
    """Players whose key the alphabet refuses (a "/" or a space broke their API address) get
    the nearest key it takes, unique in their tournament."""
    Player = apps.get_model("tournament", "Player")
    refused = [
        player
        for player in Player.objects.order_by("tournament_id", "pk")
        if not KEY.fullmatch(player.key)
    ]
    for tournament_id in {player.tournament_id for player in refused}:
        taken = set(Player.objects.filter(tournament_id=tournament_id).values_list("key", flat=True))
        for player in refused:
            if player.tournament_id == tournament_id:
                player.key = new_key(player.key, taken)
                taken.add(player.key)
                player.save(update_fields=["key"])


class Migration(migrations.Migration):
    dependencies = [("tournament", "0012_submission_key_constraints")]

    operations = [
        migrations.RunPython(fix_player_keys, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="player",
            name="key",
            field=models.CharField(
                help_text="Identifies the player within the tournament: a start number. Letters (A to Z), digits, '-', '_' and '.', beginning with a letter or a digit.",
                max_length=20,
                validators=[tournament.models.validate_player_key],
            ),
        ),
    ]

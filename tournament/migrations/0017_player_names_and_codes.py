"""Players' names in parts, EMA numbers and countries checked.

Existing players: a country written as a name or another code ("Sweden", "swe") becomes its
ISO 3166 code (SE); text that names no country is kept as it is, and the player's page asks
for a country from the list when they are next changed. A name written "Family, Given" (the way
the EMA file used to be told the family name) becomes the family and given names, and the name
is written in its natural order ("Berg, Anna" -> "Anna Berg"; "王, 小明" -> "王小明").
"""

import tournament.domain.names
from django.db import migrations, models


def forwards(apps, schema_editor):
    Player = apps.get_model("tournament", "Player")
    for player in Player.objects.all().iterator():
        changed = []
        code = tournament.domain.names.country_code(player.country)
        if code is not None and code != player.country:
            player.country = code
            changed.append("country")
        if "," in player.name or "，" in player.name:
            family, given = tournament.domain.names.split_name(player.name)
            if family and given:
                player.family_name, player.given_name = family[:200], given[:200]
                player.name = tournament.domain.names.full_name(family, given)[:200]
                changed += ["family_name", "given_name", "name"]
        if changed:
            player.save(update_fields=changed)


def backwards(apps, schema_editor):
    """The names go back to "Family, Given" where they were split; countries stay codes."""
    Player = apps.get_model("tournament", "Player")
    for player in Player.objects.exclude(family_name="").exclude(given_name="").iterator():
        player.name = f"{player.family_name}, {player.given_name}"[:200]
        player.save(update_fields=["name"])


class Migration(migrations.Migration):

    dependencies = [
        ('tournament', '0016_referee_accounts'),
    ]

    operations = [
        migrations.AddField(
            model_name='player',
            name='family_name',
            field=models.CharField(blank=True, max_length=200),
        ),
        migrations.AddField(
            model_name='player',
            name='given_name',
            field=models.CharField(blank=True, max_length=200),
        ),
        migrations.AlterField(
            model_name='player',
            name='country',
            field=models.CharField(blank=True, help_text='ISO 3166 country code, such as SE or CN.', max_length=100, validators=[tournament.domain.names.validate_country]),
        ),
        migrations.AlterField(
            model_name='player',
            name='ema_number',
            field=models.CharField(blank=True, max_length=20, validators=[tournament.domain.names.validate_ema_number], verbose_name='EMA number'),
        ),
        migrations.AlterField(
            model_name='player',
            name='name',
            field=models.CharField(help_text='The full name as it is written, such as Anna Berg or 王小明.', max_length=200),
        ),
        migrations.RunPython(forwards, backwards),
    ]

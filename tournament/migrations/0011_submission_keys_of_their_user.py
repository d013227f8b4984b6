import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

HELP = (
    "The idempotency key of the submission that recorded it: a resubmission with the same key "
    "is recognised and not recorded twice."
)


def give_keys_their_user(apps, schema_editor):
    """A key recorded so far belongs to whoever entered its record (a correction made since
    names the corrector: the best the data tells). Its digest stays empty: such a key is
    answered as a replay whatever is sent with it, as before."""
    for name in ("Hand", "Penalty"):
        model = apps.get_model("tournament", name)
        model.objects.filter(submission__isnull=False).update(
            submitted_by=models.F("entered_by")
        )


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0010_deals_of_every_preset"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="hand",
            name="submission_digest",
            field=models.CharField(blank=True, default="", max_length=64),
        ),
        migrations.AddField(
            model_name="hand",
            name="submitted_by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddField(
            model_name="penalty",
            name="submission_digest",
            field=models.CharField(blank=True, default="", max_length=64),
        ),
        migrations.AddField(
            model_name="penalty",
            name="submitted_by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AlterField(
            model_name="hand",
            name="submission",
            field=models.UUIDField(blank=True, help_text=HELP, null=True),
        ),
        migrations.AlterField(
            model_name="penalty",
            name="submission",
            field=models.UUIDField(blank=True, help_text=HELP, null=True),
        ),
        migrations.RunPython(give_keys_their_user, migrations.RunPython.noop),
    ]

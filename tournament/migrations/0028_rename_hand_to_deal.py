"""The model of a deal is called Deal, and a table's deals `table.deals` (MCR calls a deal a
hand; the other presets do not). The archive's format keeps its own names."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tournament", "0027_audit_players_and_settings")]

    operations = [
        migrations.RenameModel("Hand", "Deal"),
        migrations.AlterField(
            model_name="deal",
            name="table",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="deals",
                to="tournament.table",
            ),
        ),
    ]

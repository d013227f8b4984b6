"""The fields of a deal named as such: a penalty's `deal_number` (was `hand_number`) and a
further win's `deal` (was `hand`). Data formats keep their names: the API and the archive
still say `hand_number`."""

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0028_rename_hand_to_deal"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="extrawin",
            options={"ordering": ["deal", "pk"]},
        ),
        migrations.RemoveConstraint(
            model_name="extrawin",
            name="extra_win_once_per_winner",
        ),
        migrations.RemoveConstraint(
            model_name="penalty",
            name="penalty_hand_within_game",
        ),
        migrations.RenameField(
            model_name="extrawin",
            old_name="hand",
            new_name="deal",
        ),
        migrations.RenameField(
            model_name="penalty",
            old_name="hand_number",
            new_name="deal_number",
        ),
        migrations.AddConstraint(
            model_name="extrawin",
            constraint=models.UniqueConstraint(
                fields=("deal", "winner"),
                name="extra_win_once_per_winner",
                violation_error_message="A player wins a deal once.",
            ),
        ),
        migrations.AddConstraint(
            model_name="penalty",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("deal_number__isnull", True), ("deal_number__gte", 1), _connector="OR"
                ),
                name="penalty_deal_within_game",
            ),
        ),
    ]

from django.db import migrations, models


def constraints(model_name):
    return [
        migrations.AddConstraint(
            model_name=model_name,
            constraint=models.UniqueConstraint(
                condition=models.Q(("submission__isnull", False)),
                fields=("table", "submitted_by", "submission"),
                name=f"{model_name}_submission_key_once",
                violation_error_message="This submission key was already used.",
            ),
        ),
        migrations.AddConstraint(
            model_name=model_name,
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("submission__isnull", True), ("submitted_by__isnull", False), _connector="OR"
                ),
                name=f"{model_name}_submission_key_has_its_user",
            ),
        ),
    ]


class Migration(migrations.Migration):
    # Apart from 0011: its data step leaves pending trigger events that PostgreSQL does not
    # let a table be altered under in the same transaction.
    dependencies = [("tournament", "0011_submission_keys_of_their_user")]

    operations = [*constraints("hand"), *constraints("penalty")]

"""The table of the "live" cache (settings.CACHES): live fragments kept under their ETag."""

from django.conf import settings
from django.core.management import call_command
from django.db import migrations


def make_cache_table(apps, schema_editor) -> None:
    table = settings.CACHES["live"]["LOCATION"]
    call_command("createcachetable", table, database=schema_editor.connection.alias, verbosity=0)


def drop_cache_table(apps, schema_editor) -> None:
    table = schema_editor.quote_name(settings.CACHES["live"]["LOCATION"])
    schema_editor.execute(f"DROP TABLE IF EXISTS {table}")


class Migration(migrations.Migration):
    dependencies = [("tournament", "0019_audit_referee_accounts")]

    operations = [migrations.RunPython(make_cache_table, drop_cache_table)]

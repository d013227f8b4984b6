"""The live cache's table is UNLOGGED on PostgreSQL: what it keeps can be rendered again, so it
need not survive a crash, and writing it then costs no write-ahead log and no wait for the
disk at commit, which the referees' hands, committed on the same server, would share."""

from django.conf import settings
from django.db import migrations


def _alter(schema_editor, to: str) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    table = schema_editor.quote_name(settings.CACHES["live"]["LOCATION"])
    schema_editor.execute(f"ALTER TABLE {table} SET {to}")


def unlogged(apps, schema_editor) -> None:
    _alter(schema_editor, "UNLOGGED")


def logged(apps, schema_editor) -> None:
    _alter(schema_editor, "LOGGED")


class Migration(migrations.Migration):
    dependencies = [("tournament", "0020_live_fragment_cache")]

    operations = [migrations.RunPython(unlogged, logged)]

"""Leave room on every page of the sheet table (PostgreSQL only; nothing on SQLite).

The regeneration tick and every action rewrite sheet rows, changing no indexed column: with
free space on the row's own page, PostgreSQL writes the new version there as a heap-only tuple
(HOT), without touching the indexes, and prunes the old one on the next visit. Existing pages
keep their rows until rewritten (VACUUM FULL or pg_repack, at the operator's choice); new pages
follow the fillfactor. Measured in ``make bench`` (HOT share and WAL bytes per tick).
"""

from django.db import migrations

FILLFACTOR = 70


def _alter(value):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        table = schema_editor.quote_name(apps.get_model("characters", "EternalWarSheet")
                                         ._meta.db_table)
        if value is None:
            schema_editor.execute(f"ALTER TABLE {table} RESET (fillfactor)")
        else:
            schema_editor.execute(f"ALTER TABLE {table} SET (fillfactor = {int(value)})")
    return run


class Migration(migrations.Migration):
    dependencies = [("characters", "0006_cooldowns_and_daily_pa")]

    operations = [migrations.RunPython(_alter(FILLFACTOR), _alter(None), elidable=False)]

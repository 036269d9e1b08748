"""``manage.py backup`` and ``restore`` (issue 22, item 5): an SQLite file database backed up
while open, changed, restored: its rows are those of the backup; PostgreSQL's pg_dump runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from transfer.backup import database_backup, database_restore
from transfer.errors import BackupRefused

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import json, sys
from io import StringIO
import django
django.setup()
from django.core.management import call_command
from django.db import connection
from django.contrib.auth.models import User
from campaigns.models import Campaign
from config.demo import load_demo

def rows():
    with connection.cursor() as cursor:
        tables = sorted(connection.introspection.table_names(cursor))
        out = {}
        for table in tables:
            cursor.execute(f'SELECT * FROM "{table}" ORDER BY 1')
            out[table] = [list(map(str, r)) for r in cursor.fetchall()]
    return out

step, backup = sys.argv[1], sys.argv[2]
if step == "backup":
    call_command("migrate", verbosity=0)
    load_demo(seed=1)
    before = rows()
    call_command("backup", backup, stdout=StringIO())
    Campaign.objects.filter(name__contains="Homebrew").delete()
    User.objects.create_user("intruder")
    print(json.dumps({"before": before, "changed": rows()}))
else:
    call_command("restore", backup, "--yes", stdout=StringIO())
    print(json.dumps({"after": rows()}))
"""


def _run(tmp_path, *args) -> dict:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'site.sqlite3'}",
           "DJANGO_SETTINGS_MODULE": "config.settings.test", "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", SCRIPT, *args], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_an_sqlite_install_is_backed_up_online_and_restored_row_for_row(tmp_path):
    backup = tmp_path / "backup.sqlite3"
    first = _run(tmp_path, "backup", str(backup))
    assert first["changed"] != first["before"]
    assert backup.read_bytes()[:16] == b"SQLite format 3\x00"
    second = _run(tmp_path, "restore", str(backup))
    assert second["after"] == first["before"]


@pytest.mark.django_db
def test_a_restore_refuses_a_missing_file_or_not_a_backup(tmp_path):
    with pytest.raises(BackupRefused):
        database_restore(connection=connection, path=tmp_path / "none.sqlite3")
    junk = tmp_path / "junk"
    junk.write_text("hello")
    if connection.vendor == "sqlite":
        with pytest.raises(BackupRefused):
            database_restore(connection=connection, path=junk)
    with pytest.raises(CommandError):
        call_command("restore", str(tmp_path / "none"), "--yes")


@pytest.mark.postgres
@pytest.mark.django_db
def test_postgresql_is_dumped_by_pg_dump(tmp_path):
    out = tmp_path / "site.dump"
    line = database_backup(connection=connection, path=out)
    assert line.startswith("pg_dump --format=custom")
    assert out.read_bytes()[:5] == b"PGDMP"
    printed = database_restore(connection=connection, path=out, run=False)
    assert printed.startswith("pg_restore --clean --if-exists")

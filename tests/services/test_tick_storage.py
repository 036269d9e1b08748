"""The sheet table leaves room for HOT updates (issue 9), on PostgreSQL: the tick and the actions
rewrite rows without changing an indexed column, so the new versions can stay on their page."""

import pytest
from django.db import connection

from ew1.models import EternalWarSheet

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def test_the_sheet_table_has_a_fillfactor_below_100():
    with connection.cursor() as cursor:
        cursor.execute("SELECT reloptions FROM pg_class WHERE relname = %s",
                       [EternalWarSheet._meta.db_table])
        (options,) = cursor.fetchone()
    assert "fillfactor=70" in (options or [])


def test_no_regenerating_column_is_indexed():
    """HOT needs every changed column to be outside every index."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexdef FROM pg_indexes WHERE tablename = %s",
                       [EternalWarSheet._meta.db_table])
        indexes = [row[0] for row in cursor.fetchall()]
    assert indexes
    for definition in indexes:
        for column in ("pa", "pv", "pa_anchor", "pv_anchor"):
            assert f"({column}" not in definition and f" {column}," not in definition

"""Every character has its sheet: give the characters saved without one (the admin accepted
that before issue 8) the default sheet of their kind, anchored at the migration's time.
Going back removes nothing (the sheets made here are ordinary sheets)."""

import time

from django.db import migrations

from gamerules.errors import ParameterError
from gamerules.ew1.params import EW1Parameters


def forward(apps, schema_editor):
    from ew1.sheets import sheet_defaults  # data only: the defaults of each kind

    Character = apps.get_model("characters", "Character")
    Sheet = apps.get_model("characters", "EternalWarSheet")
    now = int(time.time())
    sheets = []
    for character in Character.objects.filter(ew1__isnull=True).select_related("campaign"):
        try:
            params = EW1Parameters.from_overrides(character.campaign.rule_parameters)
        except ParameterError:
            params = EW1Parameters()
        sheets.append(Sheet(character_id=character.pk, pa_anchor=now, pv_anchor=now,
                            **sheet_defaults(kind=character.kind, params=params)))
    Sheet.objects.bulk_create(sheets)


class Migration(migrations.Migration):

    dependencies = [
        ('characters', '0004_suicided_at'),
    ]

    operations = [migrations.RunPython(forward, migrations.RunPython.noop)]

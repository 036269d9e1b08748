"""Eternal War One II's sheet, items and drafts now belong to the ``ew1`` app (ew1 0001 made them
there, on the same tables): forget them here, in Django's state only. The tables and their rows
stay; reversing gives them back to this app's state."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('characters', '0007_sheet_fillfactor'),
        ('ew1', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                # Those that point at ItemTemplate first.
                migrations.DeleteModel(name='CharacterDraft'),
                migrations.DeleteModel(name='EternalWarSheet'),
                migrations.DeleteModel(name='ItemInstance'),
                migrations.DeleteModel(name='ItemModifier'),
                migrations.DeleteModel(name='ItemTemplate'),
            ],
        ),
    ]

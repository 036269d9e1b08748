"""The journal's grades (issue 10, item 2), last step: ``RollRecord.success`` is derived from
``grade`` by the database (a stored generated column: true for the success grades, false for
the failures, null for a roll that is not a test), so the two cannot disagree. Going back
makes it a plain column again, which 0004's reverse fills from the grades."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('campaigns', '0004_backfill_grades'),
    ]

    operations = [
        migrations.RemoveField(
            model_name='rollrecord',
            name='success',
        ),
        migrations.AddField(
            model_name='rollrecord',
            name='success',
            field=models.GeneratedField(db_persist=True, expression=models.Case(models.When(grade='', then=models.Value(None)), models.When(grade__in=['critical_success', 'perfect', 'success'], then=models.Value(True)), default=models.Value(False)), output_field=models.BooleanField(null=True)),
        ),
    ]

"""The journal, neutral for every rule system (issue 10, item 2), first step:
``ActionRecord.pa_spent`` becomes ``cost`` (same column type, values kept: the unit is the
rule system's, PA for Eternal War One II) and ``RollRecord.grade`` is added (blank), filled
by 0004; 0005 derives ``success`` from it. Three migrations, one transaction each: PostgreSQL
refuses to alter a table in the transaction that updated its rows (pending trigger events)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('campaigns', '0002_initial'),
    ]

    operations = [
        migrations.RenameField(
            model_name='actionrecord',
            old_name='pa_spent',
            new_name='cost',
        ),
        migrations.AddField(
            model_name='rollrecord',
            name='grade',
            field=models.CharField(blank=True, choices=[('critical_success', 'Critical success'), ('perfect', 'Perfect'), ('success', 'Success'), ('failure', 'Failure'), ('critical_failure', 'Critical failure')], default='', max_length=16),
        ),
    ]

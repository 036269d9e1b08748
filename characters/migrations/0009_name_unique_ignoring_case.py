"""Character names are unique per campaign whatever their case ("Aldric" and "aldric" created at
once both passed the services' case-insensitive check). Existing duplicates are renamed first,
deterministically: in each campaign, the oldest character (lowest id) of a name keeps it, the
later ones get " (2)", " (3)"... (the first number no other name of the campaign uses, the name
cut so that it still fits 60 characters). Going back keeps the new names."""

import django.db.models.functions.text
from django.conf import settings
from django.db import migrations, models
from django.db.models import Count, Value
from django.db.models.functions import Lower

NAME_MAX = 60


def rename_duplicates(apps, schema_editor):
    Character = apps.get_model("characters", "Character")
    rows = Character.objects.annotate(folded=Lower("name"))
    clashes = (rows.values("campaign_id", "folded").annotate(n=Count("id")).filter(n__gt=1)
               .order_by("campaign_id", "folded"))
    for clash in clashes:
        same = list(rows.filter(campaign_id=clash["campaign_id"], folded=clash["folded"])
                    .order_by("id"))
        for later in same[1:]:
            later.name = _free_name(rows, later.campaign_id, later.name)
            later.save(update_fields=["name"])


def _free_name(rows, campaign_id, name):
    number = 2
    while True:
        suffix = f" ({number})"
        candidate = name[:NAME_MAX - len(suffix)].rstrip() + suffix
        if not rows.filter(campaign_id=campaign_id, folded=Lower(Value(candidate))).exists():
            return candidate
        number += 1


class Migration(migrations.Migration):

    dependencies = [
        ('campaigns', '0005_success_from_grade'),
        ('characters', '0008_ew1_models_moved'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(rename_duplicates, migrations.RunPython.noop),
        migrations.RemoveConstraint(
            model_name='character',
            name='unique_name_per_campaign',
        ),
        migrations.AddConstraint(
            model_name='character',
            constraint=models.UniqueConstraint(models.F('campaign'), django.db.models.functions.text.Lower('name'), name='unique_name_per_campaign_ci', violation_error_code='name_taken', violation_error_message='A character with this name already exists in this campaign.'),
        ),
    ]

"""A suicide stores when it happened (``suicided_at``) instead of when its block ends: the end is
derived from the campaign's current ``suicide_cooldown_hours`` (ew1.cooldowns).

Existing blocks are carried forward: ``suicided_at = reincarnation_blocked_until - the campaign's
cooldown today``, so each block ends exactly when it did before the migration; going back
reverses it."""

from datetime import timedelta

from django.db import migrations, models

from gamerules.errors import ParameterError
from gamerules.ew1.params import EW1Parameters


def _cooldown(campaign) -> timedelta:
    try:
        hours = EW1Parameters.from_overrides(campaign.rule_parameters).suicide_cooldown_hours
    except ParameterError:
        hours = EW1Parameters().suicide_cooldown_hours
    return timedelta(hours=hours)


def forward(apps, schema_editor):
    Character = apps.get_model("characters", "Character")
    for c in Character.objects.filter(reincarnation_blocked_until__isnull=False).select_related(
            "campaign"):
        c.suicided_at = c.reincarnation_blocked_until - _cooldown(c.campaign)
        c.save(update_fields=["suicided_at"])


def backward(apps, schema_editor):
    Character = apps.get_model("characters", "Character")
    for c in Character.objects.filter(suicided_at__isnull=False).select_related("campaign"):
        c.reincarnation_blocked_until = c.suicided_at + _cooldown(c.campaign)
        c.save(update_fields=["reincarnation_blocked_until"])


class Migration(migrations.Migration):

    dependencies = [
        ('campaigns', '0002_initial'),
        ('characters', '0003_sheet_anchor_defaults'),
    ]

    operations = [
        migrations.AddField(
            model_name='character',
            name='suicided_at',
            field=models.DateTimeField(blank=True, help_text="Set by a suicide, cleared by reincarnation. The character may reincarnate suicide_cooldown_hours after it, with the campaign's current value: changing the parameter also changes blocks already running.", null=True, verbose_name='suicided at'),
        ),
        migrations.RunPython(forward, backward),
        migrations.RemoveField(
            model_name='character',
            name='reincarnation_blocked_until',
        ),
    ]

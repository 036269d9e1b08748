"""The journal's grades (issue 10, item 2), second step.

- ``RollRecord.grade`` (gamerules.d100.Grade, blank for a roll that is not a test) is filled
  from the stored ``success``: True -> success, False -> failure, null -> blank. An EW1 attack
  roll that hit is "perfect" when its action's summary says so (``summary["perfect"]``, the
  rule's own verdict when it was rolled); an attack journaled without that key is perfect when
  its d100 was strictly below the campaign's ``perfect_below`` (5 unless overridden).
- 0005 then derives ``success`` from ``grade`` (a stored generated column).
Reversible: going back writes ``success`` from ``grade`` again (perfect -> True).
"""

from django.db import migrations

SUCCESS_GRADES = ["critical_success", "perfect", "success"]
FAILURE_GRADES = ["failure", "critical_failure"]
ATTACK_KINDS = ["brawl", "melee", "ranged", "throw"]
PERFECT_BELOW = 5  # EW1Parameters.perfect_below's default


def grades_from_success(apps, schema_editor):
    RollRecord = apps.get_model("campaigns", "RollRecord")
    rolls = RollRecord.objects.using(schema_editor.connection.alias)
    rolls.filter(success=True).update(grade="success")
    rolls.filter(success=False).update(grade="failure")
    hits = rolls.filter(label="attack", success=True, action__kind__in=ATTACK_KINDS,
                        action__campaign__rule_system="ew1")
    hits.filter(action__summary__perfect=True).update(grade="perfect")
    perfect = []
    for roll in (hits.exclude(action__summary__has_key="perfect")
                 .select_related("action__campaign")):
        threshold = (roll.action.campaign.rule_parameters or {}).get("perfect_below",
                                                                      PERFECT_BELOW)
        if roll.total < threshold:
            perfect.append(roll.pk)
    rolls.filter(pk__in=perfect).update(grade="perfect")


def success_from_grades(apps, schema_editor):
    RollRecord = apps.get_model("campaigns", "RollRecord")
    rolls = RollRecord.objects.using(schema_editor.connection.alias)
    rolls.filter(grade__in=SUCCESS_GRADES).update(success=True)
    rolls.filter(grade__in=FAILURE_GRADES).update(success=False)


class Migration(migrations.Migration):

    dependencies = [
        ('campaigns', '0003_journal_cost_and_grade'),
    ]

    operations = [
        migrations.RunPython(grades_from_success, success_from_grades),
    ]

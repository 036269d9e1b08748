"""Skills stored as the ranks an ego learnt, not as ratings (issue 18).

Before, ``EclipseSheet.skills`` held each trained skill's rating and a test read it as it was,
whatever the morph. Now a rating is the linked aptitude in the present morph plus the ranks
learnt (gamerules.eclipse_phase.sheet.Character.rating). Forward, each stored rating is read as
the skill under the ego's own aptitudes, before any morph: ranks = rating - the ego's linked
aptitude, never below 0 (a skill linked to no aptitude keeps its rating as ranks). Back, the
rating is the ego's aptitude + the ranks, 1 to 99. A rating that was below its aptitude does
not come back (it became 0 ranks): the first edition never rates a trained skill under its
aptitude. The catalogue of links is frozen here as it stood, so that a later change to
``SKILL_APTITUDES`` does not change what this migration did.
"""

from django.db import migrations, models

FIELDS = {"COG": "cognition", "COO": "coordination", "INT": "intuition", "REF": "reflexes",
          "SAV": "savvy", "SOM": "somatics", "WIL": "willpower"}
LINKS = {
    "fray": "REF", "blades": "SOM", "clubs": "SOM", "unarmed_combat": "SOM",
    "beam_weapons": "COO", "kinetic_weapons": "COO", "seeker_weapons": "COO",
    "spray_weapons": "COO", "throwing_weapons": "COO", "gunnery": "INT",
    "perception": "INT", "infiltration": "COO", "freerunning": "SOM", "freefall": "REF",
    "climbing": "SOM", "psi_assault": "WIL", "medicine": "COG", "psychosurgery": "INT",
    "control": "WIL", "sense": "INT", "demolitions": "COG", "infosec": "COG",
    "programming": "COG",
}


def _aptitude(sheet, name) -> int:
    code = (sheet.skill_aptitudes or {}).get(name) or LINKS.get(name)
    field = FIELDS.get(code or "")
    return getattr(sheet, field) if field else 0


def _as_int(value) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _convert(apps, to_ranks: bool) -> None:
    Sheet = apps.get_model("eclipse", "EclipseSheet")
    changed = []
    for sheet in Sheet.objects.all().order_by("pk").iterator(chunk_size=500):
        skills = {}
        for name, value in (sheet.skills or {}).items():
            number = _as_int(value)
            if number is None:  # a value no rule could read: left as it was
                skills[name] = value
            elif to_ranks:
                skills[name] = max(0, number - _aptitude(sheet, name))
            else:
                skills[name] = max(1, min(99, _aptitude(sheet, name) + number))
        if skills != (sheet.skills or {}):
            sheet.skills = skills
            changed.append(sheet)
    Sheet.objects.bulk_update(changed, ["skills"], batch_size=500)


def ratings_to_ranks(apps, schema_editor):
    _convert(apps, to_ranks=True)


def ranks_to_ratings(apps, schema_editor):
    _convert(apps, to_ranks=False)


class Migration(migrations.Migration):

    dependencies = [
        ('eclipse', '0003_encounter_setting'),
    ]

    operations = [
        migrations.AlterField(
            model_name='eclipsesheet',
            name='skills',
            field=models.JSONField(blank=True, default=dict, help_text='Trained skills and the ranks learnt, 0-99, added to the linked aptitude: {"fray": 25, "blades": 20}.', verbose_name='skills'),
        ),
        migrations.RunPython(ratings_to_ranks, ranks_to_ratings, elidable=False),
    ]

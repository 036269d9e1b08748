"""eclipse 0004 turns the stored skill ratings into the ranks the ego learnt (issue 18): each
rating is read as the skill under the ego's own aptitudes (ranks = rating - the linked
aptitude, never below 0; a skill linked to no aptitude keeps its rating); back, the rating is
the aptitude + the ranks. Runs on SQLite and, with DATABASE_URL set, on PostgreSQL."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("eclipse", "0003_encounter_setting")]
AFTER = [("eclipse", "0004_skills_as_ranks")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.fixture
def before_0004():
    leaves = MigrationExecutor(connection).loader.graph.leaf_nodes()
    yield _migrate(BEFORE)
    _migrate(leaves)


def _sheet(apps, name, skills, links=None, **aptitudes):
    Campaign = apps.get_model("campaigns", "Campaign")
    Character = apps.get_model("characters", "Character")
    Sheet = apps.get_model("eclipse", "EclipseSheet")
    campaign = Campaign.objects.get_or_create(name="EP", rule_system="eclipse_phase")[0]
    character = Character.objects.create(campaign=campaign, name=name)
    return Sheet.objects.create(character=character, skills=skills,
                                skill_aptitudes=links or {}, **aptitudes).pk


def _skills(pk):
    from eclipse.models import EclipseSheet

    return EclipseSheet.objects.get(pk=pk).skills


@pytest.mark.django_db(transaction=True)
def test_ratings_become_ranks_and_come_back(before_0004):
    old = before_0004
    ash = _sheet(old, "Ash", {"kinetic_weapons": 55, "blades": 40, "fray": 10,
                              "pilot_groundcraft": 35, "basket_weaving": 30},
                 {"pilot_groundcraft": "REF"}, coordination=20, somatics=15, reflexes=20)
    odd = _sheet(old, "Odd", {"fray": "lots", "blades": 99}, somatics=5)
    empty = _sheet(old, "Empty", {})

    _migrate(AFTER)

    # COO 20, SOM 15, REF 20 (below it: 0 ranks), REF by the sheet's own link, no link at all.
    assert _skills(ash) == {"kinetic_weapons": 35, "blades": 25, "fray": 0,
                            "pilot_groundcraft": 15, "basket_weaving": 30}
    assert _skills(odd) == {"fray": "lots", "blades": 94}  # a value no rule reads: left alone
    assert _skills(empty) == {}

    _migrate(BEFORE)

    # Back: the aptitude + the ranks. The rating under its aptitude comes back as the aptitude.
    assert _skills(ash) == {"kinetic_weapons": 55, "blades": 40, "fray": 20,
                            "pilot_groundcraft": 35, "basket_weaving": 30}
    assert _skills(odd) == {"fray": "lots", "blades": 99}

    _migrate(AFTER)
    assert _skills(ash)["kinetic_weapons"] == 35 and _skills(ash)["fray"] == 0


@pytest.mark.django_db(transaction=True)
def test_the_migrated_sheet_reads_as_before_in_a_morph_without_bonus(before_0004):
    """What the migration promises: without a morph bonus, every rating read after is the
    rating stored before (a rating at or above its aptitude)."""
    old = before_0004
    pk = _sheet(old, "Ash", {"kinetic_weapons": 55, "perception": 40}, coordination=20)
    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
    from eclipse.models import EclipseSheet
    from eclipse.selectors import ego_of
    from gamerules.eclipse_phase.params import EclipsePhaseParameters
    from gamerules.eclipse_phase.sheet import Character, Morph

    sheet = EclipseSheet.objects.select_related("character").get(pk=pk)
    c = Character(ego_of(sheet), Morph("flat"))
    params = EclipsePhaseParameters()
    assert (c.skill("kinetic_weapons", params), c.skill("perception", params)) == (55, 40)

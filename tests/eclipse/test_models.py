"""The Eclipse Phase rows: their CHECK constraints, and the pure values built from them in
constant queries (eclipse.selectors)."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from campaigns import rule_systems
from eclipse.models import ArmourTemplate, EclipseSheet, MorphTemplate, Sleeve, WeaponTemplate
from eclipse.selectors import loaded_sheets, rules_of
from gamerules.eclipse_phase.gear import DamageType, FiringMode
from gamerules.eclipse_phase.params import EclipsePhaseParameters
from gamerules.eclipse_phase.sheet import Aptitude, MorphKind

P = EclipsePhaseParameters()


def refused(model, **fields):
    with pytest.raises(IntegrityError), transaction.atomic():
        model.objects.create(**fields)


def test_the_system_is_registered_and_plays_in_the_encounter():
    spec = rule_systems.require("eclipse_phase")
    assert spec.play_mode == rule_systems.ENCOUNTER
    assert spec.sheet_related_name == "eclipse"
    assert spec.parameters is EclipsePhaseParameters
    assert "eclipse" in rule_systems.sheet_relations()


@pytest.mark.parametrize("fields", [
    {"durability": 0}, {"speed": 0}, {"speed": 9}, {"wound_threshold": 0}, {"death_rating": 0},
    {"kind": "infomorph"}])
def test_a_morph_template_out_of_range_is_refused(ep, fields):
    refused(MorphTemplate, campaign=ep.campaign, name="Bad", **fields)


def test_a_morph_template_at_its_bounds_is_kept(ep):
    MorphTemplate.objects.create(campaign=ep.campaign, name="Edge", durability=1, speed=8,
                                 wound_threshold=1, death_rating=1)
    MorphTemplate.objects.create(campaign=ep.campaign, name="Edge 2", speed=1)


@pytest.mark.parametrize("fields", [
    {"range_short": 20, "range_medium": 10, "range_long": 30, "range_extreme": 40},
    {"range_long": 50, "range_extreme": 40},
    {"mode_ss": False},  # a ranged weapon without a firing mode nor a blast
    {"damage_type": "sonic"}, {"blast": "nuke"}, {"trigger": "wish"}])
def test_a_weapon_template_out_of_range_is_refused(ep, fields):
    refused(WeaponTemplate, campaign=ep.campaign, name="Bad",
            **{"mode_ss": True, "range_short": 1, "range_medium": 2, "range_long": 3,
               "range_extreme": 4, **fields})


def test_a_melee_weapon_or_an_explosive_needs_no_firing_mode(ep):
    WeaponTemplate.objects.create(campaign=ep.campaign, name="Club", melee=True)
    WeaponTemplate.objects.create(campaign=ep.campaign, name="Grenade", blast="blast",
                                  blast_radius_m=5, trigger="impact")


@pytest.mark.parametrize("fields", [
    {"cognition": 0}, {"willpower": 100}, {"moxie": 4, "moxie_max": 3}, {"lucidity": 0},
    {"trauma_threshold": 0}, {"insanity_rating": 0}])
def test_a_sheet_out_of_range_is_refused(ep, fields):
    sheet = EclipseSheet.objects.get(pk=ep.ash.pk)
    with pytest.raises(IntegrityError), transaction.atomic():
        EclipseSheet.objects.filter(pk=sheet.pk).update(**fields)


def test_a_sleeve_is_checked_as_a_template(ep):
    sheet = EclipseSheet.objects.get(pk=ep.ash.pk)
    refused(Sleeve, owner=sheet, name="Bad", durability=0, created_at=ep.now)


def test_armour_is_worn_once_per_sleeve(ep):
    sleeve = EclipseSheet.objects.get(pk=ep.ash.pk).sleeve
    refused(sleeve.armour.model, sleeve=sleeve, template=ep.vest)
    other = ArmourTemplate.objects.create(campaign=ep.campaign, name="Helmet", kinetic=2)
    sleeve.armour.create(template=other)


def test_the_pure_character_is_built_from_the_rows(ep):
    loaded = rules_of(loaded_sheets([ep.ash.pk])[ep.ash.pk])
    c = loaded.character
    assert c.ego.name == "Ash"
    assert c.aptitude(Aptitude.SOM, P) == 20  # 15 + the splicer's 5
    assert c.skill("fray", P) == 40 and c.skill("climbing", P) == 20  # untrained: SOM
    assert c.morph.kind is MorphKind.BIOMORPH and c.morph.wt(P) == 6 and c.morph.dr(P) == 45
    assert c.armour("kinetic") == 6 and c.armour("energy") == 6 and c.armour("psi") == 0
    assert loaded.health.damage == 0 and loaded.mind.stress == 0
    pistol, knife = loaded.weapons
    assert pistol.weapon.modes == {FiringMode.SS, FiringMode.SA} and pistol.weapon.ap == 2
    assert pistol.weapon.ranges == (10, 30, 50, 100)
    assert pistol.weapon.damage_type is DamageType.KINETIC
    assert (pistol.magazine.capacity, pistol.magazine.loaded, pistol.magazine.spares) == (12, 12, 2)
    assert knife.weapon.melee and knife.magazine.capacity == 0


def test_a_synthmorph_and_a_pod_die_as_the_seed_says(ep):
    sheets = loaded_sheets([ep.brick.pk, ep.guard.pk])
    brick, guard = rules_of(sheets[ep.brick.pk]), rules_of(sheets[ep.guard.pk])
    assert brick.character.morph.dr(P) == 80 and brick.character.morph.spd(P) == 2
    assert brick.character.armour("energy") == 6  # built in, nothing worn
    assert guard.character.morph.dr(P) == 45 and guard.character.morph.ambidextrous


@pytest.mark.parametrize("count", [1, 3])
def test_loading_sheets_takes_three_queries_whatever_their_number(ep, count,
                                                                  django_assert_num_queries):
    ids = [ep.ash.pk, ep.brick.pk, ep.guard.pk][:count]
    with django_assert_num_queries(3):
        loaded = [rules_of(s) for s in loaded_sheets(ids).values()]
    assert len(loaded) == count


def test_the_admin_refuses_a_weapon_the_rules_refuse_and_lists_the_templates(ep, client):
    from tests import factories
    client.force_login(factories.user("root", is_staff=True, is_superuser=True))
    data = {"campaign": ep.campaign.pk, "name": "Broken", "skill": "kinetic_weapons",
            "dv": "2x10", "ap": 0, "damage_type": "kinetic", "mode_ss": "on", "magazine": 1,
            "range_short": 1, "range_medium": 2, "range_long": 3, "range_extreme": 4,
            "blast_radius_m": 0}
    response = client.post("/admin/eclipse/weapontemplate/add/", data)
    assert response.status_code == 200 and response.context["adminform"].form.errors
    assert not WeaponTemplate.objects.filter(name="Broken").exists()
    response = client.post("/admin/eclipse/weapontemplate/add/", {**data, "dv": "2d10"})
    assert response.status_code == 302
    for url in ("/admin/eclipse/morphtemplate/", "/admin/eclipse/eclipsesheet/",
                f"/admin/eclipse/eclipsesheet/{ep.ash.pk}/change/"):
        assert client.get(url).status_code == 200, url

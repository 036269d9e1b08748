"""Every character has its sheet: the defaults of each kind, sheet_ensure, and migration 0005
that gives one to the characters an older admin saved without (issue 8, item 1)."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from campaigns.models import Campaign
from characters.models import Character
from ew1.models import EternalWarSheet
from ew1.sheets import sheet_defaults, sheet_ensure
from tests.services.conftest import NOW


def test_the_defaults_of_each_kind(campaign):
    params = campaign.parameters
    player = sheet_defaults(kind="player", params=params)
    assert {k: player[k] for k in ("FOR", "DEF", "TAI", "INT", "DEX", "LUK")} == {
        "FOR": 10, "DEF": 10, "TAI": 13, "INT": 13, "DEX": 10, "LUK": 10}
    # Seed 000, "Compétences de base": Magie DEX+INT, Esquive DEF, Jeu INT+DEX+LUK.
    assert player["skills"] == {"brawl": 90, "melee": 35, "ranged": 25, "magic": 23,
                                "dodge": 10, "throw": 25, "game": 33}
    assert (player["pa"], player["pv"], player["fixed_reduction"]) == (12, 100, None)
    creature = sheet_defaults(kind="creature", params=params)
    assert creature["LUK"] is None and creature["skills"]["game"] == 20
    assert creature["fixed_reduction"] == 0
    door = sheet_defaults(kind="door", params=params)
    assert set(door["skills"].values()) == {0} and door["FOR"] == 0
    # Level and campaign parameters set the caps: 12 + 20 // 10 PA, 50 + 3 x 20 PV.
    custom = Campaign(rule_parameters={"pv_base": 50, "pv_per_level": 3})
    high = sheet_defaults(kind="creature", params=custom.parameters, level=20)
    assert (high["pa_max"], high["pv_max"]) == (14, 110)


def test_sheet_ensure_makes_one_sheet_once(campaign):
    door = Character.objects.create(campaign=campaign, kind="door", name="Door")
    sheet = sheet_ensure(character=door, now=NOW)
    assert (sheet.pv, sheet.pa_anchor, sheet.pv_anchor) == (100, int(NOW.timestamp()),
                                                            int(NOW.timestamp()))
    assert sheet_ensure(character=door).pk == sheet.pk
    assert EternalWarSheet.objects.filter(character=door).count() == 1


@pytest.mark.django_db(transaction=True)
def test_migration_0005_gives_a_sheet_to_each_character_without_one():
    before = [("characters", "0004_suicided_at")]
    executor = MigrationExecutor(connection)
    leaves = executor.loader.graph.leaf_nodes()
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    campaign = old.get_model("campaigns", "Campaign").objects.create(
        name="Old", rule_parameters={"pv_base": 40})
    characters = old.get_model("characters", "Character").objects
    door = characters.create(campaign=campaign, kind="door", name="Door")
    kept = characters.create(campaign=campaign, kind="creature", name="Wolf")
    old.get_model("characters", "EternalWarSheet").objects.create(
        character=kept, FOR=1, DEF=1, TAI=1, INT=1, DEX=1, skills={"brawl": 5}, pv=7)

    MigrationExecutor(connection).migrate(leaves)

    sheets = {s.character.name: s for s in EternalWarSheet.objects.select_related("character")}
    assert (sheets["Door"].pv, sheets["Door"].LUK, sheets["Door"].skills["brawl"]) == (40, None, 0)
    assert (sheets["Wolf"].pv, sheets["Wolf"].skills) == (7, {"brawl": 5})  # left as it was
    assert door.pk == sheets["Door"].pk

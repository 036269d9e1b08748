"""An existing database migrates through the move of Eternal War One II's models from
``characters`` to ``ew1`` (ew1 0001, characters 0008, ew1 0002) without losing a row: the
tables keep their names, the foreign keys their targets, and the content types (with the
permissions users and groups hold on them) follow the models. Runs on SQLite and, with
DATABASE_URL set, on PostgreSQL."""

from datetime import date
from decimal import Decimal

import pytest
from django.contrib.auth.models import Group, Permission
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from characters.models import Character
from ew1.models import CharacterDraft, EternalWarSheet, ItemInstance, ItemModifier, ItemTemplate

# Before the move: characters' last migration, and no ew1 migration applied.
BEFORE = [("characters", "0007_sheet_fillfactor"), ("ew1", None)]
BEFORE_STATE = [("characters", "0007_sheet_fillfactor"), ("campaigns", "0002_initial"),
                ("auth", "0012_alter_user_first_name_max_length"),
                ("contenttypes", "0002_remove_content_type_name")]
MODELS = ("eternalwarsheet", "itemtemplate", "itemmodifier", "iteminstance", "characterdraft")
SHEET = dict(FOR=11, DEF=9, TAI=14, INT=12, DEX=8, LUK=15, level=3, xp=450,
             skills={"brawl": 42, "dodge": 37}, pa=Decimal("7.5"), pa_max=Decimal("12.0"),
             pa_anchor=1_700_000_000, pa_spent_today=Decimal("4.5"), pa_spent_day=date(2026, 11, 30),
             pv=63, pv_max=106, pv_anchor=1_700_000_360, skill_points=2, characteristic_points=1,
             skills_raised={"brawl": 3}, fixed_reduction=None)


def _rows(model, **filters):
    return list(model.objects.filter(**filters).order_by("pk").values())


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    ContentType.objects.clear_cache()
    return executor


@pytest.fixture
def before_the_move():
    """The database as it was before the move (back at the end: the leaves again)."""
    leaves = MigrationExecutor(connection).loader.graph.leaf_nodes()
    executor = _migrate(BEFORE)
    yield executor.loader.project_state(BEFORE_STATE).apps
    _migrate(leaves)


@pytest.mark.django_db(transaction=True)
def test_the_move_keeps_every_row_and_foreign_key(before_the_move):
    old = before_the_move
    user = old.get_model("auth", "User").objects.create(username="ada")
    campaign = old.get_model("campaigns", "Campaign").objects.create(name="Old")
    character = old.get_model("characters", "Character").objects.create(
        campaign=campaign, owner=user, name="Aldric")
    old.get_model("characters", "EternalWarSheet").objects.create(character=character, **SHEET)
    template = old.get_model("characters", "ItemTemplate").objects.create(
        campaign=campaign, name="Two-handed sword", kind="melee", category="legendary",
        damage_dice="2d6+1", weapon_skill=5, range_cells=1, armour=0)
    modifier = old.get_model("characters", "ItemModifier").objects.create(
        item=template, stat="FOR", dice="+1d3")
    item = old.get_model("characters", "ItemInstance").objects.create(
        template=template, owner=character, equipped=True, modifier_values={"FOR": 2})
    draft = old.get_model("characters", "CharacterDraft").objects.create(
        user=user, campaign=campaign, name="Bryn", rolled={"FOR": 12}, deltas={"FOR": -1},
        rolls={"FOR": {"expression": "3d6", "faces": [4, 4, 4], "total": 12}}, rerolls=2,
        band={"k": 1, "low": 9.5, "high": 12.5})
    before = {name: _rows(old.get_model("characters", name)) for name in (
        "EternalWarSheet", "ItemTemplate", "ItemModifier", "ItemInstance", "CharacterDraft")}
    assert all(len(rows) == 1 for rows in before.values())

    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

    after = {model.__name__: _rows(model) for model in (
        EternalWarSheet, ItemTemplate, ItemModifier, ItemInstance, CharacterDraft)}
    assert after == before
    aldric = Character.objects.get(pk=character.pk)
    assert aldric.ew1.level == 3 and aldric.ew1.pa == Decimal("7.5")  # character.ew1
    assert [i.pk for i in aldric.items.all()] == [item.pk]  # character.items
    sword = ItemTemplate.objects.get(pk=template.pk)
    assert [m.pk for m in sword.modifiers.all()] == [modifier.pk]
    assert ItemInstance.objects.get(pk=item.pk).template == sword
    assert CharacterDraft.objects.get(pk=draft.pk).user.username == "ada"
    # The tables' own sequences carry on after the rows kept.
    assert ItemTemplate.objects.create(name="Dagger", kind="melee", damage_dice="1d4").pk > sword.pk


@pytest.mark.django_db(transaction=True)
def test_the_content_types_and_their_permissions_follow_the_models(before_the_move):
    old = before_the_move
    old_types = old.get_model("contenttypes", "ContentType").objects
    old_types.filter(app_label="ew1").delete()  # as in a database made before the move
    item_type = old_types.get_or_create(app_label="characters", model="itemtemplate")[0]
    for model in MODELS:
        old_types.get_or_create(app_label="characters", model=model)
    permission = old.get_model("auth", "Permission").objects.get_or_create(
        content_type=item_type, codename="change_itemtemplate",
        defaults={"name": "Can change item template"})[0]
    group = old.get_model("auth", "Group").objects.create(name="Game masters")
    group.permissions.add(permission)

    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

    moved = ContentType.objects.filter(model__in=MODELS)
    assert sorted(moved.values_list("app_label", "model")) == sorted(("ew1", m) for m in MODELS)
    assert ContentType.objects.get_for_model(ItemTemplate).pk == item_type.pk  # the same row
    assert list(Group.objects.get(name="Game masters").permissions.all()) == [
        Permission.objects.get(content_type__app_label="ew1", codename="change_itemtemplate")]
    assert Permission.objects.get(pk=permission.pk).content_type.app_label == "ew1"


@pytest.mark.django_db(transaction=True)
def test_the_move_goes_back_too(before_the_move):
    """Backwards, the models return to characters' state and content types, rows intact."""
    old = before_the_move
    campaign = old.get_model("campaigns", "Campaign").objects.create(name="Old")
    character = old.get_model("characters", "Character").objects.create(
        campaign=campaign, name="Aldric")
    old.get_model("characters", "EternalWarSheet").objects.create(character=character, **SHEET)
    old.get_model("contenttypes", "ContentType").objects.get_or_create(
        app_label="characters", model="eternalwarsheet")
    leaves = MigrationExecutor(connection).loader.graph.leaf_nodes()
    _migrate(leaves)
    assert EternalWarSheet.objects.get(pk=character.pk).xp == 450

    executor = _migrate(BEFORE)

    back = executor.loader.project_state(BEFORE_STATE).apps
    assert back.get_model("characters", "EternalWarSheet").objects.get(pk=character.pk).xp == 450
    assert back.get_model("contenttypes", "ContentType").objects.filter(
        app_label="characters", model="eternalwarsheet").exists()
    assert not back.get_model("contenttypes", "ContentType").objects.filter(
        app_label="ew1", model="eternalwarsheet").exists()

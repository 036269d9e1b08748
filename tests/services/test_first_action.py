"""A level 0 character is protected "jusqu'à sa première action": every action that spends PA
ends the protection, a potion included (issue 8, item 6).

docs/rules/eternal-war-one-ii.md, "Levels" and "Level 0 protection".
"""

import random

import pytest

from characters.models import Character
from combat.services import action_attack, action_game, action_move
from ew1.equipment import item_grant, item_use
from ew1.models import EternalWarSheet, ItemTemplate
from ew1.services import piece_create
from magic.casting import spell_cast
from magic.models import KnownSpell, Spell
from magic.spellbook import spell_grant
from tests import factories
from tests.services.conftest import NOW


def _move(alice, newborn):
    action_move(user=alice, character_id=newborn.pk, dx=1, dy=0, now=NOW)


def _attack(alice, newborn):
    door = piece_create(campaign=newborn.campaign, kind="door", name="Door", x=4, y=5, pv=20,
                        fixed_reduction=1, now=NOW)
    action_attack(user=alice, character_id=newborn.pk, target_id=door.pk, kind="brawl",
                  rng=random.Random(1), now=NOW)


def _game(alice, newborn):
    action_game(user=alice, character_id=newborn.pk, rng=random.Random(1), now=NOW)


def _cast(alice, newborn):
    heal = Spell.objects.create(name="Soin", tier="base", effect="heal", dice="1d6+1",
                                range_cells=0)
    spell_grant(character=newborn, spell=heal, source=KnownSpell.Source.GRANTED, now=NOW)
    spell_cast(user=alice, character_id=newborn.pk, spell_id=heal.pk, x=5, y=5,
               rng=random.Random(1), now=NOW)


def _potion(alice, newborn):
    potion = ItemTemplate.objects.create(name="Potion", kind="misc", heal_dice="1d6+1")
    item = item_grant(character=newborn, template=potion, rng=random.Random(1), now=NOW)
    EternalWarSheet.objects.filter(pk=newborn.pk).update(pv=50)
    item_use(user=alice, character_id=newborn.pk, item_id=item.pk, rng=random.Random(1), now=NOW)


@pytest.mark.parametrize("act", [_move, _attack, _game, _cast, _potion],
                         ids=["move", "attack", "game", "cast", "potion"])
def test_every_action_that_spends_pa_ends_level_0_protection(alice, campaign, act):
    newborn = factories.character(owner=alice, campaign=campaign, name="Newborn", at=(5, 5),
                                  acted=False, now=NOW)
    assert newborn.ew1.is_protected and newborn.ew1.level == 0

    act(alice, newborn)

    after = Character.objects.select_related("ew1").get(pk=newborn.pk)
    assert after.ew1.pa < newborn.ew1.pa  # the action spent PA...
    assert (after.first_action_at, after.ew1.is_protected) == (NOW, False)  # ...and was the first


def test_a_potion_after_the_first_action_keeps_the_first_action_time(alice, campaign):
    hero = factories.character(owner=alice, campaign=campaign, name="Hero", at=(5, 5),
                               now=NOW.replace(hour=1))
    _potion(alice, hero)
    assert Character.objects.get(pk=hero.pk).first_action_at == NOW.replace(hour=1)


@pytest.mark.django_db
@pytest.mark.parametrize("protected, queries", [(False, 8), (True, 9)])
def test_potion_query_count(alice, campaign, django_assert_num_queries, protected, queries):
    """savepoint, item locked, sheet locked, sheet saved, (the first action written), action,
    rolls, item deleted, savepoint released: one more query only for the first action."""
    hero = factories.character(owner=alice, campaign=campaign, name="Hero", at=(5, 5),
                               acted=not protected, now=NOW)
    potion = ItemTemplate.objects.create(name="Potion", kind="misc", heal_dice="1d6+1")
    item = item_grant(character=hero, template=potion, rng=random.Random(1), now=NOW)
    with django_assert_num_queries(queries):
        item_use(user=alice, character_id=hero.pk, item_id=item.pk, rng=random.Random(1),
                 now=NOW)

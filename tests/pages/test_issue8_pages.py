"""Pages of issue 8 (items 10-14, 17, 18): the damage breakdown, what the board refuses before a
click, the level-up page, the sheet of a dead character, faction notices, and the small things
(plurals, the creation list, the draft URL, the leaderboard, password reset, favicon)."""

import random
import re

import pytest
from django.urls import reverse

from campaigns.models import ActionRecord
from characters.equipment import item_equip, item_grant
from characters.models import Character, EternalWarSheet, ItemTemplate
from combat.services import action_brawl
from tests import factories
from tests.pages.conftest import HTMX
from tests.services.conftest import FakeRandom

Kind = ItemTemplate.Kind


def url(name, *args):
    return reverse(name, args=args)


def html_of(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


@pytest.fixture
def hero(alice, campaign):
    return factories.character(owner=alice, campaign=campaign, name="Hero", at=(5, 5))


@pytest.fixture
def foe(bob, campaign):
    return factories.character(owner=bob, campaign=campaign, name="Foe", at=(6, 5))


# Item 11: the damage breakdown -----------------------------------------------------------------

def test_the_log_shows_every_term_of_the_damage_reduction(alice, alice_client, hero, foe):
    plate = ItemTemplate.objects.create(name="Plates", kind=Kind.ARMOUR, armour=2)
    item = item_grant(character=foe, template=plate, rng=FakeRandom())
    item_equip(user=foe.owner, character_id=foe.pk, item_id=item.pk)
    for seed in range(200):  # the first seeded brawl that hits and is not dodged
        action_brawl(user=alice, character_id=hero.pk, target_id=foe.pk,
                     rng=random.Random(seed))
        summary = ActionRecord.objects.latest("id").summary
        if summary["hit"] and not summary["dodged"]:
            break
    terms = summary["reduction_terms"]
    assert terms["armour"] == 2 and terms["base"] == 1
    assert sum(terms.values()) == summary["reduction"]
    html = html_of(alice_client.get(url("combat:board", hero.pk)))
    shown = re.search(r'data-testid="reduction">([^<]*)<', html).group(1)
    assert shown == (f"{summary['reduction']} (base 1 + DEF rolls won {terms['rolls_won']}"
                     f" + armour 2 + shield 0)")
    assert f"damage {summary['damage']} − reduction" in html

import random

from combat.services import action_brawl, action_move
from tests import factories


def test_move_and_brawl(campaign, alice, bob):
    a = factories.character(owner=alice, campaign=campaign, name="A", at=(2, 2))
    b = factories.character(owner=bob, campaign=campaign, name="B", at=(4, 2))
    action_move(user=alice, character_id=a.pk, dx=1, dy=0)
    result = action_brawl(user=alice, character_id=a.pk, target_id=b.pk, rng=random.Random(3))
    assert result.action.rolls.count() >= 1

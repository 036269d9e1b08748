import random

import pytest

from campaigns.errors import (
    BoardFull,
    CampaignClosed,
    InvalidInput,
    RuleSystemNotPlayable,
)
from campaigns.models import ActionRecord, RuleSystem
from characters.models import Character
from characters.services import character_create
from ew1.models import EternalWarSheet
from ew1.regeneration import unix
from gamerules.ew1.skills import base_skills
from tests import factories
from tests.services.conftest import NOW, snapshot

CREATION = {"FOR": "3d6", "DEF": "3d6", "TAI": "2d6+6", "INT": "2d6+6", "DEX": "3d6", "LUK": "3d6"}


def test_a_new_character_starts_at_level_0_with_full_pa_and_pv(campaign, alice):
    c = character_create(user=alice, campaign=campaign, name="Aria", rng=random.Random(5), now=NOW)

    sheet = EternalWarSheet.objects.get(pk=c.pk)
    assert (sheet.level, sheet.xp) == (0, 0)
    assert (sheet.pa, sheet.pa_max, sheet.pv, sheet.pv_max) == (12, 12, 100, 100)
    assert sheet.pa_anchor == sheet.pv_anchor == unix(NOW)
    assert c.owner == alice and c.campaign == campaign and c.first_action_at is None


def test_skills_start_at_their_bases_from_the_characteristics(campaign, alice):
    c = character_create(user=alice, campaign=campaign, name="Aria", rng=random.Random(5), now=NOW)

    sheet = EternalWarSheet.objects.get(pk=c.pk)
    ch = sheet.characteristics
    assert sheet.skills == base_skills(ch)
    assert sheet.skills == {
        "brawl": 90, "melee": 35, "ranged": 25, "throw": 25, "dodge": ch["DEF"],
        "magic": min(95, ch["DEX"] + ch["INT"]),
        "game": min(95, ch["INT"] + ch["DEX"] + ch["LUK"]),
    }


def test_the_character_is_placed_on_a_free_cell_inside_the_board(campaign, alice, bob):
    first = factories.character(owner=bob, campaign=campaign, name="B", at=(0, 0))
    for seed in range(8):
        c = character_create(user=alice, campaign=campaign, name=f"A{seed}",
                             rng=random.Random(seed), now=NOW)
        c.refresh_from_db()
        assert c.board_id == campaign.board.pk
        assert campaign.board.contains(c.x, c.y)
    cells = list(Character.objects.values_list("x", "y"))
    assert len(set(cells)) == len(cells) == 9
    assert (first.x, first.y) == (0, 0)


def test_the_last_free_cell_is_found(alice):
    small = factories.campaign(name="Tiny", width=2, height=2)
    for i, cell in enumerate([(0, 0), (1, 0), (0, 1)]):
        factories.character(owner=alice, campaign=small, name=f"P{i}", at=cell)

    c = character_create(user=alice, campaign=small, name="Last", rng=random.Random(1), now=NOW)

    c.refresh_from_db()
    assert (c.x, c.y) == (1, 1)


def test_the_six_creation_rolls_are_journaled_with_expressions_and_faces(campaign, alice):
    c = character_create(user=alice, campaign=campaign, name="Aria", rng=random.Random(5), now=NOW)

    action = ActionRecord.objects.get(actor=c)
    assert (action.kind, action.user, action.campaign, action.created_at) == (
        "create", alice, campaign, NOW)
    rolls = list(action.rolls.all())
    assert [r.label for r in rolls] == list(CREATION)
    sheet = EternalWarSheet.objects.get(pk=c.pk)
    for r in rolls:
        assert r.expression == CREATION[r.label]
        assert r.actor_id == c.pk
        dice = 3 if r.expression == "3d6" else 2
        assert len(r.faces) == dice and all(1 <= f <= 6 for f in r.faces)
        bonus = 6 if r.expression == "2d6+6" else 0
        assert r.total == sum(r.faces) + bonus == getattr(sheet, r.label)
    assert action.summary == {"characteristics": sheet.characteristics}


def test_the_same_seed_rolls_the_same_characteristics(alice):
    one, two = factories.campaign(name="One"), factories.campaign(name="Two")
    a = character_create(user=alice, campaign=one, name="A", rng=random.Random(42), now=NOW)
    b = character_create(user=alice, campaign=two, name="A", rng=random.Random(42), now=NOW)
    assert a.ew1.characteristics == b.ew1.characteristics


@pytest.mark.parametrize("name", ["", "   ", "x" * 61, None])
def test_a_bad_name_is_refused_and_nothing_is_created(campaign, alice, name):
    before = snapshot()
    with pytest.raises(InvalidInput) as exc:
        character_create(user=alice, campaign=campaign, name=name, rng=random.Random(1), now=NOW)
    assert exc.value.code == "invalid_input"
    assert snapshot() == before


@pytest.mark.parametrize("name", ["Aria", "aria", "  ARIA "])
def test_a_duplicate_name_in_the_campaign_is_refused(campaign, alice, bob, name):
    factories.character(owner=bob, campaign=campaign, name="Aria")
    before = snapshot()
    with pytest.raises(InvalidInput):
        character_create(user=alice, campaign=campaign, name=name, rng=random.Random(1), now=NOW)
    assert snapshot() == before


def test_the_same_name_in_another_campaign_is_fine(campaign, alice, bob):
    factories.character(owner=bob, campaign=campaign, name="Aria")
    other = factories.campaign(name="Other")
    c = character_create(user=alice, campaign=other, name="Aria", rng=random.Random(1), now=NOW)
    assert c.campaign == other


def test_a_closed_campaign_takes_no_character(campaign, alice):
    campaign.is_open = False
    campaign.save()
    before = snapshot()
    with pytest.raises(CampaignClosed) as exc:
        character_create(user=alice, campaign=campaign, name="Aria", rng=random.Random(1), now=NOW)
    assert exc.value.code == "campaign_closed"
    assert snapshot() == before


@pytest.mark.parametrize("system", [RuleSystem.ECLIPSE_PHASE, RuleSystem.HOMEBREW])
def test_other_rule_systems_are_not_playable_yet(alice, system):
    other = factories.campaign(name="Not EW1", rule_system=system)
    before = snapshot()
    with pytest.raises(RuleSystemNotPlayable) as exc:
        character_create(user=alice, campaign=other, name="Aria", rng=random.Random(1), now=NOW)
    assert exc.value.code == "rule_system_not_playable"
    assert snapshot() == before


def test_a_full_board_refuses_the_character_and_nothing_is_created(alice):
    full = factories.campaign(name="Full", width=2, height=1)
    factories.character(owner=alice, campaign=full, name="P0", at=(0, 0))
    factories.character(owner=alice, campaign=full, name="P1", at=(1, 0))
    before = snapshot()

    with pytest.raises(BoardFull) as exc:
        character_create(user=alice, campaign=full, name="Late", rng=random.Random(1), now=NOW)

    assert exc.value.code == "board_full"
    assert snapshot() == before
    assert not Character.objects.filter(name="Late").exists()

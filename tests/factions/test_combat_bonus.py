"""The faction bonus in a real attack (``combat.services.action_attack``, dice scripted): the
defender's dodge bonus from its allies in view, the attacker's attack bonus, who counts as an
ally, and what the journal says.

Numbers (as in tests/services/test_action_brawl.py): brawl 90 so the attack score is 90; the
defender's dodge score is Esquive 10 + LUK 10 // 5 = 12, plus the faction bonus. Defaults:
view radius 5, faction factors 2, so bonus = floor(2 log2(allies)).
"""

from __future__ import annotations

import pytest

from campaigns.models import RollRecord
from combat.services import action_attack
from factions import services
from tests import factories
from tests.gamerules.fakes import FakeRandom
from tests.services.conftest import NOW

SKILLS = {"brawl": 90, "melee": 35, "ranged": 25, "magic": 20, "dodge": 10, "throw": 25,
          "game": 30}
SHEET = {"FOR": 10, "TAI": 10, "DEF": 10, "LUK": 10, "skills": SKILLS}
HIT, DODGED = 50, 1
DODGE_SCORE, ATTACK_SCORE = 12, 90


@pytest.fixture
def arena(db, alice, bob):
    campaign = factories.campaign(name="Arena", width=20, height=20)
    attacker = factories.character(owner=alice, campaign=campaign, name="Attacker", at=(5, 5),
                                   now=NOW, **SHEET)
    defender = factories.character(owner=bob, campaign=campaign, name="Defender", at=(6, 5),
                                   now=NOW, **SHEET)
    return campaign, attacker, defender


def faction_of(leader, name):
    return services.faction_create(user=leader.owner, character_id=leader.pk, name=name)


def ally(campaign, faction, name, at):
    """A character of another player, standing at ``at``, member of ``faction``."""
    c = factories.character(owner=factories.user(name.lower()), campaign=campaign, name=name,
                            at=at, now=NOW, **SHEET)
    services.faction_join(user=c.owner, character_id=c.pk, faction_id=faction.pk)
    return c


def attack(attacker, defender, *faces):
    rng = FakeRandom(*faces)
    result = action_attack(user=attacker.owner, character_id=attacker.pk,
                           target_id=defender.pk, rng=rng, now=NOW)
    assert rng.exhausted
    return result


def roll(result, label) -> RollRecord:
    return result.action.rolls.get(label=label)


# Cells within 5 (Chebyshev) of the defender at (6, 5), away from the attacker's other pieces.
NEAR = [(9, 5), (9, 6), (10, 8), (11, 10)]


@pytest.mark.parametrize("allies,bonus", [(0, 0), (1, 0), (2, 2), (3, 3), (4, 4)])
def test_dodge_bonus_by_allies_in_view(arena, allies, bonus):
    campaign, attacker, defender = arena
    shield = faction_of(defender, "Shield")
    for i in range(allies):
        ally(campaign, shield, f"Ally{i}", NEAR[i])

    result = attack(attacker, defender, HIT, DODGED)

    dodge = roll(result, "dodge")
    assert dodge.target_score == DODGE_SCORE + bonus
    assert result.outcome.dodge_score == DODGE_SCORE + bonus
    faction_mods = [m for m in dodge.modifiers if m["source"].startswith("faction")]
    label = f"faction ({allies} allies)"
    assert faction_mods == ([{"label": label, "value": bonus, "source": label}]
                            if bonus else [])
    assert result.action.summary["faction_dodge_bonus"] == bonus
    assert result.action.summary["faction_attack_bonus"] == 0


def test_an_ally_just_outside_the_view_radius_does_not_count(arena):
    campaign, attacker, defender = arena
    shield = faction_of(defender, "Shield")
    ally(campaign, shield, "Edge", (11, 5))  # 5 cells: in view
    ally(campaign, shield, "Near", (9, 6))
    ally(campaign, shield, "Far", (12, 9))  # 6 cells: out of view

    result = attack(attacker, defender, HIT, DODGED)

    # 2 allies (bonus 2), not 3 (bonus 3).
    assert roll(result, "dodge").target_score == DODGE_SCORE + 2
    assert ({"label": "faction (2 allies)", "value": 2, "source": "faction (2 allies)"}
            in roll(result, "dodge").modifiers)


def test_an_ally_from_another_faction_does_not_count(arena):
    campaign, attacker, defender = arena
    shield = faction_of(defender, "Shield")
    ally(campaign, shield, "Friend1", (9, 5))
    ally(campaign, shield, "Friend2", (9, 6))
    stranger_leader = factories.character(owner=factories.user("sol"), campaign=campaign,
                                          name="Sol", at=(8, 8), now=NOW, **SHEET)
    faction_of(stranger_leader, "Others")  # 3 cells away, another faction

    result = attack(attacker, defender, HIT, DODGED)

    assert roll(result, "dodge").target_score == DODGE_SCORE + 2
    assert result.action.summary["faction_dodge_bonus"] == 2


def test_the_defender_itself_is_not_its_own_ally(arena):
    _campaign, attacker, defender = arena
    faction_of(defender, "Shield")
    result = attack(attacker, defender, HIT, DODGED)
    assert roll(result, "dodge").target_score == DODGE_SCORE


def test_attack_bonus_applies_to_the_attack_score(arena):
    campaign, attacker, defender = arena
    blades = faction_of(attacker, "Blades")
    ally(campaign, blades, "Sword1", (2, 5))
    ally(campaign, blades, "Sword2", (3, 8))

    result = attack(attacker, defender, HIT, DODGED)

    attack_roll = roll(result, "attack")
    assert attack_roll.target_score == result.outcome.attack_score == ATTACK_SCORE + 2
    assert ({"label": "faction (2 allies)", "value": 2, "source": "faction (2 allies)"}
            in attack_roll.modifiers)
    assert result.action.summary["faction_attack_bonus"] == 2
    assert result.action.summary["faction_dodge_bonus"] == 0


def test_the_attack_bonus_decides_a_borderline_roll(arena):
    """A roll of 92 misses at 90 and hits at 92: the +2 is really added to the test."""
    campaign, attacker, defender = arena
    result = attack(attacker, defender, 92)
    assert result.outcome.hit is False

    blades = faction_of(attacker, "Blades")
    ally(campaign, blades, "Sword1", (2, 5))
    ally(campaign, blades, "Sword2", (3, 8))
    result = attack(attacker, defender, 92, DODGED)
    assert result.outcome.hit is True


def test_the_attack_factor_is_a_campaign_parameter(arena):
    campaign, attacker, defender = arena
    campaign.rule_parameters = {"faction_attack_factor": 5, "faction_dodge_factor": 3}
    campaign.save(update_fields=["rule_parameters"])
    blades = faction_of(attacker, "Blades")
    ally(campaign, blades, "Sword1", (2, 5))
    ally(campaign, blades, "Sword2", (3, 8))
    shield = faction_of(defender, "Shield")
    ally(campaign, shield, "Friend1", (9, 5))
    ally(campaign, shield, "Friend2", (9, 6))

    result = attack(attacker, defender, HIT, DODGED)

    assert roll(result, "attack").target_score == ATTACK_SCORE + 5
    assert roll(result, "dodge").target_score == DODGE_SCORE + 3
    assert (result.action.summary["faction_attack_bonus"],
            result.action.summary["faction_dodge_bonus"]) == (5, 3)


def test_both_bonuses_show_in_the_journal_page(arena, client):
    campaign, attacker, defender = arena
    blades = faction_of(attacker, "Blades")
    ally(campaign, blades, "Sword1", (2, 5))
    ally(campaign, blades, "Sword2", (3, 8))
    shield = faction_of(defender, "Shield")
    ally(campaign, shield, "Friend1", (9, 5))
    ally(campaign, shield, "Friend2", (9, 6))
    attack(attacker, defender, HIT, DODGED)

    client.force_login(attacker.owner)
    html = client.get(f"/characters/{attacker.pk}/").content.decode()
    assert "faction attack bonus +2" in html and "faction dodge bonus +2" in html
    assert "faction (2 allies)" in html

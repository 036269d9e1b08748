"""One table of who may do what (issue 20, item 4): the campaign's game master, a co-game
master (issue 22: added by the GM, campaigns.services.campaign_master_add), an overseer
(staff), a character's player, another player of the campaign and a stranger, against a
player's character and a GM's creature, in each of the three systems. The predicates
(characters/rules.py: view_sheet, act, play, manage) are asked directly, then through one
action of each system that reads each of them, and through the encounter's ``controls``: the
same matrix must come out everywhere."""

from __future__ import annotations

import random

import pytest

from campaigns.errors import Forbidden, NotFound
from campaigns.models import Campaign, RuleSystem
from campaigns.permissions import allowed
from campaigns.services import campaign_master_add
from characters.models import Character
from eclipse import services as eclipse_services
from encounters import services as enc
from gamerules.errors import RuleError
from ew1.progression import level_up_spend
from homebrew import services as homebrew_services
from tests import factories
from tests.eclipse_play.conftest import build_world as eclipse_world
from tests.homebrew.conftest import build_world as homebrew_world

pytestmark = pytest.mark.django_db

ROLES = ("gm", "co_gm", "staff", "owner", "player", "stranger")
# perm -> subject -> the roles it lets through
MATRIX = {
    "view_sheet": {"pc": {"gm", "co_gm", "staff", "owner"}, "npc": {"gm", "co_gm", "staff"}},
    "act": {"pc": {"owner"}, "npc": set()},
    "play": {"pc": {"owner"}, "npc": {"gm", "co_gm", "staff"}},
    "manage": {"pc": {"gm", "co_gm", "staff", "owner"}, "npc": {"gm", "co_gm", "staff"}},
}


def expected(perm: str, subject: str, role: str) -> str:
    if role in MATRIX[perm][subject]:
        return "allowed"
    return "forbidden" if role in MATRIX["view_sheet"][subject] else "not_found"


def _users(gm, alice, bob, subjects: dict) -> tuple[dict, dict]:
    """The users by role, the co-GM added by the GM; the subjects read again (their campaign
    with its co-GMs' ids, as a request reads it)."""
    co_gm = factories.user("cogm")
    campaign_master_add(user=gm, campaign_id=subjects["pc"].campaign_id, username="cogm")
    for subject in subjects.values():
        subject.refresh_from_db()
    return {"gm": gm, "co_gm": co_gm, "staff": factories.user("staffer", is_staff=True),
            "owner": alice, "player": bob, "stranger": factories.user("stranger")}, subjects


def world(system: str, alice, bob):
    """(users by role, {"pc": alice's character, "npc": the GM's creature})."""
    if system == RuleSystem.HOMEBREW:
        hb = homebrew_world(alice, bob)
        return _users(hb.gm, alice, bob, {"pc": hb.aria, "npc": hb.goblin})
    if system == RuleSystem.ECLIPSE_PHASE:
        ep = eclipse_world(alice, bob)
        return _users(ep.gm, alice, bob, {"pc": ep.ava, "npc": ep.guard})
    gm = factories.user("gm")
    campaign = factories.campaign()
    Campaign.objects.filter(pk=campaign.pk).update(game_master=gm)
    campaign.refresh_from_db()
    pc = factories.character(owner=alice, campaign=campaign, name="Aldric")
    factories.character(owner=bob, campaign=campaign, name="Brenna", seed=8)
    npc = Character.objects.create(campaign=campaign, name="Wolf", kind=Character.Kind.CREATURE)
    return _users(gm, alice, bob, {"pc": pc, "npc": npc})


def outcome(call, *args) -> str:
    """Whether ``call`` got past the permission check: a refusal of the rules after it (no
    point to spend) counts as let through."""
    try:
        call(*args)
    except NotFound:
        return "not_found"
    except Forbidden:
        return "forbidden"
    except RuleError:
        return "allowed"
    return "allowed"


SYSTEMS = (RuleSystem.ETERNAL_WAR, RuleSystem.HOMEBREW, RuleSystem.ECLIPSE_PHASE)


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_predicates_give_the_matrix_in_every_system(alice, bob, system):
    users, subjects = world(system, alice, bob)
    got = {(perm, subject, role): allowed(users[role], f"characters.{perm}", subjects[subject])
           for perm in MATRIX for subject in subjects for role in ROLES}
    assert got == {(perm, subject, role): role in MATRIX[perm][subject]
                   for perm in MATRIX for subject in subjects for role in ROLES}


@pytest.mark.parametrize("system", (RuleSystem.HOMEBREW, RuleSystem.ECLIPSE_PHASE))
def test_the_encounter_lets_play_whom_the_matrix_says(alice, bob, system):
    users, subjects = world(system, alice, bob)
    gm = users["gm"]
    e = enc.encounter_create(user=gm, campaign_id=subjects["pc"].campaign_id, name="Matrix")
    made = enc.combatants_add(user=gm, encounter_id=e.pk, entries=[
        enc.CombatantEntry(character_id=subjects["pc"].pk),
        enc.CombatantEntry(character_id=subjects["npc"].pk), enc.CombatantEntry(name="Extra")])
    e.refresh_from_db()
    by_subject = {"pc": made[0], "npc": made[1]}
    for subject, combatant in by_subject.items():
        combatant.refresh_from_db()
        for role in ROLES:
            assert enc.controls(users[role], e, combatant) == (
                role in MATRIX["play"][subject]), (subject, role)
    extra = made[2]
    assert [r for r in ROLES if enc.controls(users[r], e, extra)] == ["gm", "co_gm", "staff"]


def _ew1_level_up(user, character):
    level_up_spend(user=user, character_id=character.pk, add_skills={},
                   add_characteristics={})


def _homebrew_posture(user, character):
    homebrew_services.posture_set(user=user, character=character, posture="defensive")


def _homebrew_test(user, character):
    homebrew_services.roll_test(user=user, character=character, code="physique",
                                rng=random.Random(1))


def _eclipse_equip(user, character):
    template = character.campaign.eclipse_weapons.get(name="Knife")
    eclipse_services.weapon_equip(user=user, character=character.pk, template_id=template.pk)


# (system, the perm the action reads, the subjects it applies to, the action)
ACTIONS = {
    "EW1 level-up": (RuleSystem.ETERNAL_WAR, "act", ("pc",), _ew1_level_up),
    "homebrew posture": (RuleSystem.HOMEBREW, "play", ("pc", "npc"), _homebrew_posture),
    "homebrew test": (RuleSystem.HOMEBREW, "manage", ("pc", "npc"), _homebrew_test),
    "Eclipse equip": (RuleSystem.ECLIPSE_PHASE, "manage", ("pc", "npc"), _eclipse_equip),
}


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("name", ACTIONS)
def test_each_systems_actions_follow_the_matrix(alice, bob, name, role):
    system, perm, applies, action = ACTIONS[name]
    users, subjects = world(system, alice, bob)
    for subject in applies:
        character = Character.objects.select_related("campaign").get(pk=subjects[subject].pk)
        assert outcome(action, users[role], character) == \
            expected(perm, subject, role), (subject, role)

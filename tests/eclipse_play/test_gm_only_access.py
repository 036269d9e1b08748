"""The Eclipse Phase encounter's GM-only services check membership before anything else
(issue 17, item 4): a stranger gets the same EncounterNotFound as for an encounter that does
not exist, not even the rule system; a player of the encounter is told it is the GM's; the
GM of another system's encounter is told it is not Eclipse Phase. Nothing is journaled."""

from __future__ import annotations

import pytest

from campaigns.models import ActionRecord, Campaign, RuleSystem
from eclipse import ambush, environment, tacnet
from eclipse.errors import GameMasterOnly, NotEclipse
from eclipse.play_errors import GameMasterOnly as ActionGameMasterOnly
from eclipse.turn_end import encounter_turn_end
from eclipse.zones import encounter_zone_attack
from encounters import services as enc
from encounters.errors import EncounterNotFound
from tests import factories
from tests.eclipse_play.conftest import running

pytestmark = pytest.mark.django_db

NO_SUCH = 10**9

GM_ONLY = {
    "gravity": lambda user, e: environment.encounter_gravity_set(
        user=user, encounter_id=e, gravity_g="2"),
    "ambush": lambda user, e: ambush.encounter_ambush(user=user, encounter_id=e, ambusher_id=1),
    "zone attack": lambda user, e: encounter_zone_attack(
        user=user, encounter_id=e, zone_id=1, target_id=1),
    "turn end": lambda user, e: encounter_turn_end(user=user, encounter_id=e),
    "TACNet mark": lambda user, e: tacnet.tacnet_perceive(
        user=user, encounter_id=e, network_id=1, opponent_id=1),
    "TACNet clear": lambda user, e: tacnet.tacnet_clear(user=user, encounter_id=e, mark_id=1),
}


@pytest.fixture
def homebrew_encounter(db):
    gm = factories.user("hbgm")
    campaign = Campaign.objects.create(name="Homebrew", rule_system=RuleSystem.HOMEBREW,
                                       game_master=gm)
    return gm, enc.encounter_create(user=gm, campaign_id=campaign.pk, name="Brawl")


@pytest.mark.parametrize("action", GM_ONLY.values(), ids=GM_ONLY.keys())
def test_a_stranger_learns_nothing_a_player_is_told_it_is_the_gms(ep, action):
    e, _c = running(ep)
    stranger = factories.user("zed")
    journal = ActionRecord.objects.count()

    with pytest.raises(EncounterNotFound):
        action(stranger, e.pk)
    with pytest.raises(EncounterNotFound):  # the same answer as for no encounter at all
        action(stranger, NO_SUCH)
    with pytest.raises((GameMasterOnly, ActionGameMasterOnly)):
        action(ep.alice, e.pk)
    assert ActionRecord.objects.count() == journal


@pytest.mark.parametrize("action", GM_ONLY.values(), ids=GM_ONLY.keys())
def test_another_systems_encounter_is_not_eclipse_for_its_gm_only(ep, homebrew_encounter,
                                                                   action):
    gm, encounter = homebrew_encounter
    journal = ActionRecord.objects.count()

    with pytest.raises(NotEclipse):
        action(gm, encounter.pk)
    with pytest.raises(EncounterNotFound):  # Eclipse's GM is a stranger there
        action(ep.gm, encounter.pk)
    assert ActionRecord.objects.count() == journal

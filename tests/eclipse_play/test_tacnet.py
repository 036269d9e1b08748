"""TACNet (eclipse.tacnet): joining needs mesh implants, the GM manages and players join with
their own characters when the network is open, the GM's marks of what members perceive, the
panel members alone see (query counts pinned at two squad sizes), indirect fire spotted by a
fellow member who perceives the target, the API, and the pushed version."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from characters.models import Character
from eclipse import tacnet
from eclipse.models import CarriedWeapon, Perceived, Sleeve, SquadMember
from eclipse.play_errors import GameMasterOnly
from encounters.errors import EncounterNotFound
from encounters.models import Encounter
from tests import factories
from tests.eclipse_play.conftest import carry, running, sheet
from tests.eclipse_play.test_play import shoot
from tests.gamerules.fakes import FakeRandom

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def _local_cache(settings):
    from django.core.cache import caches

    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "eclipse-tacnet-tests"}}
    caches["default"].clear()


def squad(ep, *characters, open_to_players=True):
    net = tacnet.tacnet_create(user=ep.gm, campaign_id=ep.campaign.pk, name="Firewall",
                               open_to_players=open_to_players)
    for ch in characters:
        tacnet.tacnet_join(user=ep.gm, network_id=net.pk, character_id=ch.pk)
    return net


def version(e) -> int:
    return Encounter.objects.values_list("version", flat=True).get(pk=e.pk)


# --- membership -----------------------------------------------------------------------------

def test_a_player_joins_with_their_own_character_and_leaves(ep):
    net = squad(ep)
    member = tacnet.tacnet_join(user=ep.alice, network_id=net.pk, character_id=ep.ava.pk)
    assert member.network == net and member.sheet_id == ep.ava.pk
    with pytest.raises(tacnet.AlreadyMember) as again:
        tacnet.tacnet_join(user=ep.alice, network_id=net.pk, character_id=ep.ava.pk)
    assert again.value.params == {"name": "Ava", "network": "Firewall"}
    tacnet.tacnet_leave(user=ep.alice, network_id=net.pk, character_id=ep.ava.pk)
    assert not SquadMember.objects.exists()
    with pytest.raises(tacnet.NotMember):
        tacnet.tacnet_leave(user=ep.alice, network_id=net.pk, character_id=ep.ava.pk)


def test_a_sleeve_without_mesh_implants_is_refused_and_nothing_changes(ep):
    net = squad(ep)
    Sleeve.objects.filter(worn_by__character=ep.ava).update(mesh_implants=False)
    with pytest.raises(tacnet.NoImplants) as refused:
        tacnet.tacnet_join(user=ep.gm, network_id=net.pk, character_id=ep.ava.pk)
    assert refused.value.status == 409
    assert str(refused.value) == "Ava's sleeve has no mesh implants: it cannot join a TACNet."
    assert not SquadMember.objects.exists()


def test_another_players_character_a_closed_network_and_a_stranger_are_refused(ep):
    net = squad(ep)
    with pytest.raises(tacnet.NotYours):
        tacnet.tacnet_join(user=ep.alice, network_id=net.pk, character_id=ep.bo.pk)
    closed = tacnet.tacnet_create(user=ep.gm, campaign_id=ep.campaign.pk, name="Closed",
                                  open_to_players=False)
    with pytest.raises(tacnet.ManagedByGm):
        tacnet.tacnet_join(user=ep.alice, network_id=closed.pk, character_id=ep.ava.pk)
    stranger = factories.user("mallory")
    with pytest.raises(tacnet.NoNetwork) as hidden:
        tacnet.tacnet_join(user=stranger, network_id=net.pk, character_id=ep.ava.pk)
    assert hidden.value.status == 404
    with pytest.raises(GameMasterOnly):
        tacnet.tacnet_create(user=ep.alice, campaign_id=ep.campaign.pk, name="Mine")
    with pytest.raises(tacnet.NameTaken):
        tacnet.tacnet_create(user=ep.gm, campaign_id=ep.campaign.pk, name="Firewall")
    assert not SquadMember.objects.exists()


def test_one_network_at_a_time(ep):
    squad(ep, ep.ava)
    other = tacnet.tacnet_create(user=ep.gm, campaign_id=ep.campaign.pk, name="Other")
    with pytest.raises(tacnet.AlreadyMember):
        tacnet.tacnet_join(user=ep.gm, network_id=other.pk, character_id=ep.ava.pk)


# --- what is perceived ----------------------------------------------------------------------

def test_the_gm_marks_and_clears_and_each_change_bumps_the_version(ep):
    e, c = running(ep)
    before = version(e)
    net = squad(ep, ep.ava, ep.bo)  # two joins while the encounter runs
    assert version(e) == before + 3  # created, then two joins, while the encounter runs
    mark = tacnet.tacnet_perceive(user=ep.gm, encounter_id=e.pk, network_id=net.pk,
                                  opponent_id=c[ep.guard.pk].pk, by_id=c[ep.bo.pk].pk,
                                  note="behind the crates")
    again = tacnet.tacnet_perceive(user=ep.gm, encounter_id=e.pk, network_id=net.pk,
                                   opponent_id=c[ep.guard.pk].pk, by_id=c[ep.bo.pk].pk,
                                   note="moving")
    assert again.pk == mark.pk and Perceived.objects.get().note == "moving"
    assert version(e) == before + 5
    tacnet.tacnet_clear(user=ep.gm, encounter_id=e.pk, mark_id=mark.pk)
    assert not Perceived.objects.exists() and version(e) == before + 6
    with pytest.raises(tacnet.NoMark):
        tacnet.tacnet_clear(user=ep.gm, encounter_id=e.pk, mark_id=mark.pk)


def test_marks_refused_to_players_for_members_and_by_non_members(ep):
    e, c = running(ep)
    net = squad(ep, ep.ava)
    args = {"encounter_id": e.pk, "network_id": net.pk, "opponent_id": c[ep.guard.pk].pk}
    with pytest.raises(GameMasterOnly):
        tacnet.tacnet_perceive(user=ep.alice, **args)
    with pytest.raises(EncounterNotFound):
        tacnet.tacnet_perceive(user=factories.user("mallory"), **args)
    with pytest.raises(tacnet.NotOpponent):
        tacnet.tacnet_perceive(user=ep.gm, **{**args, "opponent_id": c[ep.ava.pk].pk})
    with pytest.raises(tacnet.NotMember):
        tacnet.tacnet_perceive(user=ep.gm, **args, by_id=c[ep.bo.pk].pk)
    assert not Perceived.objects.exists()


# --- the panel ------------------------------------------------------------------------------

def _logged(client, user, lang="en"):
    client.force_login(user)
    client.cookies["django_language"] = lang
    return client


def test_members_see_each_other_and_what_is_perceived_a_non_member_nothing(client, ep):
    e, c = running(ep)
    net = squad(ep, ep.ava, ep.bo)
    Sleeve.objects.filter(worn_by__character=ep.bo).update(damage=9, wounds=1)
    CarriedWeapon.objects.filter(pk=ep.w.bo_pistol.pk).update(loaded=7)
    tacnet.tacnet_perceive(user=ep.gm, encounter_id=e.pk, network_id=net.pk,
                           opponent_id=c[ep.guard.pk].pk, by_id=c[ep.bo.pk].pk,
                           note="behind the crates")
    url = reverse("encounters:play", args=[e.pk])
    html = _logged(client, ep.alice).get(url).content.decode()
    assert 'data-testid="tacnet"' in html and "TACNet Firewall" in html
    assert html.count('data-testid="tacnet-member"') == 2
    assert "<td>9 / 30</td>" in html and "Pistol 7/12 (+1)" in html
    assert "Guard · seen by Bo · behind the crates" in html
    assert 'data-testid="tacnet-perceive-form"' not in html  # the GM's, on the control page
    html = _logged(client, ep.alice, "fr").get(url).content.decode()
    assert "Adversaires perçus" in html and "vu par Bo" in html
    tacnet.tacnet_leave(user=ep.gm, network_id=net.pk, character_id=ep.bo.pk)
    html = _logged(client, ep.bob).get(url).content.decode()
    assert 'data-testid="tacnet"' not in html and "behind the crates" not in html
    assert "Pistol 12/12" not in html  # Ava's ammunition is not Bo's to see
    assert 'data-testid="tacnet-join"' in html  # only the open network's name to join


def test_the_gm_marks_on_the_control_page(client, ep):
    e, c = running(ep)
    net = squad(ep, ep.ava)
    url = reverse("encounters:control", args=[e.pk])
    html = _logged(client, ep.gm).get(url).content.decode()
    assert 'data-testid="tacnet-perceive-form"' in html
    response = client.post(reverse("eclipse_play:tacnet_perceive", args=[e.pk]),
                           {"page": "control", "network": net.pk,
                            "opponent": c[ep.guard.pk].pk, "by": c[ep.ava.pk].pk,
                            "note": "on the roof"}, **HTMX)
    assert response.status_code == 200 and "Guard · seen by Ava · on the roof" in (
        response.content.decode())
    mark = Perceived.objects.get()
    refused = client.post(reverse("eclipse_play:tacnet_join", args=[e.pk]),
                          {"page": "control", "network": net.pk, "character": ep.ava.pk},
                          **HTMX)
    assert "Ava is in the TACNet Firewall already." in refused.content.decode()
    client.post(reverse("eclipse_play:tacnet_clear", args=[e.pk]),
                {"page": "control", "mark": mark.pk}, **HTMX)
    assert not Perceived.objects.exists()


@pytest.mark.parametrize("extra", [0, 3])
def test_the_panel_query_count_is_pinned_at_two_squad_sizes(client, ep, extra,
                                                            django_assert_num_queries):
    """14: the page's 10, the members, their weapons, the marks (and the sheet of the one in
    turn counted in the 10), whatever the number of members, weapons and marks."""
    from encounters import services as enc

    e, c = running(ep)
    splicer = ep.sheets[ep.ava.pk].sleeve.template
    more = [Character.objects.create(campaign=ep.campaign, name=f"Sentinel {i}",
                                     owner=ep.alice) for i in range(extra)]
    for m in more:
        carry(sheet(m, splicer), ep.pistol)
    if more:
        enc.combatants_add(user=ep.gm, encounter_id=e.pk,
                           entries=[enc.CombatantEntry(character_id=m.pk) for m in more])
    net = squad(ep, ep.ava, ep.bo, *more)
    for who in (ep.ava, ep.bo, *more):
        combatant = e.combatants.get(character=who)
        tacnet.tacnet_perceive(user=ep.gm, encounter_id=e.pk, network_id=net.pk,
                               opponent_id=c[ep.guard.pk].pk, by_id=combatant.pk)
    url = reverse("encounters:play", args=[e.pk])
    _logged(client, ep.alice).get(url)
    with django_assert_num_queries(13):  # +1: the environment (gravity, ambush)
        html = client.get(url).content.decode()
    assert html.count('data-testid="tacnet-member"') == 2 + extra
    assert html.count('data-testid="tacnet-sighting"') == 2 + extra


# --- spotting -------------------------------------------------------------------------------

def test_indirect_fire_needs_a_fellow_member_who_perceives_the_target(ep):
    e, c = running(ep)
    net = squad(ep, ep.ava, ep.bo)
    bo, guard = c[ep.bo.pk].pk, c[ep.guard.pk].pk
    with pytest.raises(tacnet.SpotterNeeded):
        shoot(ep, e, c, FakeRandom(), indirect=True, spotter=True)
    with pytest.raises(tacnet.SpotterBlind) as blind:
        shoot(ep, e, c, FakeRandom(), indirect=True, spotter_id=bo)
    assert str(blind.value) == "Bo does not perceive Guard."
    tacnet.tacnet_perceive(user=ep.gm, encounter_id=e.pk, network_id=net.pk, opponent_id=guard)
    with pytest.raises(tacnet.SpotterBlind):  # the network's mark names no spotter
        shoot(ep, e, c, FakeRandom(), indirect=True, spotter_id=bo)
    with pytest.raises(tacnet.NotMember):  # the Guard is no fellow member
        shoot(ep, e, c, FakeRandom(), indirect=True, spotter_id=guard)
    assert CarriedWeapon.objects.get(pk=ep.w.ava_pistol.pk).loaded == 12  # nothing spent
    tacnet.tacnet_perceive(user=ep.gm, encounter_id=e.pk, network_id=net.pk, opponent_id=guard,
                           by_id=bo)
    step = shoot(ep, e, c, FakeRandom(), indirect=True, spotter_id=bo)
    payload = step.reaction.payload
    assert payload["spotter"] and payload["spotter_name"] == "Bo"
    assert ("indirect fire", -30) in [(m["label"], m["value"]) for m in payload["extra"]]


def test_without_a_network_the_tables_spotter_stands(ep):
    e, c = running(ep)
    step = shoot(ep, e, c, FakeRandom(), indirect=True, spotter=True)
    assert step.reaction.payload["spotter"] and step.reaction.payload["spotter_name"] == ""


# --- the API --------------------------------------------------------------------------------

def api(user) -> APIClient:
    a = APIClient()
    a.force_authenticate(user)
    return a


def test_the_api_creates_joins_marks_and_shows_the_panel_to_members_only(ep):
    e, c = running(ep)
    created = api(ep.gm).post(f"/api/eclipse/campaigns/{ep.campaign.pk}/tacnets/",
                              {"name": "Firewall"}, format="json")
    assert created.status_code == 201 and created.json()["open_to_players"] is True
    net = created.json()["id"]
    joined = api(ep.alice).post(f"/api/eclipse/tacnets/{net}/join/", {"character": ep.ava.pk},
                                format="json")
    assert joined.status_code == 200 and joined.json()["name"] == "Firewall"
    Sleeve.objects.filter(worn_by__character=ep.bo).update(mesh_implants=False)
    refused = api(ep.bob).post(f"/api/eclipse/tacnets/{net}/join/", {"character": ep.bo.pk},
                               format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "ep_tacnet_no_implants"
    stranger = api(factories.user("mallory")).post(f"/api/eclipse/tacnets/{net}/join/",
                                                   {"character": ep.ava.pk}, format="json")
    assert stranger.status_code == 404 and stranger.json()["code"] == "ep_tacnet_no_network"
    base = f"/api/eclipse/encounters/{e.pk}/tacnet"
    marked = api(ep.gm).post(f"{base}/perceive/", {"network": net, "opponent": c[ep.guard.pk].pk,
                                                  "by": c[ep.ava.pk].pk, "note": "north"},
                             format="json")
    assert marked.status_code == 200 and marked.json()["version"] == version(e)
    mine = api(ep.alice).get(f"{base}/").json()
    [network] = mine["networks"]
    assert [m["name"] for m in network["members"]] == ["Ava"]
    assert network["members"][0]["weapons"][0] == {"name": "Pistol", "loaded": 12,
                                                   "capacity": 12, "spares": 1,
                                                   "state": "working"}
    assert network["perceived"] == [{"id": Perceived.objects.get().pk,
                                     "opponent": c[ep.guard.pk].pk, "name": "Guard",
                                     "by": "Ava", "note": "north"}]
    theirs = api(ep.bob).get(f"{base}/").json()
    assert theirs["networks"] == []
    player_mark = api(ep.alice).post(f"{base}/clear/", {"mark": Perceived.objects.get().pk},
                                     format="json")
    assert player_mark.status_code == 403 and player_mark.json()["code"] == "ep_gm_only"
    left = api(ep.gm).post(f"/api/eclipse/tacnets/{net}/leave/", {"character": ep.ava.pk},
                           format="json")
    assert left.status_code == 200 and not Perceived.objects.exists()


def test_joining_outside_a_running_encounter_touches_none(ep):
    e, _c = running(ep)
    Encounter.objects.filter(pk=e.pk).update(state=Encounter.State.ENDED)
    before = version(e)
    squad(ep, ep.ava)
    assert version(e) == before
    assert SquadMember.objects.get().joined_at <= timezone.now()
